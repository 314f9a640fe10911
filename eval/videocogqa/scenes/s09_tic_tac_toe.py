"""S9 Tic-Tac-Toe (GP): simulation, drawing and Table 31 question templates."""
