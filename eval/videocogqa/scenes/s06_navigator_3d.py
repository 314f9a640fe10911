"""S6 3D Navigator (SR): simulation, drawing and Table 31 question templates."""
