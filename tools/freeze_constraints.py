"""Write constraints.txt: the exact versions, installed here, of everything the extras pull in.

    python tools/freeze_constraints.py

Run it in the virtual environment the whole suite has just passed in (`.ci/latest` leaves one in
.venv-latest), then commit constraints.txt: .ci/run and README's test command install with
`-c constraints.txt`, so CI tests these versions until the file is written again. Unlike
`pip freeze`, it lists only what pyproject.toml's dependencies and extras require (walked through
each package's own requirements, markers evaluated here), plus pip itself, and never Sandtable.
"""
from __future__ import annotations

import platform
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "constraints.txt"


def project_requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        listed.extend(extra)
    return [Requirement(text) for text in listed]


def closure(wanted: list[Requirement]) -> dict[str, str]:
    """{canonical name: installed version} of the requirements and all they require."""
    found: dict[str, str] = {}
    extras_seen: dict[str, set[str]] = {}
    queue = [(requirement, "") for requirement in wanted]
    while queue:
        requirement, extra = queue.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        new_extras = set(requirement.extras) - extras_seen.setdefault(name, set())
        if name in found and not new_extras:
            continue
        try:
            distribution = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            sys.exit(f"{requirement.name} is required but not installed here: install the extras first")
        if not requirement.specifier.contains(distribution.version, prereleases=True):
            sys.exit(f"{requirement.name} {distribution.version} is installed, {requirement} is required")
        found[name] = distribution.version
        extras_seen[name] |= new_extras
        for text in distribution.requires or []:
            for asked in [""] + sorted(extras_seen[name]):
                queue.append((Requirement(text), asked))
    return found


def main() -> int:
    pins = closure(project_requirements() + [Requirement("pip")])
    pins.pop("sandtable", None)
    head = (f"# The versions the test suite passed with: Python {platform.python_version()}, "
            f"{platform.system()} {platform.machine()}.\n"
            "# Written by tools/freeze_constraints.py; used by .ci/run and README's test command.\n")
    TARGET.write_text(head + "".join(f"{name}=={pins[name]}\n" for name in sorted(pins)), encoding="utf-8")
    print(f"{TARGET}: {len(pins)} packages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
