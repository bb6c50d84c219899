"""Changing values inside a YAML text without touching anything else.

When only values changed (the same keys, the same number of list entries), each changed value
is rewritten where it stands, in the style it was written in where that style can hold the new
value, and every other byte of the file stays as it was: its layout, its quotes, its comments.
"""
from __future__ import annotations

from .yamlsource import ScalarSpan, SourceDoc, join_pointer


class NotAValueChange(Exception):
    """The data changed in shape (entries added, removed or of another kind)."""


def patch_values(doc: SourceDoc, new_data, render_scalar) -> str:
    """`doc.text` with the values that differ from `new_data` rewritten in place.

    `doc` must be parsed with spans. `render_scalar(value, style, in_flow)` writes one scalar:
    on one line in a flow context, or as a block mapping's value (a literal block for text of
    several lines).
    Raises NotAValueChange when the change is not one of values only, or when a changed
    value cannot be rewritten alone (it is shared through an alias, or written over lines)."""
    if doc.uses_aliases:
        raise NotAValueChange("the file uses anchors and aliases")
    edits: list[tuple[ScalarSpan, str]] = []
    work = [(doc.data, new_data, "")]
    while work:
        old, new, pointer = work.pop()
        if isinstance(old, dict) and isinstance(new, dict):
            if old.keys() != new.keys():
                raise NotAValueChange(f"{pointer or '/'}: keys differ")
            work += [(old[k], new[k], join_pointer(pointer, k)) for k in old]
        elif isinstance(old, list) and isinstance(new, list):
            if len(old) != len(new):
                raise NotAValueChange(f"{pointer or '/'}: entries added or removed")
            work += [(o, n, join_pointer(pointer, i)) for i, (o, n) in enumerate(zip(old, new, strict=True))]
        elif isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
            raise NotAValueChange(f"{pointer or '/'}: a value changed its kind")
        elif not same_value(old, new):
            span = doc.spans.get(pointer)
            if span is None:
                raise NotAValueChange(f"{pointer or '/'}: no place to write it")
            edits.append((span, _replacement(doc.text, span, new, render_scalar)))
    text = doc.text
    for span, written in sorted(edits, key=lambda e: e[0].start, reverse=True):
        text = text[:span.start] + written + text[span.end:]
    return text


def _replacement(text: str, span: ScalarSpan, value, render_scalar) -> str:
    old = text[span.start:span.end]
    if span.style in ("|", ">"):
        # A block scalar's text runs to the end of its last line: the next one follows it.
        if isinstance(value, str) and "\n" in value:
            return _block_literal(text, span, value, render_scalar)
        return render_scalar(value, None, True) + "\n"
    if "\n" in old or "\r" in old:
        raise NotAValueChange("the old value is written over several lines")
    written = render_scalar(value, span.style, True)   # one line: right in any context
    if "\n" in written:
        raise NotAValueChange("the new value needs several lines")
    if span.start == span.end and span.start > 0 and text[span.start - 1] not in " \t\n[{,":
        written = " " + written   # an empty value right after its colon: `name:` -> `name: x`
    return written


def _block_literal(text: str, span: ScalarSpan, value: str, render_scalar) -> str:
    """A literal block for `value`, indented as the old block's content was."""
    block = render_scalar(value, "|", False)
    if not block.startswith("|"):
        return render_scalar(value, None, True) + "\n"
    header, _, body = block.partition("\n")
    old_body = text[span.start:span.end].partition("\n")[2]
    content = [line for line in old_body.split("\n") if line.strip()]
    indent = len(content[0]) - len(content[0].lstrip(" ")) if content else 2
    lines = body.split("\n")
    width = len(lines[0]) - len(lines[0].lstrip(" ")) if lines and lines[0] else 0
    moved = [(" " * indent + line[width:]) if line.strip() else "" for line in lines]
    return header + "\n" + "\n".join(moved).rstrip(" ") + ("" if body.endswith("\n") else "\n")


def same_value(a, b) -> bool:
    """Equal and of the same type, all the way down (1, 1.0 and True are three values; the
    order of a mapping's keys does not count)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return a == b
