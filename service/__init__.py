"""memlens service layer (see DESIGN.md)."""
