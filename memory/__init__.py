"""memlens memory layer (see DESIGN.md)."""
