"""The Sandtable editor (PySide6): models, views and undo commands over a scenario folder."""
from .none_guard import guard_none

guard_none()
