"""S9 Tic-Tac-Toe (GP): simulation, drawing and Table 31 question templates.

Table 9: no parameters; the paper runs S9 at Easy only (Medium / Hard "-").

Choices the paper leaves open:
- A 3x3 board of grey lines (outer border included) below the HUD band. Player "X" plays
  red crosses, player "O" blue rings, each mark 0.6 of the cell side, centred in its cell.
- Who starts is random. Both players follow a simple heuristic: take a winning cell when
  one exists (p = 0.8), else block the opponent's win (p = 0.7), else a random free cell;
  games end in a win or a draw. Moves are 2.5 s apart from t = 1.5 s; the final board
  stays on screen to the end; no win line is drawn.
- Positions are named "top left", "top center", "top right", "middle left", "center",
  "middle right", "bottom left", "bottom center", "bottom right"; lists of positions are
  given in that (reading) order, "None" when the board is full.
- "How many moves did each player make" is answered as "X 3, O 2" (X first, always).
- "Final move" is "<player> at <position>", e.g. "O at center".
- Questions with two natural answers carry a third option ("Cannot be determined").
"""
from __future__ import annotations

import random

import cv2
import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import (
    Draft,
    Episode,
    blank,
    colour_of,
    draw_grid,
    grid_geometry,
    near_numbers,
    shuffled,
)

POSITIONS = ("top left", "top center", "top right", "middle left", "center", "middle right",
             "bottom left", "bottom center", "bottom right")
LINES = {"row": [(0, 1, 2), (3, 4, 5), (6, 7, 8)], "column": [(0, 3, 6), (1, 4, 7), (2, 5, 8)],
         "diagonal": [(0, 4, 8), (2, 4, 6)]}
MARK = {"X": ("cross", "red"), "O": ("ring", "blue")}
FIRST_MOVE, GAP = 1.5, 2.5  # seconds
MARK_FRACTION = 0.6  # of the cell side
WIN_CHANCE, BLOCK_CHANCE = 0.8, 0.7
UNSURE, DRAW, NONE = "Cannot be determined", "Draw", "None"


def draw_cross(img: np.ndarray, colour: str, cx: float, cy: float, extent: float) -> None:
    """Two thick diagonal strokes (1/8 of the extent) inside a square of side `extent`."""
    r, th = extent / 2, max(3, round(extent / 8))
    rgb = colour_of(colour)
    for dx in (-r, r):
        cv2.line(img, (round(cx - dx), round(cy - r)), (round(cx + dx), round(cy + r)), rgb, th, cv2.LINE_AA)


def draw_ring(img: np.ndarray, colour: str, cx: float, cy: float, extent: float) -> None:
    """A hollow circle whose outer diameter is `extent`, stroke 1/8 of it."""
    th = max(3, round(extent / 8))
    cv2.circle(img, (round(cx), round(cy)), round(extent / 2 - th / 2), colour_of(colour), th, cv2.LINE_AA)


def winner_of(board: list[str | None]) -> tuple[str, str] | None:
    """(player, line kind) of a completed line, if any."""
    for kind, lines in LINES.items():
        for a, b, c in lines:
            if board[a] and board[a] == board[b] == board[c]:
                return board[a], kind
    return None


def lines_won(board: list[str | None]) -> list[str]:
    """Every kind of line completed (a last move can complete a row and a diagonal at once)."""
    return sorted({kind for kind, lines in LINES.items() for a, b, c in lines
                   if board[a] and board[a] == board[b] == board[c]})


def _winning_cell(board: list[str | None], player: str) -> int | None:
    for i in range(9):
        if board[i] is None:
            board[i] = player
            won = winner_of(board)
            board[i] = None
            if won:
                return i
    return None


def play(rng: random.Random) -> tuple[list[tuple[str, int]], tuple[str, str] | None]:
    """A game as [(player, cell)] and its (winner, line kind), or None for a draw."""
    board: list[str | None] = [None] * 9
    player = rng.choice(("X", "O"))
    moves: list[tuple[str, int]] = []
    while True:
        other = "O" if player == "X" else "X"
        win, block = _winning_cell(board, player), _winning_cell(board, other)
        if win is not None and rng.random() < WIN_CHANCE:
            cell = win
        elif block is not None and rng.random() < BLOCK_CHANCE:
            cell = block
        else:
            cell = rng.choice([i for i in range(9) if board[i] is None])
        board[cell] = player
        moves.append((player, cell))
        won = winner_of(board)
        if won or len(moves) == 9:
            return moves, won
        player = other


class TicTacToe:
    code, title, ability, levels = "S9", "Tic-Tac-Toe", "GP", ("Easy",)

    def simulate(self, level: str, rng: random.Random) -> Episode:
        if level != "Easy":
            raise ValueError("S9 has only the Easy level (Table 9)")
        moves, won = play(rng)
        x0, y0, cell = grid_geometry(3, 3)
        events = []
        for k, (player, i) in enumerate(moves):
            events.append({"t": FIRST_MOVE + k * GAP, "kind": "move", "move": k + 1, "player": player,
                           "row": i // 3, "column": i % 3, "position": POSITIONS[i]})
        end = FIRST_MOVE + (len(moves) - 1) * GAP + 0.5
        board: list[str | None] = [None] * 9
        for player, i in moves:
            board[i] = player
        events.append({"t": end, "kind": "end", "winner": won[0] if won else None, "lines": lines_won(board)})
        placed = [(FIRST_MOVE + k * GAP, player, i) for k, (player, i) in enumerate(moves)]

        def paint(t: float) -> np.ndarray:
            img = blank()
            draw_grid(img, x0, y0, 3, 3, cell)
            for start, player, i in placed:
                if start <= t + 1e-6:
                    cx, cy = x0 + (i % 3 + 0.5) * cell, y0 + (i // 3 + 0.5) * cell
                    draw = draw_cross if player == "X" else draw_ring
                    draw(img, MARK[player][1], cx, cy, MARK_FRACTION * cell)
            return img

        params = {"board": "3x3", "move_gap_s": GAP, "win_chance": WIN_CHANCE, "block_chance": BLOCK_CHANCE}
        return Episode("S9", level, params, events, paint, duration=style.DURATION)

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        log = Log(episode.events)
        builders = [q_first_player, q_unplayed, q_winner, q_final_move, q_total_moves, q_each_moves, q_diagonal]
        rng.shuffle(builders)
        drafts = [d for d in (build(log, rng) for build in builders) if d is not None]
        return drafts[:5]


class Log:
    def __init__(self, events: list[dict]):
        self.moves = [(e["player"], e["row"] * 3 + e["column"]) for e in events if e["kind"] == "move"]
        end = next(e for e in events if e["kind"] == "end")
        self.winner, self.lines = end["winner"], end["lines"]

    @property
    def free(self) -> list[int]:
        played = {i for _, i in self.moves}
        return [i for i in range(9) if i not in played]


def positions_text(cells: list[int]) -> str:
    return ", ".join(POSITIONS[i] for i in sorted(cells)) if cells else NONE


def each_text(x: int, o: int) -> str:
    return f"X {x}, O {o}"


def q_first_player(log: Log, rng: random.Random) -> Draft:
    first = log.moves[0][0]
    return shuffled(first, ["O" if first == "X" else "X", UNSURE], rng, "which player moved first",
                    "Which player made the first move in the game?")


def q_unplayed(log: Log, rng: random.Random) -> Draft:
    free = log.free
    played = [i for i in range(9) if i not in free]
    wrong = []
    for _ in range(12):
        s = set(free)
        if s and rng.random() < 0.5:
            s.remove(rng.choice(sorted(s)))  # one too few
        if rng.random() < 0.7 or not s:
            s.add(rng.choice(played))  # a played cell counted as free
        if s != set(free):
            wrong.append(positions_text(sorted(s)))
    wrong = list(dict.fromkeys(wrong))[:3]
    if free:
        wrong = wrong[:2] + [NONE]
    return shuffled(positions_text(free), wrong, rng, "positions that remained unplayed",
                    "Which grid positions remained unplayed by the end of the game?")


def q_winner(log: Log, rng: random.Random) -> Draft:
    answer = log.winner or DRAW
    return shuffled(answer, [v for v in ("X", "O", DRAW) if v != answer], rng, "which player won",
                    "Which player won the game?")


def q_final_move(log: Log, rng: random.Random) -> Draft:
    player, cell = log.moves[-1]
    other = "O" if player == "X" else "X"
    earlier = [f"{p} at {POSITIONS[i]}" for p, i in log.moves[:-1]]
    rng.shuffle(earlier)
    wrong = [f"{other} at {POSITIONS[cell]}"] + earlier[:2]
    return shuffled(f"{player} at {POSITIONS[cell]}", wrong, rng, "final move",
                    "What was the final move made in the game?")


def q_total_moves(log: Log, rng: random.Random) -> Draft:
    n = len(log.moves)
    wrong = [v for v in near_numbers(n, rng, k=6, low=3) if v <= 9][:3]
    return shuffled(n, wrong, rng, "total number of moves", "What is the total number of moves made during the game?")


def q_each_moves(log: Log, rng: random.Random) -> Draft:
    x = sum(1 for p, _ in log.moves if p == "X")
    o = len(log.moves) - x
    pool = [(x + 1, o), (x, o + 1), (x - 1, o), (x, o - 1), (o, x), (x + 1, o + 1)]
    wrong = [each_text(a, b) for a, b in pool if (a, b) != (x, o) and a >= 0 and b >= 0]
    rng.shuffle(wrong)
    return shuffled(each_text(x, o), wrong[:3], rng, "moves made by each player",
                    "How many moves did each player make (X, then O)?")


def q_diagonal(log: Log, rng: random.Random) -> Draft:
    answer = "Yes" if "diagonal" in log.lines else "No"
    return shuffled(answer, ["No" if answer == "Yes" else "Yes", UNSURE], rng, "win by a diagonal",
                    "Did either player win by completing a diagonal sequence?")


SCENE = TicTacToe()
