"""Reading the board geometry of a TripleA map folder into a scenario's spaces.

A TripleA map folder describes its board in text files, one territory a line, in board pixels:

- `centers.txt`: `Name  (x,y)`, the centre of the territory -> the space's `position`;
- `polygons.txt`: `Name  <  (x,y) (x,y) ... >  <  ... >`, one or more outlines ->
  `shape.polygons`, simplified (sandtable.geometry) so that a map file stays readable;
- `name_place.txt`: `Name  (x,y)`, where the name is written (the start of its baseline) ->
  `shape.label`.

Names are TripleA's territory names. A line that cannot be read, or a name that matches no space,
is reported with its file, line and column; nothing is guessed. Only files inside the map folder
are read (a link out of it is reported, never followed), and an outline that is no polygon (fewer
than three points) is left out.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..diagnostics import Diagnostic, Location, info, warning
from ..geometry import DEFAULT_TOLERANCE, TooIntricate, extent, simplify_ring
from ..paths import is_inside
from ..yamlsource import MAX_FILE_BYTES

CENTERS, POLYGONS, LABELS = "centers.txt", "polygons.txt", "name_place.txt"
MAX_MAP_FILE_BYTES = 16 * 1024 * 1024
MAX_DIGITS = 9    # a board position of a billion pixels or more is no position
MAX_OUTLINE_BYTES = MAX_FILE_BYTES   # what map.yaml may hold

_POINT = r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)"
_ONE_POINT = re.compile(rf"\s*{_POINT}\s*$")
_RING = re.compile(r"<([^>]*)>")
_POINTS = re.compile(_POINT)


class NotAMapFolder(Exception):
    """The folder has none of the geometry files; a usage error, not a problem in the data."""


@dataclass
class Placed:
    """A value read from a map file, and where its line is."""

    value: Any  # a point [x, y], or a list of rings of points
    where: Location


@dataclass
class Board:
    """The geometry of a map folder by TripleA territory name, and what was wrong with it."""

    folder: Path
    centers: dict[str, Placed] = field(default_factory=dict)
    polygons: dict[str, Placed] = field(default_factory=dict)
    labels: dict[str, Placed] = field(default_factory=dict)
    size: tuple[int, int] = (0, 0)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def names(self) -> list[str]:
        seen = dict.fromkeys(list(self.centers) + list(self.polygons) + list(self.labels))
        return list(seen)


def map_folder(path: Path | str) -> Path:
    """The folder holding the geometry files: DIR itself, or DIR/map as a map's download has it."""
    path = Path(path)
    for candidate in (path, path / "map"):
        if any((candidate / name).is_file() for name in (CENTERS, POLYGONS)):
            return candidate
    raise NotAMapFolder(f"{path}: no {CENTERS} or {POLYGONS} here or in {path / 'map'}")


def read_board(path: Path | str, tolerance: float = DEFAULT_TOLERANCE) -> Board:
    """Read a map folder's geometry. Raises NotAMapFolder, and OSError when a file cannot be read.

    Only files inside `path` are read: a link that leads out of it is reported, not followed."""
    folder = map_folder(path)
    board = Board(folder)
    reader = _Reader(Path(path), board.diagnostics)
    board.centers = reader.points(folder / CENTERS)
    raw = reader.rings(folder / POLYGONS)
    board.labels = reader.points(folder / LABELS)
    board.size = extent([ring for placed in raw.values() for ring in placed.value])
    for name, placed in raw.items():
        try:
            board.polygons[name] = Placed([simplify_ring(ring, tolerance) for ring in placed.value], placed.where)
        except TooIntricate as why:
            board.diagnostics.append(warning("TPM001", f"{name!r}: {why}; its outline was not used", placed.where,
                                             hint="trace the outline again, or give a larger --tolerance"))
    return board


class _Reader:
    """Reads the files of one map folder, keeping to it."""

    def __init__(self, root: Path, diagnostics: list[Diagnostic]):
        self.root = root
        self.diagnostics = diagnostics

    def points(self, path: Path) -> dict[str, Placed]:
        found: dict[str, Placed] = {}
        for number, line in self.lines(path):
            name, rest, column = _split_name(line)
            match = _ONE_POINT.match(rest)
            if not name or not match:
                _unreadable(self.diagnostics, path, number, column if name else 1, line, "`Name  (x,y)`")
                continue
            point = self.numbers(path, number, column, [match])
            if point is not None:
                _keep(found, name, Placed(point[0], Location(path, number, 1)), self.diagnostics)
        return found

    def rings(self, path: Path) -> dict[str, Placed]:
        found: dict[str, Placed] = {}
        for number, line in self.lines(path):
            name, rest, column = _split_name(line)
            if not name or not _is_rings(rest):
                _unreadable(self.diagnostics, path, number, column if name else 1, line,
                            "`Name  <  (x,y) (x,y) ... >`")
                continue
            rings: list[np.ndarray] = []
            for ring in _RING.finditer(rest):
                points = self.ring_points(path, number, column + ring.start(1), ring.group(1))
                if points is None:   # the whole line is skipped
                    rings = []
                    break
                # a pair (x, y) as one number, to count the distinct points
                distinct = len(np.unique(points[:, 0] * (1 << 32) + points[:, 1]))
                if distinct < 3:
                    self.diagnostics.append(warning(
                        "TPM001", f"{name!r}: an outline of {distinct} distinct point(s) is no polygon; it "
                        "was left out", Location(path, number, column + ring.start())))
                    continue
                rings.append(points)
            if rings:
                _keep(found, name, Placed(rings, Location(path, number, 1)), self.diagnostics)
        return found

    def ring_points(self, path: Path, number: int, column: int, text: str) -> np.ndarray | None:
        """The points of an outline's text `(x,y) (x,y) ...` (at `column`), as an array of
        shape (n, 2); None, reported, when a coordinate has more digits than a board position
        can have (a number of thousands of digits is also slow to convert)."""
        try:
            points = np.array(_POINTS.findall(text), dtype=np.int64).reshape(-1, 2)
            if not (np.abs(points) >= 10 ** MAX_DIGITS).any():
                return points
        except (ValueError, OverflowError):
            pass
        found = self.numbers(path, number, column, _POINTS.finditer(text))
        return None if found is None else np.array(found, dtype=np.int64).reshape(-1, 2)

    def numbers(self, path: Path, number: int, column: int, matches) -> list[list[int]] | None:
        """The points of `matches` (x and y groups); None, reported, when a coordinate has more
        digits than a board position can have."""
        points = []
        for match in matches:
            for group in (1, 2):
                digits = match.group(group).lstrip("-")
                if len(digits) > MAX_DIGITS:
                    self.diagnostics.append(warning(
                        "TPM001", f"a coordinate of {len(digits):,} digits is no board position (at most "
                        f"{MAX_DIGITS}); the line was skipped", Location(path, number, column + match.start(group))))
                    return None
            points.append([int(match.group(1)), int(match.group(2))])
        return points

    def lines(self, path: Path):
        """(line number, text) of a map file; nothing for a file that is not there, or that lies
        outside the map folder (a link out of it)."""
        if not (path.is_file() or path.is_symlink()):
            return
        if not is_inside(self.root, path):
            self.diagnostics.append(warning(
                "TPM001", "the file links to a file outside the map folder; it was not read",
                Location(path, 0, 0), hint="copy the file into the map folder instead of linking"))
            return
        yield from _lines(path, self.diagnostics)


def _lines(path: Path, diagnostics: list[Diagnostic]):
    """(line number, text) of a map file inside the map folder."""
    if not path.is_file():
        return
    size = path.stat().st_size
    if size > MAX_MAP_FILE_BYTES:
        diagnostics.append(warning("TPM001", f"the file is {size:,} bytes, over the limit of "
                                   f"{MAX_MAP_FILE_BYTES:,}; it was not read", Location(path, 1, 1)))
        return
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        # Map makers' tools on Windows wrote Latin-1; the names then match the game's as they are.
        text = raw.decode("latin-1")
        first_bad = raw.count(b"\n", 0, problem.start) + 1
        diagnostics.append(info("TPM001", "the file is not UTF-8; it was read as Latin-1",
                                Location(path, first_bad, 1)))
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def _split_name(line: str) -> tuple[str, str, int]:
    """The territory name (the text before the first point or outline), the rest, and its column."""
    cut = min((i for i in (line.find("("), line.find("<")) if i >= 0), default=len(line))
    return line[:cut].strip(), line[cut:], cut + 1


def _is_rings(text: str) -> bool:
    """`<  (x,y) (x,y) ... >  <  ... >`: outlines of points, nothing else. Checked by taking the
    parts away rather than with one pattern for the whole line, whose nested repetition makes
    the regular expression engine keep a state per point (a gigabyte for a line of 15 MB)."""
    bodies = _RING.findall(text)
    return bool(bodies) and not _RING.sub("", text).strip() and \
        all(_POINTS.search(body) and not _POINTS.sub("", body).strip() for body in bodies)


def _unreadable(diagnostics, path: Path, line: int, column: int, text: str, form: str) -> None:
    shown = text.strip()
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    diagnostics.append(warning("TPM001", f"cannot read {shown!r}: a line reads {form}; it was skipped",
                               Location(path, line, column)))


def _keep(found: dict[str, Placed], name: str, placed: Placed, diagnostics: list[Diagnostic]) -> None:
    if name in found:
        first = found[name].where
        diagnostics.append(warning("TPM001", f"{name!r} is given a second time (first on line "
                                   f"{first.line}); the first is kept", placed.where))
        return
    found[name] = placed


def apply_board(spaces: list[dict], board: Board, space_for: Callable[[str], dict | None]) -> list[Diagnostic]:
    """Give each space the board's position, outline and label; report what matched nothing.

    `space_for` finds the space a TripleA territory name stands for (None when there is none).
    """
    diagnostics: list[Diagnostic] = []
    placed: set[int] = set()
    for name in board.names():
        space = space_for(name)
        if space is None:
            for table in (board.centers, board.polygons, board.labels):
                if name in table:
                    diagnostics.append(warning(
                        "TPM002", f"{name!r} is not a territory of the game; its geometry was not used",
                        table[name].where))
            continue
        placed.add(id(space))
        if name in board.centers:
            space["position"] = board.centers[name].value
        if name in board.polygons:
            shape: dict = {"polygons": board.polygons[name].value}
            if name in board.labels:
                shape["label"] = board.labels[name].value
            space["shape"] = shape
        elif name in board.labels:
            diagnostics.append(warning("TPM002", f"{name!r} has a name place but no outline in "
                                       f"{POLYGONS}; the name place was not used", board.labels[name].where))
    for space in spaces:
        if id(space) not in placed:
            diagnostics.append(info("TPM003", f"the space {space.get('id')!r} has no geometry in the "
                                    "map folder", Location(board.folder, 0, 0)))
    return diagnostics


def outlines_too_large(board: Board) -> str | None:
    """Why the board's outlines cannot go into a map.yaml, or None. Each ring takes a line of
    map.yaml, written as JSON writes it: counted here, a file over the limit scenario files are
    read with is refused before the (much longer) work of writing it."""
    size = sum(len(json.dumps(ring)) + len("    - \n") for placed in board.polygons.values() for ring in placed.value)
    if size <= MAX_OUTLINE_BYTES:
        return None
    return (f"{board.folder}: the outlines would take {size:,} bytes of map.yaml, over the limit of "
            f"{MAX_OUTLINE_BYTES:,} that scenario files are read with; nothing was written (a larger --tolerance "
            "keeps fewer points)")


def board_extent(board: Board) -> dict:
    """The board's width and height (the extent of its outlines), for `board` in map.yaml."""
    width, height = board.size
    return {"width": width, "height": height} if width and height else {}
