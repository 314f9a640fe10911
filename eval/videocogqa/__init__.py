"""VideoCogQA-style (seed 003) generated suite: ten symbolic scenes, three levels."""
