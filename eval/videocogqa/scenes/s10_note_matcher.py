"""S10 Note Matcher (FP): simulation, drawing and Table 31 question templates."""
