"""Sandtable: the scenario format (loading with source positions, variants, canonical saving)."""

__version__ = "0.1.0"
