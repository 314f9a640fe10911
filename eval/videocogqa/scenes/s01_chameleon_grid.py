"""S1 Chameleon Grid (OP): simulation, drawing and Table 31 question templates."""
