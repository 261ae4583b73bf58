"""Tracks: named board spaces joined by typed links.

Pure Python (no pygame): rules code uses it.

A track board is drawn in Tiled as objects.  Every object that is not a
polyline or a text label is a *space* (its name is its key; unnamed objects
get ``#<id>``).
Links come two ways:

* an object-reference custom property (Tiled ``type="object"``) on a space:
  the property name is the link kind (``next``, ``calm``, ``stormy``...)
  and the target object is the destination;
* a polyline whose first point lies in (or within ``snap`` pixels of) one
  space and whose last point lies in/near another; its ``kind`` property is
  the link kind (``"link"`` if absent).  Polyline links run from the first
  point to the last; a true ``two_way`` property adds the way back.  A
  polyline without ``kind`` whose ends do not both land on spaces is taken
  for decoration and ignored; one with ``kind`` is an error.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

__all__ = ["MapObject", "Space", "Link", "Track"]

PointT = tuple[float, float]


def _rotate(px: float, py: float, ox: float, oy: float,
            degrees: float) -> PointT:
    """Rotate a point clockwise (screen coordinates) about an origin."""
    if not degrees:
        return px, py
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    dx, dy = px - ox, py - oy
    return ox + dx * c - dy * s, oy + dx * s + dy * c


def _in_polygon(px: float, py: float, pts: Sequence[PointT]) -> bool:
    """Even-odd ray casting point-in-polygon test."""
    inside = False
    for (x1, y1), (x2, y2) in zip(pts, [*pts[1:], pts[0]]):
        if (y1 > py) != (y2 > py):
            if px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


@dataclass
class MapObject:
    """One Tiled object, in map pixels, with what pytmx loses put back.

    ``y`` is the top edge for every shape (tile objects included, as pytmx
    gives them); ``points`` are absolute and already rotated for polygons
    and polylines.  ``object_refs`` holds the ``type="object"`` properties
    (name -> target object id; 0 means unset).
    """

    id: int
    name: str
    type: str
    shape: str
    x: float
    y: float
    width: float = 0.0
    height: float = 0.0
    rotation: float = 0.0
    points: tuple[PointT, ...] = ()
    properties: dict[str, Any] = field(default_factory=dict)
    object_refs: dict[str, int] = field(default_factory=dict)
    layer: str = ""
    gid: int = 0
    visible: bool = True


@dataclass
class Space:
    """A named board space with its geometry and custom properties.

    ``links`` holds the object-reference links declared on the space
    (kind -> target space name); ``Track.links_from`` also sees polylines.

    >>> Space("a", 0, 0, 10, 20).center
    (5.0, 10.0)
    """

    name: str
    x: float
    y: float
    width: float
    height: float
    properties: dict[str, Any] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    shape: str = "rectangle"
    id: int = 0
    rotation: float = 0.0
    points: tuple[PointT, ...] = ()

    @property
    def pivot(self) -> PointT:
        """Point Tiled rotates the object about."""
        if self.shape == "tile":
            return self.x, self.y + self.height
        return self.x, self.y

    @property
    def center(self) -> PointT:
        """Centre of the space in map pixels."""
        if self.points:
            xs, ys = zip(*self.points)
            return sum(xs) / len(xs), sum(ys) / len(ys)
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        return _rotate(cx, cy, *self.pivot, self.rotation)

    def _local(self, px: float, py: float) -> PointT:
        """A map point in the unrotated frame of the space."""
        return _rotate(px, py, *self.pivot, -self.rotation)

    def contains(self, px: float, py: float) -> bool:
        """Whether a map pixel lies in the space (points contain nothing)."""
        if self.points:
            return _in_polygon(px, py, self.points)
        if self.width <= 0 or self.height <= 0:
            return False
        lx, ly = self._local(px, py)
        if self.shape == "ellipse":
            rx, ry = self.width / 2, self.height / 2
            nx, ny = (lx - self.x - rx) / rx, (ly - self.y - ry) / ry
            return nx * nx + ny * ny <= 1.0
        return (self.x <= lx <= self.x + self.width
                and self.y <= ly <= self.y + self.height)

    def distance_to(self, px: float, py: float) -> float:
        """Pixels from a point to the space's bounding box (0 inside)."""
        if self.contains(px, py):
            return 0.0
        if self.points:
            xs, ys = zip(*self.points)
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            lx, ly = px, py
        else:
            x0, y0 = self.x, self.y
            x1, y1 = self.x + self.width, self.y + self.height
            lx, ly = self._local(px, py)
        dx = max(x0 - lx, 0.0, lx - x1)
        dy = max(y0 - ly, 0.0, ly - y1)
        return math.hypot(dx, dy)


@dataclass(frozen=True)
class Link:
    """A directed link of some kind from one space to another."""

    source: str
    target: str
    kind: str
    properties: dict[str, Any] = field(default_factory=dict, compare=False,
                                       hash=False)


class Track:
    """Spaces and links, with the queries board games need.

    >>> t = Track([Space("a", 0, 0, 10, 10, links={"next": "b"}),
    ...            Space("b", 20, 0, 10, 10, {"port": True})])
    >>> [l.target for l in t.links_from("a")], t.space_at(25, 5).name
    (['b'], 'b')
    >>> [s.name for s in t.spaces_where(port=True)]
    ['b']
    """

    def __init__(self, spaces: Iterable[Space],
                 extra_links: Iterable[Link] = ()) -> None:
        self.spaces: dict[str, Space] = {}
        for s in spaces:
            if s.name in self.spaces:
                raise ValueError(f"two spaces are named {s.name!r}")
            self.spaces[s.name] = s
        self.links: list[Link] = [
            Link(s.name, target, kind)
            for s in self.spaces.values() for kind, target in s.links.items()]
        self.links.extend(extra_links)
        for link in self.links:
            for end in (link.source, link.target):
                if end not in self.spaces:
                    raise ValueError(
                        f"link {link} names unknown space {end!r}")

    def __len__(self) -> int:
        return len(self.spaces)

    def __contains__(self, name: object) -> bool:
        return name in self.spaces

    def space(self, name: str) -> Space:
        """The space called ``name`` (KeyError if none)."""
        return self.spaces[name]

    def spaces_where(self, **props: Any) -> list[Space]:
        """Spaces whose custom properties equal all the given values."""
        return [s for s in self.spaces.values()
                if all(k in s.properties and s.properties[k] == v
                       for k, v in props.items())]

    def links_from(self, name: str, kind: str | None = None) -> list[Link]:
        """Links leaving ``name``, optionally only of one kind."""
        return [l for l in self.links
                if l.source == name and (kind is None or l.kind == kind)]

    def links_to(self, name: str, kind: str | None = None) -> list[Link]:
        """Links arriving at ``name``, optionally only of one kind."""
        return [l for l in self.links
                if l.target == name and (kind is None or l.kind == kind)]

    def neighbours(self, name: str, kind: str | None = None) -> list[str]:
        """Distinct targets of the links leaving ``name``."""
        return list(dict.fromkeys(l.target for l in
                                  self.links_from(name, kind)))

    def space_at(self, px: float, py: float) -> Space | None:
        """The topmost space containing a map pixel, if any."""
        for s in reversed(self.spaces.values()):
            if s.contains(px, py):
                return s
        return None

    def nearest_space(self, px: float, py: float,
                      max_distance: float | None = None) -> Space | None:
        """The space closest to a pixel (by edge, then centre distance)."""
        def key(s: Space) -> tuple[float, float]:
            cx, cy = s.center
            return s.distance_to(px, py), math.hypot(cx - px, cy - py)

        best = min(self.spaces.values(), key=key, default=None)
        if best is None:
            return None
        too_far = (max_distance is not None
                   and best.distance_to(px, py) > max_distance)
        return None if too_far else best

    def resolve(self, px: float, py: float, snap: float) -> Space | None:
        """The space at a pixel, else the nearest one within ``snap``."""
        return self.space_at(px, py) or self.nearest_space(px, py, snap)

    @classmethod
    def from_objects(cls, objects: Iterable[MapObject],
                     snap: float = 16.0) -> Track:
        """Build a track from map objects (see the module docstring)."""
        objects = list(objects)
        bodies = [o for o in objects if o.shape not in ("polyline", "text")]
        names = {o.id: o.name or f"#{o.id}" for o in bodies}
        known = {o.id for o in objects}
        spaces = [_space_of(o, names, known) for o in bodies]
        track = cls(spaces)
        for o in objects:
            if o.shape == "polyline":
                track.links.extend(_polyline_links(track, o, snap))
        return track


def _space_of(o: MapObject, names: dict[int, str], known: set[int]) -> Space:
    """Turn a non-polyline object into a Space, resolving its links."""
    links = {}
    for kind, target in o.object_refs.items():
        if not target:
            continue
        if target not in names:
            what = "not a space" if target in known else "missing"
            raise ValueError(f"object {o.id} ({o.name!r}): link {kind!r} "
                             f"points to object {target}, which is {what}")
        links[kind] = names[target]
    props = {k: v for k, v in o.properties.items() if k not in o.object_refs}
    points = o.points if o.shape == "polygon" else ()
    return Space(names[o.id], o.x, o.y, o.width, o.height, props, links,
                 o.shape, o.id, o.rotation, points)


def _polyline_links(track: Track, o: MapObject, snap: float) -> list[Link]:
    """Links drawn as a polyline between two spaces."""
    explicit = "kind" in o.properties
    ends = [track.resolve(x, y, snap) for x, y in o.points[:1] + o.points[-1:]]
    if len(o.points) < 2 or None in ends or ends[0] is ends[1]:
        if explicit:
            raise ValueError(f"polyline {o.id} ({o.name!r}) does not join "
                             f"two spaces")
        return []
    kind = str(o.properties.get("kind", "link"))
    extra = {k: v for k, v in o.properties.items()
             if k not in ("kind", "two_way")}
    a, b = ends[0].name, ends[1].name
    links = [Link(a, b, kind, extra)]
    if o.properties.get("two_way"):
        links.append(Link(b, a, kind, extra))
    return links
