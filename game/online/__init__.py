"""Play across machines: an online table (issue 30).

One referee holds each match and validates every action with the game's controller; each
player's program receives only its own seat's view (:mod:`protocol`).  :mod:`referee` is pure of
the network; :mod:`transport` carries messages (in memory for tests, or over Matrix in
:mod:`matrix`, which needs the ``online`` extra: ``pip install tabletop-hotseat[online]``).
"""
