"""Fonts for Chinese and Japanese text: put an installed CJK family behind the UI font.

Qt falls back per character anyway; naming the families first makes the choice stable (Japanese
kana and Chinese hanzi from one family) instead of whatever fontconfig finds first.
"""
from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase

CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC", "WenQuanYi Micro Hei",
                "WenQuanYi Zen Hei", "Droid Sans Fallback", "AR PL UMing CN")


def installed_cjk_families() -> list[str]:
    available = set(QFontDatabase.families())
    return [family for family in CJK_FAMILIES if family in available]


def prefer_cjk_fallbacks(app) -> list[str]:
    """Add the installed CJK families as fallbacks of the application font; returns them."""
    found = installed_cjk_families()
    if found:
        font = QFont(app.font())
        font.setFamilies([font.family(), *found])
        app.setFont(font)
    return found
