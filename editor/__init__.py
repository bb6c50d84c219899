"""The Sandtable editor (PySide6): models, views and undo commands over a scenario folder."""
