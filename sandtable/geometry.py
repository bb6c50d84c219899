"""Plane geometry of a board: simplifying the outline of a space.

Outlines traced from a board picture have a point on every pixel step; most of them lie on a
straight line within a pixel and add nothing a reader can see. `simplify_ring` drops them with the
Douglas-Peucker algorithm: a point is kept only when leaving it out would move the outline by
more than the tolerance. It is written here (a few lines over NumPy) rather than taken from a
geometry library such as Shapely, which would add a compiled dependency for this one function.

Douglas-Peucker scans the points between two kept points for the farthest and splits there. All
the spans of one depth are scanned together, in one NumPy pass over the outline, so that an
outline of a million points costs a few dozen passes rather than a million small scans; the
result is the same as splitting one span at a time. On a traced outline each split about halves
its span (n log n in all), but an outline that keeps a point next to an end at every split (a
sawtooth whose teeth shrink) costs n squared: a million points would take hours. The scans are
counted, and an outline that needs more than WORK_PER_POINT of them per point is refused
(TooIntricate) rather than simplified: real outlines need a fraction of it.
"""
from __future__ import annotations

import numpy as np

Point = list[int]

# How far (board pixels) a simplified outline may stray from the traced one.
DEFAULT_TOLERANCE = 1.5
# Points scanned per point of the outline, at most (World War II v3's outlines need 11, a noisy
# circle of 200,000 points 26), and a floor so that a small outline is never refused.
WORK_PER_POINT = 64
WORK_FLOOR = 100_000


class TooIntricate(ValueError):
    """An outline Douglas-Peucker would take quadratic time to simplify."""


def simplify_ring(ring, tolerance: float = DEFAULT_TOLERANCE) -> list[Point]:
    """A closed outline (first point not repeated) with the points that matter, in order.

    `ring` is a list of [x, y] or an array of shape (n, 2). Repeated points are dropped first; a
    ring that would shrink below a triangle is returned without them, as it was.
    """
    points = _without_repeats(ring)
    return points[kept_points(points, tolerance)].tolist()


def without_repeats(ring) -> list[Point]:
    """The ring without a point equal to the one before it, nor a last point equal to the first."""
    return _without_repeats(ring).tolist()


def _without_repeats(ring) -> np.ndarray:
    points = np.asarray(ring, dtype=np.int64).reshape(-1, 2)
    if len(points) > 1:
        points = points[np.concatenate([[True], (points[1:] != points[:-1]).any(axis=1)])]
    while len(points) > 1 and (points[-1] == points[0]).all():
        points = points[:-1]
    return points


def kept_points(points, tolerance: float) -> list[int]:
    """The indices of the points a closed outline keeps (no repeated points in it).

    The ring is cut at its first point and at the point farthest from it, and each half is
    simplified on its own.
    """
    everything = list(range(len(points)))
    if len(points) <= 3:
        return everything
    array = np.asarray(points, dtype=float)
    far = int(np.argmax(((array - array[0]) ** 2).sum(axis=1)))
    if far == 0:
        return everything
    closed = np.vstack([array, array[:1]])
    keep = np.zeros(len(closed), dtype=bool)
    keep[[0, far, len(closed) - 1]] = True
    _mark(closed, np.array([0, far]), np.array([far, len(closed) - 1]), tolerance, keep,
          WORK_PER_POINT * len(points) + WORK_FLOOR)
    kept = [int(i) for i in np.flatnonzero(keep[:-1])]
    return kept if len(kept) >= 3 else everything


def _mark(points: np.ndarray, starts: np.ndarray, ends: np.ndarray, tolerance: float, keep: np.ndarray,
          budget: int) -> None:
    """Douglas-Peucker between kept points, the spans (starts[i], ends[i]) of one depth at a
    time; at most `budget` points are scanned in all."""
    while len(starts):
        lengths = ends - starts - 1           # the points inside each span
        inside = lengths > 0
        starts, ends, lengths = starts[inside], ends[inside], lengths[inside]
        if not len(starts):
            return
        budget -= int(lengths.sum())
        if budget < 0:
            raise TooIntricate(f"an outline of {len(points) - 1:,} points is too intricate to simplify "
                               f"(more than {WORK_PER_POINT} scans a point)")
        span = np.repeat(np.arange(len(starts)), lengths)          # the span of each point scanned
        first = np.cumsum(lengths) - lengths                        # where each span's points begin
        index = starts[span] + 1 + np.arange(len(span)) - first[span]
        distances = _distances(points[index], points[starts][span], points[ends][span])
        farthest = np.maximum.reduceat(distances, first)
        # the first point of each span at its farthest distance, as np.argmax would choose
        at_max = np.flatnonzero(distances == farthest[span])
        _, chosen = np.unique(span[at_max], return_index=True)
        middle = index[at_max[chosen]]
        split = farthest > tolerance
        keep[middle[split]] = True
        starts, ends = (np.concatenate([starts[split], middle[split]]),
                        np.concatenate([middle[split], ends[split]]))


def segment_distances(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distance of each point to the segment from a to b (not to the line through them:
    a spike beyond the segment's end is far from it)."""
    return _distances(points, np.broadcast_to(a, points.shape), np.broadcast_to(b, points.shape))


def _distances(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distance of each point to its own segment, from a[i] to b[i]."""
    direction = b - a
    squared = (direction * direction).sum(axis=1)
    offsets = points - a
    along = np.divide((offsets * direction).sum(axis=1), squared, out=np.zeros(len(points)), where=squared != 0)
    along = np.clip(along, 0.0, 1.0)
    return np.hypot(*(offsets - along[:, None] * direction).T)


def extent(polygons) -> tuple[int, int]:
    """Width and height of the area from the origin that holds every point (board pixels)."""
    width = height = 0
    for ring in polygons:
        array = np.asarray(ring).reshape(-1, 2)
        if len(array):
            width, height = max(width, int(array[:, 0].max()) + 1), max(height, int(array[:, 1].max()) + 1)
    return width, height
