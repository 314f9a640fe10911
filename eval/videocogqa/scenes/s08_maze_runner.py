"""S8 Maze Runner (GP): simulation, drawing and Table 31 question templates."""
