"""Plane geometry of a board: simplifying the outline of a space.

Outlines traced from a board picture have a point on every pixel step; most of them lie on a
straight line within a pixel and add nothing a reader can see. `simplify_ring` drops them with the
Douglas-Peucker algorithm: a point is kept only when leaving it out would move the outline by
more than the tolerance. It is written here (a few lines over NumPy) rather than taken from a
geometry library such as Shapely, which would add a compiled dependency for this one function.
"""
from __future__ import annotations

import numpy as np

Point = list[int]

# How far (board pixels) a simplified outline may stray from the traced one.
DEFAULT_TOLERANCE = 1.5


def simplify_ring(ring: list[Point], tolerance: float = DEFAULT_TOLERANCE) -> list[Point]:
    """A closed outline (first point not repeated) with the points that matter, in order.

    Repeated points are dropped first; a ring that would shrink below a triangle is returned
    without them, as it was.
    """
    points = without_repeats(ring)
    return [points[i] for i in kept_points(points, tolerance)]


def kept_points(points: list[Point], tolerance: float) -> list[int]:
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
    _mark(closed, 0, far, tolerance, keep)
    _mark(closed, far, len(closed) - 1, tolerance, keep)
    kept = [int(i) for i in np.flatnonzero(keep[:-1])]
    return kept if len(kept) >= 3 else everything


def _mark(points: np.ndarray, first: int, last: int, tolerance: float, keep: np.ndarray) -> None:
    """Douglas-Peucker between two kept points, with a stack instead of recursion."""
    spans = [(first, last)]
    while spans:
        start, end = spans.pop()
        if end - start < 2:
            continue
        distances = segment_distances(points[start + 1:end], points[start], points[end])
        farthest = int(np.argmax(distances))
        if distances[farthest] > tolerance:
            middle = start + 1 + farthest
            keep[middle] = True
            spans += [(start, middle), (middle, end)]


def segment_distances(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distance of each point to the segment from a to b (not to the line through them:
    a spike beyond the segment's end is far from it)."""
    direction = b - a
    squared = float(direction @ direction)
    offsets = points - a
    along = np.zeros(len(points)) if squared == 0.0 else np.clip(offsets @ direction / squared, 0.0, 1.0)
    return np.hypot(*(offsets - along[:, None] * direction).T)


def without_repeats(ring: list[Point]) -> list[Point]:
    points = [list(p) for i, p in enumerate(ring) if i == 0 or list(p) != list(ring[i - 1])]
    while len(points) > 1 and points[-1] == points[0]:
        points.pop()
    return points


def extent(polygons) -> tuple[int, int]:
    """Width and height of the area from the origin that holds every point (board pixels)."""
    width = height = 0
    for ring in polygons:
        for x, y in ring:
            width, height = max(width, x + 1), max(height, y + 1)
    return width, height
