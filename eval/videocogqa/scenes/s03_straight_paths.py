"""S3 Straight Paths (AP): simulation, drawing and Table 31 question templates."""
