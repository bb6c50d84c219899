"""The `sandtable` command line: one subcommand per module in sandtable/commands/."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from . import __version__

# Each module has register(subparsers); the parser it adds sets `run(args) -> exit code`.
COMMAND_MODULES = ["validate", "format", "import_", "export", "i18n", "edit", "playtest"]

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A mistake in how the command was called, or a path that cannot be read (exit 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sandtable", description="Validate, edit and playtest WWII board-game scenarios.")
    parser.add_argument("--version", action="version", version=f"sandtable {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"sandtable.commands.{name}").register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    from .safetext import guarded_output
    with guarded_output():   # data never reaches the terminal as control sequences
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as problem:
        print(f"sandtable {args.command}: {problem}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`sandtable ... | head`): stop quietly, as Unix tools do, and
        # keep the interpreter from complaining again when it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    # `python -m sandtable.cli`, as `python -m sandtable`. This file then runs as `__main__`, a
    # second copy of the module; the commands raise the package's UsageError, so its main runs.
    from sandtable.cli import main as package_main
    raise SystemExit(package_main())
