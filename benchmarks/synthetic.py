"""Generated scenarios of any size, valid by construction, for benchmarks.

A grid of spaces: the top row and every fifth column are sea, the rest land. Each space borders
its right, lower and lower-right neighbours: about three borders a
space. Two nations split the land; every land space holds one infantry.

Run alone, it writes grids of a few sizes and prints what each holds and how long writing it
took, against dumping the same data with plain `yaml.safe_dump` (the baseline):

    python benchmarks/synthetic.py [--keep FOLDER]
"""
from __future__ import annotations

from pathlib import Path

from sandtable.yamlwrite import save_yaml

COLUMNS = 20


def _is_sea(row: int, column: int) -> bool:
    return row == 0 or column % 5 == 0


def write_grid_scenario(folder: Path, spaces: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = -(-spaces // COLUMNS)
    cells = [(r, c) for r in range(rows) for c in range(COLUMNS)][:spaces]
    ids = {cell: f"s{cell[0]:03d}-{cell[1]:02d}" for cell in cells}
    space_list, borders, setup = [], [], []
    for (r, c) in cells:
        sea = _is_sea(r, c)
        space_list.append({"id": ids[(r, c)], "name": f"Space {r}-{c}", "kind": "sea" if sea else "land",
                           "value": 0 if sea else 1 + (r + c) % 3, "position": [c * 60.0, r * 60.0]})
        for neighbour in ((r, c + 1), (r + 1, c), (r + 1, c + 1)):
            if neighbour in ids:
                kinds = {_is_sea(r, c), _is_sea(*neighbour)}
                kind = "sea" if kinds == {True} else "land" if kinds == {False} else "coast"
                borders.append({"between": [ids[(r, c)], ids[neighbour]], "kind": kind})
        if not sea:
            owner = "west" if c < COLUMNS // 2 else "east"
            setup.append({"space": ids[(r, c)], "control": owner,
                          "units": [{"type": "infantry", "count": 1}]})
    save_yaml(folder / "scenario.yaml", {
        "id": folder.name, "name": f"Grid of {spaces} spaces", "system": "generic",
        "sides": [{"id": "blue", "name": "Blue"}, {"id": "grey", "name": "Grey"}],
        "nations": [{"id": "west", "name": "West", "side": "blue"},
                    {"id": "east", "name": "East", "side": "grey"}],
        "turn_order": ["west", "east"]}, within=folder)
    save_yaml(folder / "map.yaml", {"spaces": space_list, "borders": borders}, within=folder)
    save_yaml(folder / "units.yaml", {"unit_types": [
        {"id": "infantry", "name": "Infantry", "domain": "land", "cost": 3, "stats": {"attack": 1, "defense": 2}}]},
        within=folder)
    save_yaml(folder / "setup.yaml", {"spaces": setup}, within=folder)
    return folder


def _figures(folder: Path) -> tuple[int, int, int]:
    """(spaces, borders, bytes) of a written grid, read back with plain yaml.safe_load."""
    import yaml
    data = yaml.safe_load((folder / "map.yaml").read_text(encoding="utf-8"))
    size = sum(p.stat().st_size for p in folder.glob("*.yaml"))
    return len(data["spaces"]), len(data["borders"]), size


def main() -> int:
    import argparse
    import tempfile
    import time

    import yaml

    parser = argparse.ArgumentParser(description="Write generated grid scenarios and print their figures.")
    parser.add_argument("--keep", metavar="FOLDER", help="write the grids here and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        root = Path(args.keep or temp)
        print(f"{'grid':<10}{'spaces':>8}{'borders':>9}{'bytes':>11}{'write ms':>10}{'safe_dump ms':>14}")
        for spaces in (3, 200, 2000):
            folder = root / f"grid-{spaces}"
            start = time.perf_counter()
            write_grid_scenario(folder, spaces)
            written = (time.perf_counter() - start) * 1000
            count, borders, size = _figures(folder)
            data = {name: yaml.safe_load((folder / name).read_text(encoding="utf-8"))
                    for name in ("scenario.yaml", "map.yaml", "units.yaml", "setup.yaml")}
            start = time.perf_counter()
            for value in data.values():
                yaml.safe_dump(value, allow_unicode=True, sort_keys=False)
            dumped = (time.perf_counter() - start) * 1000
            print(f"{folder.name:<10}{count:>8}{borders:>9}{size:>11,}{written:>10.1f}{dumped:>14.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
