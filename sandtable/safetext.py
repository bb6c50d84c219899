"""Text from data, made safe to show: never a terminal command, always valid Unicode, XML and JSON.

File names and scenario text can hold anything: an ESC sequence that retitles or clears the
terminal (or, in some terminals, writes a file), a carriage return that hides what came before on
the line, U+FFFE (no XML document may hold it), or bytes that are not UTF-8 (a name Python reads
as lone surrogates, which no UTF-8 stream can write). `visible` writes each as an escape that reads
the same everywhere: `\\u001b`, `\\ufffe`, and `\\xff` for a byte that is not UTF-8.

`guarded_output` puts every line the command line prints through the same rule, whatever prints
it (a replay's recorded error, a file name in a warning), so no command has to remember to. What
a command styles itself writes to `unguarded(stream)`: validate's coloured report (its data made
`visible` first) and the progress bars, which hold no data.
"""
from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Iterator
from typing import TextIO

# C0 controls but tab and line feed, DEL, C1 controls, lone surrogates, and the two
# noncharacters XML refuses. (Line feeds are kept by `visible`, escaped by `visible_line`.)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_UNSAFE_IN_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match, bytes_as_bytes: bool = True) -> str:
    code = ord(match.group())
    if bytes_as_bytes and 0xDC80 <= code <= 0xDCFF:   # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control character, lone surrogate and XML-forbidden character written
    as an escape; tabs and line breaks are kept."""
    return _UNSAFE.sub(_escape, text)


def visible_line(text: str) -> str:
    """As `visible`, for text that must stay on one line (a file name): line breaks escaped too."""
    return _UNSAFE_IN_A_LINE.sub(_escape, text)


def _for_output(text: str) -> str:
    """What `guarded_output` writes: `visible`, with every escape also a valid JSON string
    escape, so that JSON printed by a command stays JSON (a byte that is not UTF-8 is written
    \\udcff there, not \\xff)."""
    return _UNSAFE.sub(lambda m: _escape(m, False), text)


class _Guarded(io.TextIOBase):
    """A text stream that writes to another one through `_for_output`."""

    def __init__(self, stream: TextIO):
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(_for_output(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self):  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")

    def __getattr__(self, name):   # buffer, errors, reconfigure...: the stream's own
        return getattr(self.stream, name)


def unguarded(stream: TextIO) -> TextIO:
    """The stream under a guard, for output that is Sandtable's own and holds no data."""
    return stream.stream if isinstance(stream, _Guarded) else stream


@contextlib.contextmanager
def guarded_output() -> Iterator[None]:
    """While it lasts, sys.stdout and sys.stderr write everything through `_for_output`."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None:   # (None without a console)
        sys.stdout = _Guarded(unguarded(sys.stdout))
    if sys.stderr is not None:
        sys.stderr = _Guarded(unguarded(sys.stderr))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
