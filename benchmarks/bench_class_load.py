"""Class-load benchmark (a script, not a test): what a board page costs and how fast it draws.

For each path of plotly's widget code, "inline" (``MONEYNB_INLINE_WIDGET_CODE=1``: the code
goes through the kernel, the path before issue 41) and "static" (the file ``pip install``
put where the server serves it, :mod:`moneynb.ui.static`; run this with the Python moneynb
is installed in, else the page falls back to the kernel and "static" measures that), in the
same run, and for each front end (Voila, JupyterLab):

* opens a one-cell board page (``moneynb.play(<game>, ...)``) in a FRESH browser profile
  (first load), waits for the board's drawn points, then reloads it (the browser's cache kept)
  and waits again;
* counts, from Chromium's own network events (CDP ``Network.*``), the bytes received over the
  kernel's websocket (frame payloads) and over HTTP (``encodedDataLength`` of every response)
  for the first load and for the reload;
* times page load -> drawn board and reload -> drawn board.

``--loads N`` repeats the Voila board page N times per path (fresh page, then reload) and
prints the median and worst times and how many pages came back without a drawn board
(missing) or with a board that did not follow the game (frozen: the drawn points differ from
the kernel's state after a move). ``--busy K`` runs K busy loops beside it (CPU load; stopped
at the end) for the "load ~8" figures.

Usage::

    python benchmarks/bench_class_load.py                       # bytes and times, idle
    python benchmarks/bench_class_load.py --loads 50 --busy 6   # 50 loads under load

Needs Chromium (``/usr/bin/chromium`` or ``$MONEYNB_CHROMIUM``), playwright, voila, jupyterlab.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from servers import jupyter_server  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip
#: a drawn board: the board's plot has its points
DRAWN_JS = """() => { const b = document.querySelector('.moneynb-view .moneynb-board');
    return !!(b && b.querySelectorAll('.scatterlayer path.point').length); }"""
#: the board after a move: its points' positions (the drawn state) and the header's action
POINTS_JS = """() => { const b = document.querySelector('.moneynb-view .moneynb-board');
    const h = document.querySelector('.moneynb-view .moneynb-header');
    const pts = b ? [...b.querySelectorAll('.scatterlayer .trace path.point')]
        .map(p => p.getAttribute('transform')).join(';') : '';
    const m = h && h.textContent.match(/action (\\d+)/);
    return {pts, action: m ? Number(m[1]) : -1}; }"""


def probe_source(game: str) -> str:
    return (
        "import moneynb\n"
        f"view = moneynb.play({game!r}, players=['You', 'bot:greedy'], seed=3, autosave=False)\n"
        "view"
    )


def write_probe(path: Path, game: str) -> None:
    nb = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": probe_source(game),
                   "outputs": [], "execution_count": None}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }  # fmt: skip
    path.write_text(json.dumps(nb))


class Meter:
    """Bytes received by one page, from Chromium's network events (a CDP session)."""

    def __init__(self, context, page):
        self.ws = 0
        self.http = 0
        self.largest_frame = 0
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.on("Network.loadingFinished", self._loaded)

    def _frame(self, ev) -> None:
        r = ev["response"]
        n = len(r["payloadData"]) * (3 / 4 if r.get("opcode") == 2 else 1)
        self.ws += int(n)
        self.largest_frame = max(self.largest_frame, int(n))

    def _loaded(self, ev) -> None:
        self.http += int(ev.get("encodedDataLength", 0))

    def take(self) -> tuple[int, int]:
        out = (self.ws, self.http)
        self.ws = self.http = 0
        return out


def busy_loop() -> None:  # pragma: no cover - a load generator
    while True:
        pass


@contextlib.contextmanager
def busy(k: int):
    procs = [multiprocessing.Process(target=busy_loop, daemon=True) for _ in range(k)]
    for p in procs:
        p.start()
    try:
        yield
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.join()


#: what a page shows when its board is missing or frozen (known stall texts, errors)
SHOWN_JS = """() => { const v = document.querySelector('.moneynb-view');
    const t = (v || document.body).innerText || '';
    return (v ? 'view: ' : 'no .moneynb-view; page: ') + t.replace(/\\s+/g, ' ').slice(0, 300); }"""
SHOTS = Path(__file__).resolve().parents[1] / "test-output"


def record_failure(page, what: str) -> None:
    """Print what a page with a missing/frozen board shows, with a screenshot path."""
    SHOTS.mkdir(exist_ok=True)
    shot = SHOTS / f"bench_class_load-{what}-{time.strftime('%H%M%S')}.png"
    with contextlib.suppress(Exception):
        page.screenshot(path=str(shot))
    shown = "?"
    with contextlib.suppress(Exception):
        shown = page.evaluate(SHOWN_JS)
    print(f"  {what} at load {os.getloadavg()[0]:.1f}: {shown!r}; screenshot {shot}", flush=True)


def _fresh_context(pw):
    """A Chromium context with a new, empty profile (a first visit: nothing cached)."""
    profile = tempfile.mkdtemp(prefix="moneynb-bench-")
    return pw.chromium.launch_persistent_context(
        profile, executable_path=os.environ.get("MONEYNB_CHROMIUM", "/usr/bin/chromium"),
        headless=True, args=CHROMIUM_ARGS, viewport={"width": 1400, "height": 1400},
    )  # fmt: skip


def open_board(pw, url: str, timeout_ms: int, *, moves: int = 0):
    """Open ``url`` in a fresh profile, wait for the drawn board, reload, wait again; returns
    ``(first ws, first http, reload ws, reload http, t first s, t reload s, frozen)``
    (``None`` times when the board never drew). Prints one line per page (times, load
    average) and, for a missing or frozen board, what the page showed and a screenshot."""
    ctx = _fresh_context(pw)
    try:
        page = ctx.new_page()
        meter = Meter(ctx, page)
        out = []
        frozen = redrawn = 0
        for phase in ("first", "reload"):
            t0 = time.monotonic()
            try:
                if phase == "first":
                    page.goto(url, timeout=timeout_ms)
                else:
                    page.reload(timeout=timeout_ms)
                page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
                t = time.monotonic() - t0
            except Exception:
                t = None
                record_failure(page, f"missing-{phase}")
            # let the page finish its traffic (the kernel's idle state) before counting
            with contextlib.suppress(Exception):
                page.wait_for_load_state("networkidle", timeout=10_000)
            out.append((meter.take(), t))
            if phase == "first" and t is not None and moves:
                frozen += play_moves(page, moves, timeout_ms)
                if frozen:
                    record_failure(page, "frozen")
            # boards the page's own frozen-board watch found differing from the kernel's
            # and drew again (issue 41, case 2; moneynb.ui.boards.base._LOADER_ESM)
            with contextlib.suppress(Exception):
                why = page.evaluate("globalThis.__moneynbResyncWhy ?? []")
                redrawn += sum("differs" in w for w in why)
        (w1, h1), t1 = out[0]
        (w2, h2), t2 = out[1]
        fmt = lambda t: "never" if t is None else f"{t:.1f} s"  # noqa: E731
        print(f"  {time.strftime('%H:%M:%S')} page: load->board {fmt(t1)}, reload->board {fmt(t2)}, frozen {frozen}, "
              f"redrawn by the watch {redrawn}, "
              f"ws {kb(w1)}/{kb(w2)}, load average {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
        return w1, h1, w2, h2, t1, t2, frozen
    finally:
        ctx.close()


def play_moves(page, moves: int, timeout_ms: int) -> int:
    """Press the pending decision's first button ``moves`` times; after each, wait until the
    header's action count moved; 1 when the drawn points then never changed in any move
    (a frozen board), else 0."""
    changed = False
    for _ in range(moves):
        before = page.evaluate(POINTS_JS)
        btn = page.locator(".moneynb-view .moneynb-decision button:not([disabled])").first
        if not btn.count():
            break
        btn.click()
        try:
            page.wait_for_function(
                f"(a) => ({POINTS_JS})().action > a", arg=before["action"], timeout=timeout_ms
            )
            page.wait_for_function(
                f"(p) => ({POINTS_JS})().pts !== p", arg=before["pts"], timeout=5_000
            )
            changed = True
        except Exception:
            pass
    return 0 if changed or not moves else 1


def kb(n: int) -> str:
    return f"{n / 1000:,.0f} kB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="moolah")
    ap.add_argument("--frontends", default="voila,lab")
    ap.add_argument("--loads", type=int, default=1, help="Voila board pages per path")
    ap.add_argument("--moves", type=int, default=3, help="moves checked on each Voila page")
    ap.add_argument("--busy", type=int, default=0, help="busy loops beside the run")
    ap.add_argument("--paths", default="inline,static")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    timeout_ms = 180_000
    with busy(args.busy), sync_playwright() as pw:
        if args.busy:
            time.sleep(20)  # let the load average rise
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
        for path in args.paths.split(","):
            if path == "inline":
                os.environ["MONEYNB_INLINE_WIDGET_CODE"] = "1"
            else:
                os.environ.pop("MONEYNB_INLINE_WIDGET_CODE", None)
            for fe in args.frontends.split(","):
                with jupyter_server(fe) as (base, root):
                    write_probe(root / "notebooks" / "bench_board.ipynb", args.game)
                    url = (f"{base}/voila/render/bench_board.ipynb" if fe == "voila"
                           else f"{base}/lab/tree/notebooks/bench_board.ipynb")  # fmt: skip
                    if fe == "lab":
                        r = lab_board(pw, url, timeout_ms)
                        runs = [r]
                    else:
                        n = max(1, args.loads)
                        runs = [open_board(pw, url, timeout_ms, moves=args.moves)
                                for _ in range(n)]  # fmt: skip
                    report(path, fe, runs)
        print(f"load average at end: {os.getloadavg()[0]:.1f}")


def lab_board(pw, url: str, timeout_ms: int):
    """Lab: open the notebook, run it, save, wait for the board; then reload (the kernel
    kept) and wait for the board again."""
    ctx = _fresh_context(pw)
    try:
        page = ctx.new_page()
        meter = Meter(ctx, page)
        t0 = time.monotonic()
        page.goto(url + "?reset", timeout=timeout_ms)
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=timeout_ms)
        page.wait_for_function(
            """() => [...document.querySelectorAll('.jp-StatusBar-Item')]
                .some(e => /\\|\\s*Idle/.test(e.textContent))""",
            timeout=timeout_ms,
        )
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        t1 = None
        with contextlib.suppress(Exception):
            page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
            t1 = time.monotonic() - t0
        page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=10_000)
        w1, h1 = meter.take()
        t0 = time.monotonic()
        page.reload(timeout=timeout_ms)
        t2 = None
        with contextlib.suppress(Exception):
            page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
            t2 = time.monotonic() - t0
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=10_000)
        w2, h2 = meter.take()
        return w1, h1, w2, h2, t1, t2, 0
    finally:
        ctx.close()


def report(path: str, fe: str, runs: list) -> None:
    def stat(xs):
        ok = [x for x in xs if x is not None]
        if not ok:
            return "never"
        return f"median {statistics.median(ok):.1f} s, worst {max(ok):.1f} s"

    w1 = statistics.median(r[0] for r in runs)
    h1 = statistics.median(r[1] for r in runs)
    w2 = statistics.median(r[2] for r in runs)
    h2 = statistics.median(r[3] for r in runs)
    missing = sum((r[4] is None) + (r[5] is None) for r in runs)
    frozen = sum(r[6] for r in runs)
    print(
        f"{path:6} {fe:5} pages={len(runs)}: first load ws {kb(w1)}, http {kb(h1)}; "
        f"reload ws {kb(w2)}, http {kb(h2)}; load->board {stat([r[4] for r in runs])}; "
        f"reload->board {stat([r[5] for r in runs])}; missing {missing} of {2 * len(runs)}, "
        f"frozen {frozen} of {len(runs)}",
        flush=True,
    )


if __name__ == "__main__":
    main()
