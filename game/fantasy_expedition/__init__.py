"""Fantasy Expedition: nine hidden-team players climb a board of mines, portals and fear."""
