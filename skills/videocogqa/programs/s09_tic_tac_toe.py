"""S9 Tic-Tac-Toe: Table 31 templates answered from the perceived symbolic timeline.

The game is rebuilt from what was seen: every mark that stays on the board (a red cross is
player X, a blue ring is player O) is one move, placed in the grid cell under its centre,
and moves are ordered by when their marks first appeared.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

POSITIONS = ("top left", "top center", "top right", "middle left", "center", "middle right",
             "bottom left", "bottom center", "bottom right")
LINES = {"row": [(0, 1, 2), (3, 4, 5), (6, 7, 8)], "column": [(0, 3, 6), (1, 4, 7), (2, 5, 8)],
         "diagonal": [(0, 4, 8), (2, 4, 6)]}
PLAYER_BY_SHAPE = {"cross": "X", "ring": "O"}
PLAYER_BY_COLOUR = {"red": "X", "blue": "O"}  # when a blurred mark's shape is misread


@dataclass(frozen=True)
class Move:
    t: float
    player: str
    cell: int  # 0-8, reading order


def moves(timeline: SymbolicTimeline) -> list[Move] | None:
    """The perceived moves in order, one per board cell; None without a 3x3 board."""
    if timeline.grid_shape != (3, 3):
        return None
    start: dict[int, float] = {}
    votes: dict[int, Counter] = {}
    for tr in timeline.occurrences(min_frames=3):
        mid = tr.points[len(tr.points) // 2][1]
        cell = timeline.cell_of(mid.cx, mid.cy)
        seen = Counter(p for _, s in tr.points if (p := PLAYER_BY_SHAPE.get(s.shape) or PLAYER_BY_COLOUR.get(s.colour)))
        if not seen or cell is None:
            continue
        i = cell[0] * 3 + cell[1]
        start[i] = min(start.get(i, tr.start), tr.start)
        votes.setdefault(i, Counter()).update(seen)
    return sorted((Move(t, votes[i].most_common(1)[0][0], i) for i, t in start.items()), key=lambda m: m.t)


def lines_won(board: dict[int, str]) -> list[tuple[str, str]]:
    return [(board[a], kind) for kind, lines in LINES.items() for a, b, c in lines
            if a in board and board.get(a) == board.get(b) == board.get(c)]


def _times(ms: list[Move]) -> tuple[float, ...]:
    return tuple(m.t for m in ms)


def first_player(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ms = moves(tl)
    return Solved(ms[0].player, (ms[0].t,), f"first mark: {ms[0].player} at {POSITIONS[ms[0].cell]}") if ms else None


def unplayed(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ms = moves(tl)
    if ms is None:
        return None
    free = [POSITIONS[i] for i in range(9) if i not in {mv.cell for mv in ms}]
    return Solved(", ".join(free) if free else "None", _times(ms), f"{len(ms)} cells marked")


def winner(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ms = moves(tl)
    if ms is None:
        return None
    won = lines_won({mv.cell: mv.player for mv in ms})
    players = {p for p, _ in won}
    value = players.pop() if len(players) == 1 else "Draw"
    return Solved(value, _times(ms), f"completed lines: {won or 'none'}")


def final_move(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ms = moves(tl)
    if not ms:
        return None
    last = ms[-1]
    return Solved(f"{last.player} at {POSITIONS[last.cell]}", (last.t,), "the last mark to appear")


def total_moves(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ms = moves(tl)
    return Solved(len(ms), _times(ms), "marks on the final board") if ms is not None else None


def each_moves(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ms = moves(tl)
    if ms is None:
        return None
    x = sum(1 for mv in ms if mv.player == "X")
    return Solved(f"X {x}, O {len(ms) - x}", _times(ms), "crosses and rings on the final board")


def diagonal(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ms = moves(tl)
    if ms is None:
        return None
    won = lines_won({mv.cell: mv.player for mv in ms})
    return Solved(any(kind == "diagonal" for _, kind in won), _times(ms), f"completed lines: {won or 'none'}")


def _t(name: str, pattern: str, solve) -> Template:
    return Template("S9", name, re.compile(pattern, re.I), solve)


TEMPLATES: list[Template] = [
    _t("which player moved first", r"which player made the first move in the game", first_player),
    _t("positions that remained unplayed", r"which grid positions remained unplayed", unplayed),
    _t("which player won", r"which player won the game", winner),
    _t("final move", r"what was the final move made in the game", final_move),
    _t("total number of moves", r"total number of moves made during the game", total_moves),
    _t("moves made by each player", r"how many moves did each player make", each_moves),
    _t("win by a diagonal", r"did either player win by completing a diagonal", diagonal),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "which player moved first": ("which player made the first move in the game", (
        "who opened the tic-tac-toe game, X or O", "the player with the opening move",
        "which side played first on the board", "who started the game", "who went first")),
    "positions that remained unplayed": ("which grid positions remained unplayed", (
        "the empty squares of the board at the finish", "cells nobody marked in the game",
        "which board positions stayed blank")),
    "which player won": ("which player won the game", (
        "winner of the tic-tac-toe game", "did X or O win", "who took the game")),
    "final move": ("what was the final move made in the game", (
        "the last mark placed on the board and where", "who played last and in which cell",
        "the closing move of the game")),
    "total number of moves": ("total number of moves made during the game", (
        "how many marks were placed altogether", "count all the moves of both players",
        "number of turns in the whole game")),
    "moves made by each player": ("how many moves did each player make", (
        "the number of marks X placed and the number O placed", "move count per player",
        "how many turns each side took", "how many moves did X make and how many did O make",
        "count X's moves and O's moves separately")),
    "win by a diagonal": ("did either player win by completing a diagonal", (
        "was the winning line a diagonal", "did someone get three in a row corner to corner",
        "whether the game ended on a diagonal line")),
}
TEMPLATES = described(TEMPLATES, FORMS)
