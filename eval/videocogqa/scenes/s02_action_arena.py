"""S2 Action Arena (AP): simulation, drawing and Table 31 question templates."""
