"""The symbolic vision stage on small videos drawn and encoded (H.264 + AAC, PyAV) with the
VideoCogQA generator's own drawing code, so what perception sees is what the benchmark
renders: blurred edges, halved chroma, AAC-coded tones."""
from __future__ import annotations

import itertools
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from eval.videocogqa import base, style
from perception.config import PerceptionConfig
from perception.decode import iter_frames, probe
from skills.videocogqa.vision import DEFAULT_PALETTE, observe_symbols
from skills.videocogqa.vision.palette import classify, looks_synthetic
from skills.videocogqa.vision.tones import C_MAJOR, find_tones

ON = PerceptionConfig(symbolic="on", ocr_backend="none")
AUTO = PerceptionConfig(symbolic="auto", ocr_backend="none")


def size_class(extent: float, unit: float) -> str:
    return min(style.SIZE_FRACTION, key=lambda k: abs(style.SIZE_FRACTION[k] - extent / unit))


def encode(tmp: Path, name: str, paint, duration: float, audio: np.ndarray | None = None) -> Path:
    return base.encode(base.Episode("T", "Easy", {}, [], paint, audio=audio, duration=duration), tmp / name)


def observe(path: Path, config: PerceptionConfig = ON, reader=None):
    return observe_symbols(path, probe(path), config, reader)


# ---- shapes --------------------------------------------------------------------------
COMBOS = list(itertools.product(style.SIZES, tuple(style.COLOURS), style.SHAPES))


@pytest.fixture(scope="module")
def combo_grid(tmp_path_factory):
    """All 27 size x colour x shape combinations, one per cell of a 7x4 grid."""
    cols, rows = 7, 4
    x0, y0, cell = base.grid_geometry(cols, rows)

    def paint(t):
        img = base.blank()
        base.draw_grid(img, x0, y0, cols, rows, cell)
        for i, (size, colour, shape) in enumerate(COMBOS):
            r, c = divmod(i, cols)
            base.draw_thing(img, base.Thing(size, colour, shape), x0 + (c + .5) * cell, y0 + (r + .5) * cell, cell)
        return img

    path = encode(tmp_path_factory.mktemp("combos"), "combos.mp4", paint, 0.3)
    return observe(path), (x0, y0, cell, cols, rows)


def test_every_size_colour_shape_combination_is_recovered(combo_grid):
    track, (x0, y0, cell, cols, _) = combo_grid
    assert len(track.frames) == 3
    for frame in track.frames:
        assert len(frame.shapes) == len(COMBOS)
        seen = {}
        for s in frame.shapes:
            seen[int((s.cy - y0) // cell) * cols + int((s.cx - x0) // cell)] = s
        got = {i: (size_class(s.extent, cell), s.colour, s.shape) for i, s in seen.items()}
        assert got == dict(enumerate(COMBOS))
        for i, (_, _, shape) in enumerate(COMBOS):  # centroids sit on the cell centre
            r, c = divmod(i, cols)
            offset = cell * style.SIZE_FRACTION[COMBOS[i][0]] / 6 if shape == "triangle" else 0.0
            assert abs(seen[i].cx - (x0 + (c + .5) * cell)) < 1.5
            assert abs(seen[i].cy - (y0 + (r + .5) * cell + offset)) < 1.5


def test_grid_lines_and_hud_of_the_combination_grid(combo_grid):
    track, (x0, y0, cell, cols, rows) = combo_grid
    assert track.layout.hud_height == style.HUD_HEIGHT
    assert np.allclose(track.layout.grid_xs, [round(x0 + c * cell) for c in range(cols + 1)], atol=2)
    assert np.allclose(track.layout.grid_ys, [round(y0 + r * cell) for r in range(rows + 1)], atol=2)


def test_rotated_squares_stay_squares_and_keep_their_size(tmp_path):
    unit = style.size_unit()
    angles = (0, 10, 25, 37, 45, 60, 80)
    things = [(size, colour, angle) for size in style.SIZES for colour, angle in zip(("red", "green", "blue"), angles)]

    def paint(t):
        img = base.blank()
        for i, (size, colour, angle) in enumerate(things):
            r, c = divmod(i, 3)
            base.draw_thing(img, base.Thing(size, colour, "square"), 80 + c * 150 + t * 30, 80 + r * 95, angle=angle + 40 * t)
        return img

    track = observe(encode(tmp_path, "rotated.mp4", paint, 0.5))
    for frame in track.frames:
        assert sorted((size_class(s.extent, unit), s.colour, s.shape) for s in frame.shapes) == sorted(
            (size, colour, "square") for size, colour, _ in things)
    assert len({round(s.angle) % 90 for f in track.frames for s in f.shapes}) > 5  # rotation is measured


def test_board_marks_ring_and_cross(tmp_path):
    import cv2

    def paint(t):
        img = base.blank()
        cv2.circle(img, (120, 200), 40, (240, 240, 240), 8, cv2.LINE_AA)
        cv2.line(img, (250, 160), (330, 240), (50, 90, 230), 9, cv2.LINE_AA)
        cv2.line(img, (330, 160), (250, 240), (50, 90, 230), 9, cv2.LINE_AA)
        return img

    shapes = observe(encode(tmp_path, "marks.mp4", paint, 0.2)).frames[0].shapes
    assert sorted((s.shape, s.colour) for s in shapes) == [("cross", "blue"), ("ring", "white")]


@pytest.mark.parametrize("n", [2, 5, 8])
def test_square_grids_come_out_exact(tmp_path, n):
    x0, y0, cell = base.grid_geometry(n, n)

    def paint(t):
        img = base.blank()
        base.draw_grid(img, x0, y0, n, n, cell)
        base.draw_thing(img, base.Thing("medium", "red", "circle"), x0 + cell * (0.4 + 0.2 * t), y0 + cell / 2, cell)
        return img

    layout = observe(encode(tmp_path, f"grid{n}.mp4", paint, 1.0)).layout
    expected = [round(x0 + i * cell) for i in range(n + 1)]
    assert len(layout.grid_xs) == len(layout.grid_ys) == n + 1
    assert np.allclose(layout.grid_xs, expected, atol=2)
    assert np.allclose(layout.grid_ys, [round(y0 + i * cell) for i in range(n + 1)], atol=2)
    assert len(layout.segments) == 2 * (n + 1)  # one segment per line, the moving circle leaves none


def test_a_noisy_blurred_board_keeps_every_line(tmp_path):
    """Noise, blur and heavy compression break thin lines where the per-pixel vote narrowly
    loses; a short gap along a line is bridged, so a degraded tic-tac-toe board still has
    all four lines each way."""
    x0, y0, cell = base.grid_geometry(3, 3)

    def paint(t):
        img = base.blank()
        base.draw_grid(img, x0, y0, 3, 3, cell)
        for k in range(min(9, int(t * 4) + 1)):  # a mark every 0.25 s, as S9 plays
            cx, cy, r = int(x0 + cell * (k % 3 + 0.5)), int(y0 + cell * (k // 3 + 0.5)), int(cell * 0.3)
            if k % 2:
                cv2.circle(img, (cx, cy), r, style.COLOURS["blue"], 6, cv2.LINE_AA)
            else:
                for d in (1, -1):
                    cv2.line(img, (cx - r, cy - d * r), (cx + r, cy + d * r), style.COLOURS["red"], 6, cv2.LINE_AA)
        noisy = cv2.GaussianBlur(img, (5, 5), 0) + np.random.default_rng(int(t * 10)).normal(0, 16, img.shape)
        return np.clip(noisy, 0, 255).astype(np.uint8)

    path = base.encode(base.Episode("T", "Easy", {}, [], paint, duration=3.0), tmp_path / "board.mp4", crf=38)
    layout = observe(path).layout
    assert np.allclose(layout.grid_xs, [round(x0 + i * cell) for i in range(4)], atol=2)
    assert np.allclose(layout.grid_ys, [round(y0 + i * cell) for i in range(4)], atol=2)


# ---- a moving object, the clock and the notes: one 3 s video ---------------------------
NOTES = [(0.2, 0.9, 1), (1.1, 1.6, 5), (1.8, 2.2, None), (2.4, 2.9, 6)]  # None: 370 Hz, off the scale


def _tones_audio(duration: float) -> np.ndarray:
    sr = base.AUDIO_RATE
    audio = np.zeros(int(duration * sr), np.float32)
    for start, end, note in NOTES:
        f = C_MAJOR[note - 1] if note else 370.0
        n = np.arange(int((end - start) * sr))
        audio[int(start * sr):int(start * sr) + len(n)] = 0.4 * np.sin(2 * np.pi * f * n / sr)
    return audio


def _mover(t: float) -> tuple[float, float]:
    return 60 + 110 * t, 200 + 60 * math.sin(t)


@pytest.fixture(scope="module")
def clock_video(tmp_path_factory):
    def paint(t):
        img = base.blank()
        base.draw_text(img, f"00:{int(t):02d}", 10, 26)
        base.draw_text(img, "NOTES", 360, 26)
        base.draw_thing(img, base.Thing("medium", "blue", "circle"), *_mover(t))
        return img

    return encode(tmp_path_factory.mktemp("clock"), "clock.mp4", paint, 3.0, _tones_audio(3.0))


def test_a_moving_object_is_tracked_to_a_few_pixels(clock_video):
    track = observe(clock_video)
    assert len(track.frames) == 30
    for frame in track.frames:
        (s,) = frame.shapes
        x, y = _mover(frame.t)
        assert (s.shape, s.colour) == ("circle", "blue")
        assert math.hypot(s.cx - x, s.cy - y) < 1.5, (frame.t, s)


def test_tones_are_read_as_notes(clock_video):
    tones = observe(clock_video).tones
    assert [t.note for t in tones] == [n for _, _, n in NOTES]
    for tone, (start, end, _) in zip(tones, NOTES):
        assert abs(tone.start - start) < 0.1 and abs(tone.end - end) < 0.1
    assert abs(tones[2].frequency - 370.0) < 4


def test_tones_from_samples_ignore_clicks_and_hiss():
    sr = 16000
    rng = np.random.default_rng(0)
    audio = rng.normal(0, 0.002, sr * 2).astype(np.float32)  # hiss
    audio[8000:8800] += 0.5 * np.sin(2 * np.pi * 440 * np.arange(800) / sr)  # 50 ms click
    audio[16000:24000] += 0.5 * np.sin(2 * np.pi * 293.66 * np.arange(8000) / sr)
    (tone,) = find_tones(audio, sr)
    assert tone.note == 2 and abs(tone.start - 1.0) < 0.03 and abs(tone.end - 1.5) < 0.03


def test_hud_clock_is_read_once_a_second(clock_video):
    from perception.ocr import make_text_reader

    reader = make_text_reader(PerceptionConfig())
    track = observe(clock_video, PerceptionConfig(symbolic="on"), reader)
    assert [(t.t, t.text) for t in track.texts] == [
        (0.0, "00:00"), (0.0, "NOTES"), (1.0, "00:01"), (1.0, "NOTES"), (2.0, "00:02"), (2.0, "NOTES")]
    assert all(t.box[3] <= style.HUD_HEIGHT for t in track.texts)
    assert track.texts[1].box[0] > 350  # boxes are in frame pixels
    assert [label.text for label in track.layout.labels] == ["NOTES"]  # the ticking clock is no label


# ---- auto mode -----------------------------------------------------------------------
def test_auto_declines_a_natural_picture_and_accepts_a_synthetic_one(clock_video):
    from eval.synthetic.render import draw_shot
    from eval.synthetic.samples import short_scene

    script = short_scene()
    for shot in script.shots:
        picture = np.asarray(draw_shot(script, shot).convert("RGB"))
        assert looks_synthetic(picture) is False
        noisy = np.clip(picture + np.random.default_rng(0).normal(0, 6, picture.shape), 0, 255).astype(np.uint8)
        assert looks_synthetic(noisy) is False
    _, frame = next(iter_frames(clock_video, 1))
    assert looks_synthetic(frame) is True
    assert looks_synthetic(base.blank()) is None  # an empty frame says nothing either way
    sparse = base.blank()  # S3 Easy: three small movers, >99.5 % background, still a drawing
    for k, colour in enumerate(("red", "green", "blue")):
        base.draw_thing(sparse, base.Thing("small", colour, "square"), 100 + 120 * k, 200)
    assert looks_synthetic(sparse) is True
    rng = np.random.default_rng(1)
    for picture in (frame, sparse):  # noise, blur and compression do not make a drawing natural
        harsh = cv2.GaussianBlur(picture, (5, 5), 0) + rng.normal(0, 16, picture.shape)
        assert looks_synthetic(np.clip(harsh, 0, 255).astype(np.uint8)) is True
    assert observe(clock_video, AUTO) is not None


def test_auto_declines_a_natural_video_after_a_frame(tmp_path):
    from eval.synthetic.render import draw_shot
    from eval.synthetic.samples import short_scene

    script = short_scene()
    picture = np.asarray(draw_shot(script, script.shots[0]).convert("RGB").resize((480, 360)))
    black = np.zeros_like(picture)  # a fade-in: undecided, then the room decides
    path = encode(tmp_path, "room.mp4", lambda t: black if t < 0.5 else picture, 1.5)
    assert observe(path, AUTO) is None
    assert observe(path, ON) is not None  # "on" runs whatever the picture
    assert observe(path, PerceptionConfig(symbolic="off")) is None


def test_palette_matches_the_generator_conventions():
    """Perception may not import eval; the two sides describe one drawing convention."""
    colours = dict(DEFAULT_PALETTE.colours)
    assert colours == {**style.COLOURS, **style.ROLE_COLOURS}
    assert (DEFAULT_PALETTE.background, DEFAULT_PALETTE.line) == (style.BACKGROUND, style.LINE)
    assert PerceptionConfig().symbolic_hud_height == style.HUD_HEIGHT
    assert classify(np.array([[style.TEXT]], np.uint8))[0, 0] == DEFAULT_PALETTE.class_names.index("white")


# ---- through the pipeline ------------------------------------------------------------
def test_perceiver_fills_and_caches_the_symbolic_track(tmp_path, clock_video, monkeypatch):
    import perception.pipeline as pipeline
    import skills.videocogqa.skill as skill

    config = PerceptionConfig(asr_backend="none", ocr_backend="none", speaker_backend="none",
                              cache_dir=tmp_path / "cache", clip_seconds=3.0)
    assert "symbolic" not in pipeline.Perceiver(config).perceive(clock_video).channels  # the skill is opt-in
    stages = skill.VideoCogQASkill().stages()
    first = pipeline.Perceiver(config, stages=stages).perceive(clock_video)
    assert first.channels["symbolic"] == "on"
    track = first.tracks["symbols"]
    assert len(track.frames) == 30 and [t.note for t in track.tones] == [1, 5, None, 6]

    def must_not_run(*args, **kwargs):
        raise AssertionError("the symbolic track was recomputed instead of read from the cache")

    monkeypatch.setattr(skill, "observe_symbols", must_not_run)
    second = pipeline.Perceiver(config, stages=stages).perceive(clock_video)
    assert second.tracks["symbols"] == track


def test_maze_walls_and_wireframe_edges_become_segments(tmp_path):
    import cv2

    walls = [((100, 100), (100, 220)), ((100, 100), (260, 100)), ((180, 140), (260, 140)), ((220, 180), (220, 300))]
    edges = [((300, 120), (420, 200)), ((300, 300), (440, 240))]

    def paint(t):
        img = base.blank()
        for a, b in walls + edges:
            cv2.line(img, a, b, style.LINE, 2)
        base.draw_thing(img, base.Thing("small", "green", "square"), 140 + 20 * t, 120)  # the player moves
        return img

    layout = observe(encode(tmp_path, "maze.mp4", paint, 1.0)).layout
    assert layout.grid_xs == () and layout.grid_ys == ()  # walls are not a grid

    def near(seg, a, b, tol=3.0):
        ends = ((seg.x0, seg.y0), (seg.x1, seg.y1))
        return any(all(math.dist(p, q) <= tol for p, q in zip(ends, pair)) for pair in ((a, b), (b, a)))

    for a, b in walls + edges:
        assert sum(near(s, a, b) for s in layout.segments) == 1, (a, b, layout.segments)
    assert len(layout.segments) == len(walls) + len(edges)
