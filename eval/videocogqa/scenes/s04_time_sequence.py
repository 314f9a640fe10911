"""S4 Time Sequence (TR): simulation, drawing and Table 31 question templates."""
