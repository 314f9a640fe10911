"""S5 Flash Grid (SR): simulation, drawing and Table 31 question templates."""
