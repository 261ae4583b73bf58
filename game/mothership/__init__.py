"""TRAP: Mothership Fantasia: a cooperative escape from an alien ship."""
