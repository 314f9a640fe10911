"""VideoCogQA's reported numbers (seed 003), copied from the paper's Tables 4, 12, 21 and 32.
Scene score = mean of its Easy/Medium/Hard scores (S9: Easy only); Avg = mean of 10 scenes."""
from __future__ import annotations

SCENES = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10")
ABILITIES = {"OP": ("S1",), "AP": ("S2", "S3"), "TR": ("S4",), "SR": ("S5", "S6"), "GP": ("S7", "S8", "S9"),
             "FP": ("S10",)}

# Table 4: accuracy per scene (S1..S10) and Avg.
TABLE4 = {
    "Qwen2.5-VL-72B (best open)": (48.8, 57.2, 61.0, 56.8, 61.7, 42.0, 34.2, 38.8, 62.5, 78.2, 54.1),
    "Qwen2-VL-72B": (51.8, 58.2, 60.0, 56.8, 60.7, 42.0, 32.2, 37.8, 62.0, 76.7, 53.8),
    "Video-R1-7B": (46.0, 52.0, 39.3, 60.8, 55.8, 54.7, 46.7, 36.7, 56.7, 72.2, 52.1),
    "GPT-4o (32 frames)": (44.2, 64.8, 51.5, 61.3, 67.3, 68.7, 60.0, 52.2, 72.0, 70.0, 61.2),  # Avg: scene mean (the table prints 66.1)
    "Gemini-2.0-Flash (32 frames)": (41.2, 45.2, 41.8, 68.5, 50.0, 37.3, 27.8, 40.0, 55.5, 71.1, 47.8),
    "Average of 14 models": (37.7, 44.7, 43.1, 46.5, 44.0, 37.2, 31.0, 30.7, 47.4, 60.8, 42.3),
    "Human": (88.9, 91.3, 89.7, 92.1, 87.5, 85.2, 90.4, 93.6, 95.1, 89.0, 90.3),
}
RANDOM = (33.3, 33.3, 33.3, 30.3, 32.7, 28.9, 28.9, 30.3, 33.3, 33.3)  # Table 21

# Table 32: accuracy by level (S1..S10; S9 has Easy only).
TABLE32 = {
    "GPT-4o": {"Easy": (48.0, 72.0, 55.0, 67.0, 71.3, 74.0, 70.0, 60.0, 72.0, 76.6),
               "Medium": (45.3, 66.5, 54.5, 64.0, 70.7, 66.0, 56.7, 53.0, None, 73.3),
               "Hard": (39.3, 56.0, 45.0, 53.0, 62.6, 66.0, 53.3, 43.0, None, 60.0)},
    "Qwen2-VL-72B": {"Easy": (61.3, 65.0, 67.0, 64.5, 76.0, 52.0, 40.0, 63.3, 62.0, 83.3),
                     "Medium": (48.7, 59.5, 62.5, 56.0, 56.0, 34.0, 33.3, 23.3, None, 80.0),
                     "Hard": (45.3, 50.0, 50.5, 50.0, 50.0, 40.0, 23.3, 26.7, None, 66.7)},
}
HUMAN_BY_LEVEL = {"Easy": 98.2, "Medium": 91.6, "Hard": 81.1}  # Table 12
