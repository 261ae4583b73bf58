"""Monster Fandango: monster-versus-monster quests on a hex map (1 to 4 seats)."""
