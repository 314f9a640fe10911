"""memlens retrieval layer (see DESIGN.md)."""
