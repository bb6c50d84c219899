"""Benchmark: what the command-line install costs, against the install with the editor.

Installs this repository into a fresh virtual environment the way CI and the pre-commit hooks do
(`pip install .`, no extras), checks that it validates a bundled scenario without importing Qt,
and prints the environment's installed size. The baseline is the same install with the editor
extra: measured for real with --with-editor (a large download), otherwise estimated as the
command-line install plus the editor extra (PySide6) as installed in the running
environment. --with-report measures the install with the report extra (Matplotlib) too. Every
install takes the locked versions (constraints.txt), the ones docs/install.md reports.

    python benchmarks/install_size.py [--with-report] [--with-editor]
Exit status 1 when the command-line install imports Qt or fails to validate.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EDITOR_DISTRIBUTIONS = ("PySide6", "PySide6_Essentials", "PySide6_Addons", "shiboken6")
CHECK = ("import sys; from sandtable.cli import main; code = main(['validate', sys.argv[1]]); "
         "print('Qt imported' if 'PySide6' in sys.modules else 'no Qt'); sys.exit(code)")


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def distribution_size(name: str) -> int:
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return 0
    return sum(int(f.size or 0) for f in dist.files or [])


def install(target: Path, spec: str) -> float:
    venv.create(target, with_pip=True)
    start = time.perf_counter()
    subprocess.run([str(target / "bin" / "python"), "-m", "pip", "install", "--quiet", spec,
                    "-c", str(REPO / "constraints.txt")], check=True)
    return time.perf_counter() - start


def megabytes(size: int) -> str:
    return f"{size / 1e6:,.0f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--with-report", action="store_true", help="also install the report extra and measure it")
    parser.add_argument("--with-editor", action="store_true", help="also install the editor extra and measure it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        cli = Path(temp) / "cli"
        seconds = install(cli, str(REPO))
        done = subprocess.run([str(cli / "bin" / "python"), "-c", CHECK, str(REPO / "scenarios" / "aa50-1941")],
                              capture_output=True, text=True, cwd=temp)
        verdict = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
        cli_size = folder_size(cli)
        print(f"command-line install (pip install .): {megabytes(cli_size)} in {seconds:.0f} s; "
              f"validate aa50-1941: exit {done.returncode}, {verdict}")
        if args.with_report:
            report = Path(temp) / "report"
            seconds = install(report, f"{REPO}[report]")
            print(f"with the report's plots (pip install \".[report]\"): {megabytes(folder_size(report))} "
                  f"in {seconds:.0f} s")
        if args.with_editor:
            full = Path(temp) / "full"
            seconds = install(full, f"{REPO}[editor]")
            print(f"with the editor (pip install \".[editor]\"): {megabytes(folder_size(full))} in {seconds:.0f} s")
        else:
            qt = sum(distribution_size(name) for name in EDITOR_DISTRIBUTIONS)
            if qt:
                print(f"with the editor (estimated: + PySide6, {megabytes(qt)} as installed here): "
                      f"{megabytes(cli_size + qt)}")
            else:
                print("with the editor: PySide6 is not installed here; measure with --with-editor")
    return 0 if done.returncode == 0 and verdict == "no Qt" else 1


if __name__ == "__main__":
    sys.exit(main())
