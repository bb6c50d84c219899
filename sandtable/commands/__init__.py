"""Subcommands of the `sandtable` command line."""
