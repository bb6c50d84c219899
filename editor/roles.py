"""Qt's item roles and flags as plain module constants.

Reading `Qt.ItemDataRole.DisplayRole` looks the name up through PySide's enum machinery (several microseconds
each time); a model's data() asks it for every cell, role and repaint. Looked up once here, the
comparisons cost next to nothing, and a table of two hundred rows repaints several times faster.
"""
from PySide6.QtCore import Qt

DISPLAY = Qt.ItemDataRole.DisplayRole
EDIT = Qt.ItemDataRole.EditRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
FONT = Qt.ItemDataRole.FontRole
FOREGROUND = Qt.ItemDataRole.ForegroundRole
BACKGROUND = Qt.ItemDataRole.BackgroundRole
ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole
CHECK_STATE = Qt.ItemDataRole.CheckStateRole
DECORATION = Qt.ItemDataRole.DecorationRole
USER = Qt.ItemDataRole.UserRole

HORIZONTAL = Qt.Orientation.Horizontal
VERTICAL = Qt.Orientation.Vertical

NO_FLAGS = Qt.ItemFlag.NoItemFlags
ENABLED = Qt.ItemFlag.ItemIsEnabled
SELECTABLE = Qt.ItemFlag.ItemIsSelectable
EDITABLE = Qt.ItemFlag.ItemIsEditable
CHECKABLE = Qt.ItemFlag.ItemIsUserCheckable
CHOOSABLE = ENABLED | SELECTABLE

CHECKED = Qt.CheckState.Checked
UNCHECKED = Qt.CheckState.Unchecked
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
CENTRED = int(Qt.AlignmentFlag.AlignCenter)
