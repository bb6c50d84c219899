"""The Translations tab, laid out as translators know it from Poedit.

Above, every text of the scenario in a table whose Source and Translation columns share the width.
Below, the highlighted text: its whole source, an editor of several lines for its translation, a
mark for review (PO's fuzzy), a check that the translation keeps the source's placeholders and line
breaks, and its context (what the text belongs to, the file and line it is written at, and for a
space, a button to see it on the map).

Keys: Ctrl+Down and Ctrl+Up go to the next and the previous text with work left (missing, stale or
marked for review); in the translation, Return stores it and goes on to the next such text,
Shift+Return starts a new line.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from sandtable.i18n.model import describe
from sandtable.scenario import is_locale_tag
from sandtable.texts import placeholders

from .document import ScenarioDocument
from .models.translations import FILTERS, KEY, SOURCE, STATUS, TO_DO, TRANSLATION, TranslationModel
from .table_page import TablePage


def _button(text: str, slot) -> QPushButton:
    button = QPushButton(text)
    button.clicked.connect(slot)
    return button


def form_problems(source: str, translation: str) -> list[str]:
    """What a translation does not keep of its source: placeholders and line breaks."""
    if not translation.strip():
        return []
    problems = []
    lacking = sorted(placeholders(source) - placeholders(translation))
    extra = sorted(placeholders(translation) - placeholders(source))
    if lacking:
        problems.append("lacks the placeholder(s) " + ", ".join("{" + p + "}" for p in lacking))
    if extra:
        problems.append("has placeholder(s) the source has not: " + ", ".join("{" + p + "}" for p in extra))
    if source.count("\n") != translation.count("\n"):
        problems.append(f"has {translation.count(chr(10))} line break(s), the source {source.count(chr(10))}")
    return problems


class TranslationEdit(QPlainTextEdit):
    """The translation being typed: Return stores it, Shift+Return is a new line."""

    submitted = Signal()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class TranslationPanel(QWidget):
    """Pick a locale (or start one); the texts above, the highlighted one's source, translation and
    context below."""

    show_requested = Signal(str, object)   # (file kind, locator) of what a text belongs to

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.model = TranslationModel(document, self)
        self.model.waiting = True    # until the page is shown, or a locale is asked for
        self.locale_box = QComboBox()  # (QWidget.locale is a method)
        self.locale_box.currentTextChanged.connect(self.model.set_locale)
        self.status_filter = QComboBox()
        self.status_filter.addItems(list(FILTERS))
        self.status_filter.currentTextChanged.connect(self.model.set_filter)
        self.new_tag = QLineEdit()
        self.new_tag.setPlaceholderText("new locale, e.g. zh-Hans")
        self.summary = QLabel("")
        self.page = TablePage(self.model, [
            QLabel("Locale"), self.locale_box, QLabel("Show"), self.status_filter, self.new_tag,
            _button("Start locale", self.start_locale), _button("Remove locale", self.remove_locale),
            self.summary])
        self.view = self.page.view
        self.view.keep_layout()   # the columns are laid out below, whenever the model has them
        self.model.modelReset.connect(self._lay_out_columns)
        self.model.modelReset.connect(self._summarise)
        self._lay_out_columns()
        self.detail = self._build_detail()
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.page)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        QVBoxLayout(self).addWidget(splitter)
        for keys, step in (("Ctrl+Down", 1), ("Ctrl+Up", -1)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda step=step: self.go_to_work(step))
        self.view.chosen.connect(lambda _key: self._show_chosen())
        self.model.dataChanged.connect(lambda *_: self._show_chosen())
        document.reloaded.connect(self._fill_locales)
        document.changed.connect(lambda kind: self._fill_locales() if kind.startswith("locale:") else None)
        self._fill_locales()
        self._show_chosen()

    # -- layout --------------------------------------------------------------------------------
    def _build_detail(self) -> QWidget:
        self.source_text = QPlainTextEdit()
        self.source_text.setReadOnly(True)
        self.source_text.setObjectName("source-text")
        self.translation = TranslationEdit()
        self.translation.setObjectName("translation-text")
        self.translation.setTabChangesFocus(True)
        self.translation.submitted.connect(self.submit)
        self.translation.textChanged.connect(self._check_form)
        self.review = QCheckBox("Needs review (fuzzy)")
        self.review.setToolTip("Marked for review: not shown to players until the mark is cleared; "
                               "exported as fuzzy to PO files")
        self.review.toggled.connect(self._review_toggled)
        self.check = QLabel("")
        self.check.setStyleSheet("color: #a86400")
        self.check.setWordWrap(True)
        self.context = QLabel("")
        self.context.setWordWrap(True)
        self.context.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.where = QLabel("")
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.show_button = QPushButton("Show it")
        self.show_button.clicked.connect(self.show_entity)
        texts = QWidget()
        column = QVBoxLayout(texts)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(QLabel("<b>Source</b>"))
        column.addWidget(self.source_text, 2)
        self.translation_label = QLabel("<b>Translation</b>")
        column.addWidget(self.translation_label)
        column.addWidget(self.translation, 3)
        row = QHBoxLayout()
        row.addWidget(self.review)
        row.addWidget(self.check, 1)
        column.addLayout(row)
        side = QWidget()
        form = QFormLayout(side)
        form.addRow(QLabel("<b>Context</b>"))
        form.addRow("Belongs to", self.context)
        form.addRow("Written in", self.where)
        form.addRow(self.show_button)
        side.setMaximumWidth(360)
        detail = QWidget()
        layout = QHBoxLayout(detail)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(texts, 1)
        layout.addWidget(side)
        return detail

    def _lay_out_columns(self) -> None:
        """Source and Translation share the width; the key and status fit their contents. (Set
        once the model has its columns: modes set on a header without sections are lost.)"""
        header = self.view.horizontalHeader()
        if header.count() < 4:
            return
        header.setStretchLastSection(False)
        header.setSectionResizeMode(KEY, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(SOURCE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(TRANSLATION, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(STATUS, QHeaderView.ResizeMode.ResizeToContents)
        header.resizeSection(KEY, 220)

    @property
    def filter(self) -> QComboBox:
        return self.status_filter

    # -- the chosen text --------------------------------------------------------------------------
    def chosen_row(self) -> int:
        row = self.view.current_row()
        return row if 0 <= row < len(self.model.rows) else -1

    def _show_chosen(self) -> None:
        row = self.chosen_row()
        key, source, entry, status, where = self.model.rows[row] if row >= 0 else ("", "", None, "", None)
        self.source_text.setPlainText(source or "")
        translation = entry.get("text", "") if entry else ""
        if self.translation.toPlainText() != translation and not self.translation.hasFocus():
            self.translation.blockSignals(True)
            self.translation.setPlainText(translation)
            self.translation.blockSignals(False)
        self.translation.setEnabled(row >= 0 and bool(self.model.tag))
        self.translation_label.setText(f"<b>Translation ({self.model.tag or 'no locale'})</b>"
                                       + (f" — {status}" if status else ""))
        self.review.blockSignals(True)
        self.review.setChecked(bool(entry and entry.get("review")))
        self.review.setEnabled(entry is not None)
        self.review.blockSignals(False)
        self.context.setText(describe(key) if key else "")
        self.where.setText(self._written_at(where))
        self.show_button.setEnabled(self._entity_of(key) is not None)
        self._check_form()

    def _written_at(self, where) -> str:
        """The file and line of a source text, as on disk (a file edited since: its name)."""
        if where is None or where.file is None:
            return ""
        kind = self.document.kind_of_file(where.file)
        file = self.document.files.get(kind) if kind else None
        name = where.file.name
        if file is None or file.edited or where.pointer not in file.origins:
            return name
        return f"{name}, line {file.origins[where.pointer].line}"

    def _entity_of(self, key: str) -> tuple[str, tuple] | None:
        """The file kind and locator of the entity a text belongs to (None for the scenario's own)."""
        parts = key.split(".")
        if len(parts) < 3 or parts[0] == "scenario" and len(parts) < 4:
            return None
        kind, parts = ("scenario", parts[1:]) if parts[0] == "scenario" else (None, parts)
        collection, ident = parts[0], parts[1]
        if kind is None:
            kind = next((k for k in ("map", "units", "objectives", "decks", "tables")
                         if any(e.get("id") == ident for e in self.document.entities(k, collection))), None)
        return (kind, ((collection, ("id", ident)),)) if kind else None

    def show_entity(self) -> None:
        row = self.chosen_row()
        found = self._entity_of(self.model.rows[row][0]) if row >= 0 else None
        if found is not None:
            self.show_requested.emit(*found)

    def _check_form(self) -> None:
        row = self.chosen_row()
        source = self.model.rows[row][1] if row >= 0 else ""
        problems = form_problems(source or "", self.translation.toPlainText())
        self.check.setText("The translation " + "; ".join(problems) if problems else "")

    # -- editing ---------------------------------------------------------------------------------
    def submit(self) -> bool:
        """Store the typed translation (one undo step), then go on to the next text with work left."""
        row = self.chosen_row()
        if row < 0:
            return False
        key = self.model.rows[row][0]
        stored = self.model.translate(row, self.translation.toPlainText())
        self.translation.document().setModified(False)
        here = self.model.row_of_key(key)
        if here >= 0:
            self.view.select_row(here, TRANSLATION)
        self.go_to_work(1)
        return stored

    def _review_toggled(self, on: bool) -> None:
        row = self.chosen_row()
        if row >= 0:
            self.model.set_review(row, on)

    def go_to_work(self, step: int = 1) -> bool:
        """Choose the next (step 1) or previous (-1) text still to be done, and put the cursor in its
        translation. False when there is none."""
        rows = self.model.rows
        if not rows:
            return False
        start = self.chosen_row()
        for offset in range(1, len(rows) + 1):
            row = (start + step * offset) % len(rows) if start >= 0 else (offset - 1 if step > 0 else -offset)
            if rows[row][3] in TO_DO:
                self.view.select_row(row, TRANSLATION)
                self.translation.setFocus()
                self.translation.selectAll()
                return True
        return False

    # -- locales ----------------------------------------------------------------------------------
    def _fill_locales(self) -> None:
        current = self.locale_box.currentText()
        tags = self.document.locale_tags
        if [self.locale_box.itemText(i) for i in range(self.locale_box.count())] == tags and current in tags:
            return
        self.locale_box.blockSignals(True)
        self.locale_box.clear()
        self.locale_box.addItems(tags)
        self.locale_box.blockSignals(False)
        tag = current if current in tags else (tags[0] if tags else "")
        if self.model.waiting:
            self.locale_box.setCurrentText(tag)
            self.model.tag = tag or None
        else:
            self.show_locale(tag)

    def showEvent(self, event) -> None:
        self.model.wake()
        super().showEvent(event)

    def show_locale(self, tag: str) -> None:
        self.model.wake()
        if self.locale_box.findText(tag) < 0 and tag:
            self.locale_box.addItem(tag)
        self.locale_box.setCurrentText(tag)
        self.model.set_locale(tag or None)

    def start_locale(self) -> bool:
        """Start a translation: the locale's file, with nothing translated yet (one undo step)."""
        tag = self.new_tag.text().strip()
        if not is_locale_tag(tag):
            return False
        self.document.add_locale(tag)
        self.new_tag.clear()
        self.show_locale(tag)
        return True

    def remove_locale(self) -> bool:
        """Take the chosen locale's file out (deleted at the next save; undo brings it back)."""
        tag = self.locale_box.currentText()
        return bool(tag) and self.document.remove_locale(tag)

    def _summarise(self) -> None:
        left = sum(1 for row in self.model.rows if row[3] in TO_DO)
        self.summary.setText(f"{self.model.rowCount()} text(s) shown, {left} with work left")
