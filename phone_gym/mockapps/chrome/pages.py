"""The task pages Chrome knows, as pure functions of a seed (AndroidWorld's browser tasks).

A task page is an HTML file whose text holds ``<meta name="phone-gym-task" content="<kind>
<seed>">`` (``task_html`` writes one); ``task_of`` reads it back. What the page shows
follows from the seed: the three swatch colors of ``draw``, the maze of ``maze``, the five
numbers of ``multiply``.
"""

from __future__ import annotations

import re
from collections import deque

import numpy as np

KINDS = ("draw", "maze", "multiply")
#: Swatch colors of the drawing page: name -> RGB.
PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (229, 57, 53), "green": (67, 160, 71), "blue": (30, 136, 229),
    "yellow": (253, 216, 53), "purple": (142, 36, 170), "orange": (251, 140, 0),
    "pink": (236, 64, 122), "teal": (0, 137, 123),
}
MAZE_SIZE = 4
#: Shortest solutions a maze may have (moves from the top-left to the bottom-right cell).
MAZE_MOVES = (6, 8)
MOVES: dict[str, tuple[int, int]] = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1),
                                     "Right": (0, 1)}
_META = re.compile(r'<meta name="phone-gym-task" content="(\w+) (\d+)">')
TITLES = {"draw": "Canvas task", "maze": "Maze task", "multiply": "Multiply task"}


def task_html(kind: str, seed: int) -> str:
    """The HTML file of a task page."""
    return (f'<html><head><meta name="phone-gym-task" content="{kind} {seed}">'
            f"<title>{TITLES[kind]}</title></head><body></body></html>")


def task_of(content: str) -> tuple[str, int] | None:
    found = _META.search(content)
    if found is None or found.group(1) not in KINDS:
        return None
    return found.group(1), int(found.group(2))


def draw_colors(seed: int) -> list[str]:
    """The three swatch colors (names) of the drawing page."""
    rng = np.random.default_rng(seed)
    names = sorted(PALETTE)
    return [names[int(i)] for i in rng.choice(len(names), size=3, replace=False)]


Cell = tuple[int, int]


def maze_walls(seed: int) -> frozenset[Cell]:
    """The wall cells of the maze (a 4x4 grid; start top left, goal bottom right), drawn
    until its shortest solution takes ``MAZE_MOVES`` moves."""
    rng = np.random.default_rng(seed)
    while True:
        walls = frozenset((r, c) for r in range(MAZE_SIZE) for c in range(MAZE_SIZE)
                          if rng.random() < 0.35 and (r, c) not in ((0, 0), GOAL))
        path = maze_path(walls)
        if path is not None and MAZE_MOVES[0] <= len(path) <= MAZE_MOVES[1]:
            return walls


GOAL: Cell = (MAZE_SIZE - 1, MAZE_SIZE - 1)


def step(walls: frozenset[Cell], at: Cell, move: str) -> Cell:
    """Where the marker at ``at`` lands after ``move`` (it stays at walls and edges)."""
    dr, dc = MOVES[move]
    r, c = at[0] + dr, at[1] + dc
    if 0 <= r < MAZE_SIZE and 0 <= c < MAZE_SIZE and (r, c) not in walls:
        return (r, c)
    return at


def maze_path(walls: frozenset[Cell], start: Cell = (0, 0)) -> list[str] | None:
    """The moves of a shortest way from ``start`` to the goal, or None."""
    seen: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        at = queue.popleft()
        if at == GOAL:
            moves: list[str] = []
            while seen[at] is not None:
                prev, move = seen[at]  # type: ignore[misc]
                moves.append(move)
                at = prev
            return moves[::-1]
        for move in MOVES:
            nxt = step(walls, at, move)
            if nxt not in seen:
                seen[nxt] = (at, move)
                queue.append(nxt)
    return None


def maze_lines(walls: frozenset[Cell], at: Cell) -> list[str]:
    """The maze as the page draws it: ``@`` the marker, ``#`` a wall, ``G`` the goal."""
    def cell(r: int, c: int) -> str:
        return "@" if (r, c) == at else "#" if (r, c) in walls else "G" if (r, c) == GOAL else "."
    return ["  ".join(cell(r, c) for c in range(MAZE_SIZE)) for r in range(MAZE_SIZE)]


def numbers(seed: int) -> list[int]:
    """The five numbers the multiply page reveals, one per press."""
    rng = np.random.default_rng(seed)
    return [int(v) for v in rng.integers(2, 10, size=5)]


def product(values: list[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out
