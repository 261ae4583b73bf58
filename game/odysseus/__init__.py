"""Odysseus: Winds of Fate."""
