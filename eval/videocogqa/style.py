"""The drawing conventions every VideoCogQA-style scene follows (seed 003 leaves fps,
resolution, colours and pixel sizes unspecified; these are our documented choices).

Perception never imports this module: its own defaults (`skills.videocogqa.vision`) describe
the same conventions from the viewer's side, and a test checks that the two agree.
"""
from __future__ import annotations

WIDTH, HEIGHT = 480, 360
FPS = 10  # the paper's Hard levels change every 0.5-1 s: 10 fps keeps 5+ frames per event
DURATION = 30.0  # seconds per video, as in the paper
BACKGROUND = (18, 18, 24)  # near-black play field (RGB)
LINE = (128, 128, 128)  # grid lines, maze walls, board lines, wireframes
TEXT = (235, 235, 235)  # clock, labels and note track, only inside the HUD band
HUD_HEIGHT = 36  # pixels at the top reserved for text; objects never enter it

# The paper's attribute vocabulary (S1): size x colour x shape.
COLOURS = {"red": (220, 40, 40), "green": (40, 190, 60), "blue": (50, 90, 230)}
# Extra colours for game roles (player plane, bullets, board marks); never asked as {color}.
ROLE_COLOURS = {"yellow": (235, 210, 40), "white": (240, 240, 240), "purple": (160, 60, 200)}
SHAPES = ("triangle", "circle", "square")
SIZES = ("small", "medium", "large")
# Object extent (bounding-box side) as a fraction of the scene's size unit: the grid cell
# side in grid scenes, HEIGHT / 8 elsewhere. Ratios 1.6x apart keep size unambiguous.
SIZE_FRACTION = {"small": 0.32, "medium": 0.52, "large": 0.84}


def size_unit(cell: float | None = None) -> float:
    return cell if cell else HEIGHT / 8
