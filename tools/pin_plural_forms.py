"""Write sandtable/i18n/plural_forms.py: the PO Plural-Forms rules, taken from the installed Babel.

    python tools/pin_plural_forms.py

Run it when we mean the exported PO headers to follow a newer CLDR (see that module for why
they are pinned), then review the diff: it is every header that will change. It writes the table
and the Babel version the module names; the module's other text is kept as it is.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from babel import __version__ as babel_version
from babel.messages.plurals import PLURALS

TARGET = Path(__file__).resolve().parent.parent / "sandtable" / "i18n" / "plural_forms.py"

TABLE = "PLURAL_FORMS: dict[str, tuple[int, str]] = {\n"
PINNED_FROM = re.compile(r"as Babel \S+ writes them")


def head() -> str:
    """The module as it stands up to its table (the docstring there says why the rules are
    pinned), naming the Babel they are now taken from."""
    text = TARGET.read_text(encoding="utf-8")
    return PINNED_FROM.sub(f"as Babel {babel_version} writes them", text[:text.index(TABLE)],
                           count=1) + TABLE


def main() -> int:
    lines = [head()]
    for language in sorted(PLURALS):
        count, rule = PLURALS[language]
        lines.append(f"    {language!r}: ({count}, {rule!r}),\n")
    lines.append("}\n")
    TARGET.write_text("".join(lines), encoding="utf-8")
    print(f"{TARGET}: {len(PLURALS)} languages from Babel {babel_version}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
