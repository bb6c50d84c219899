"""Files that ship beside the packages (schemas, the diagnostics page), wherever they were put."""
from __future__ import annotations

import sys
from pathlib import Path


def shared_path(*parts: str) -> Path | None:
    """A shipped file or folder: beside the packages in a checkout, or where a wheel installed it."""
    for base in (Path(__file__).resolve().parent.parent, Path(sys.prefix) / "share" / "sandtable"):
        candidate = base.joinpath(*parts)
        if candidate.exists():
            return candidate
    return None
