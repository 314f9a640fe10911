"""memlens agent layer (see DESIGN.md)."""
