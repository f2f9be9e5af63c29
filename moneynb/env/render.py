"""``render_mode="rgb_array"``: a small picture of a game as a numpy array (no plotting
library, no browser; reconstruction, issue 29).

The board figures of the notebooks are plotly figures; turning one into an image needs kaleido
and a headless Chromium per call (about a second), too slow for an environment's ``render()``.
This raster draws instead, from the seat-independent public state only (``Game.scores()`` and
``observation(0)`` minus the observer's own hand):

* **Money Run**: the board, one 8x8 cell per square, grey by stack height (darker = higher),
  each pawn a coloured 4x4 block in its cell (seat colours below);
* **every game**: under it (or alone), one band per seat in seat colour whose length is the
  seat's score relative to the largest absolute score, and a white band while the game runs /
  a black band once it is over.

Shape ``(height, 256, 3)``, ``uint8``.
"""

from __future__ import annotations

import numpy as np

#: seat colours (RGB), seat 0 first
COLOURS = np.array(
    [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
    ],
    dtype=np.uint8,
)
WIDTH = 256
BAND = 12


def raster(game) -> np.ndarray:
    """``uint8`` array ``(height, 256, 3)`` picturing ``game`` (see the module docstring); a
    blank 16x256 picture for ``None`` (no game yet)."""
    if game is None:
        return np.full((16, WIDTH, 3), 255, dtype=np.uint8)
    parts = []
    if game.name == "money_run":
        parts.append(_money_run_board(game))
    parts.append(_bands(game))
    return np.concatenate(parts, axis=0)


def _money_run_board(game) -> np.ndarray:
    size = game.size
    cell = max(4, min(WIDTH // size, 24))
    img = np.full((cell * size, WIDTH, 3), 255, dtype=np.uint8)
    for sq in range(size * size):
        x, y = sq % size, sq // size
        h = len(game.stacks[sq])
        grey = 235 - min(h, 6) * 35
        img[y * cell + 1 : (y + 1) * cell, x * cell + 1 : (x + 1) * cell] = grey
    q = cell // 4
    for seat, sq in enumerate(game.pawns):
        x, y = sq % size, sq // size
        img[y * cell + q : y * cell + 3 * q, x * cell + q : x * cell + 3 * q] = COLOURS[seat % 8]
    return img


def _bands(game) -> np.ndarray:
    scores = [game.scores()[p] for p in game.players]
    top = max((abs(s) for s in scores), default=0) or 1
    n = len(scores)
    img = np.full(((n + 1) * BAND, WIDTH, 3), 255, dtype=np.uint8)
    for i, s in enumerate(scores):
        length = int(round((WIDTH - 2) * max(s, 0) / top))
        img[i * BAND + 2 : (i + 1) * BAND - 2, 1 : 1 + max(length, 1)] = COLOURS[i % 8]
    img[n * BAND + 3 : (n + 1) * BAND - 3, :] = 0 if game.over else 255
    return img
