"""Qt item models over the scenario document (tables, trees, the problems list)."""
