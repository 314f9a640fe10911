"""S7 Sky Battle (GP): simulation, drawing and Table 31 question templates."""
