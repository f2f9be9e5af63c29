"""Pictures of a game as numpy arrays, for ``render_mode="rgb_array"`` (reconstruction,
issue 29).

:func:`board_image` (what ``render()`` returns): the game's own board, the plotly figure a
player sees in JupyterLab (:func:`moneynb.figures.board_figure`, the drawing under the board
widget; no view or widget is loaded), drawn as a PNG by kaleido in a headless Chrome/Chromium
kept running for the process (the first picture starts it, a few seconds; then about 0.1-0.3 s
a picture), decoded with Pillow. Needs the ``render`` extra (plotly, kaleido, Pillow) and a
Chrome or Chromium on the machine.

:func:`raster`: a small, fast picture without a browser (about 0.1 ms), for recording many
frames, from the seat-independent public state only (``Game.scores()`` and the board):

* **Money Run**: the board, one 8x8 cell per square, grey by stack height (darker = higher),
  each pawn a coloured 4x4 block in its cell (seat colours below);
* **every game**: under it (or alone), one band per seat in seat colour whose length is the
  seat's score relative to the largest absolute score, and a white band while the game runs /
  a black band once it is over.

Shape ``(height, 256, 3)``, ``uint8``.
"""

from __future__ import annotations

import atexit
import io
import threading
import warnings

import numpy as np

from ..figures import board_figure

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


#: what :func:`board_image` needs, as ``(module, distribution)`` pairs
BOARD_IMAGE_NEEDS = (("plotly", "plotly"), ("kaleido", "kaleido"), ("PIL", "pillow"))
_SERVER = threading.Lock()
_started = False


def check_board_image() -> None:
    """Raise ``ModuleNotFoundError`` naming what :func:`board_image` lacks (and the extra that
    installs it), or do nothing when everything is importable."""
    import importlib.util

    missing = [dist for mod, dist in BOARD_IMAGE_NEEDS if importlib.util.find_spec(mod) is None]
    if missing:
        raise ModuleNotFoundError(
            f"render_mode='rgb_array' draws the board with {', '.join(missing)}, not installed: "
            'pip install -e ".[render]" in a clone of moneynb (and a Chrome or Chromium on the '
            "machine)"
        )


def board_image(game, scale: float = 1.0) -> np.ndarray:
    """``uint8`` array ``(height, width, 3)``: the board of ``game`` (:func:`board_figure`) as
    a picture, ``scale`` x the figure's size in pixels; for ``None`` (no game yet) the blank
    picture of :func:`raster`.

    Raises:
        ModuleNotFoundError: the ``render`` extra is not installed (:func:`check_board_image`).
        RuntimeError: kaleido found no Chrome or Chromium to draw with (its message says how
            to get one).
    """
    global _started
    if game is None:
        return raster(None)
    check_board_image()
    import kaleido
    import plotly.io as pio
    from PIL import Image

    fig = board_figure(game)
    with _SERVER:  # one browser for the process, started by the first picture
        if not _started:
            kaleido.start_sync_server(silence_warnings=True)
            atexit.register(kaleido.stop_sync_server, silence_warnings=True)
            _started = True
        for attempt in range(3):
            try:
                with warnings.catch_warnings():  # plotly: a running server takes no options
                    warnings.filterwarnings("ignore", "The kopts argument", UserWarning)
                    png = pio.to_image(fig, format="png", scale=scale)
                break
            except Exception as e:  # kaleido's tab raced its own page load (below)
                if attempt == 2 or not _page_not_loaded(e):
                    raise
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8).copy()


def _page_not_loaded(error: Exception) -> bool:
    """True for kaleido's error when it asked its browser tab to draw before the tab's page had
    defined its drawing code ("kaleido_scopes is not defined"): seen on a loaded machine (kaleido
    1.5, once, in the render test of Money Moves): the picture is asked for again, at most
    three times in all (a race, not reproduced on demand: the retry is not proven by a test)."""
    return type(error).__name__ == "JavascriptError" and "kaleido_scopes is not defined" in str(
        error
    )


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
