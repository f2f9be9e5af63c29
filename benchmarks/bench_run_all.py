"""Browser benchmark (a script, not a test): Run All -> a playable board, in JupyterLab.

For each game's play notebook, on a warm server (JupyterLab already running, the page and
plotly's code loaded once by a first notebook, the notebook's kernel started and idle), sends
``notebook:run-all-cells`` and times, inside the page, until the game's board draws its points
AND the decision panel has an enabled button: what a player waits for after Run All. Includes
the kernel's ``import moneynb.ui`` (plotly, ipywidgets), the game's construction and the page
drawing the widgets. Prints per game the runs and their median (seconds).

Usage::

    python benchmarks/bench_run_all.py                   # every game, 2 runs each
    python benchmarks/bench_run_all.py --games moolah --runs 3

Needs Chromium (``/usr/bin/chromium`` or ``$MONEYNB_CHROMIUM``), playwright and jupyterlab.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from servers import jupyter_server  # noqa: E402

GAMES = ["money_moves", "moolah", "easy_money", "money_card", "money_run"]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip

_KERNEL_IDLE = """() => {
    const ind = document.querySelector('.jp-NotebookPanel .jp-Notebook-ExecutionIndicator');
    if (!ind || ind.getAttribute('data-status') !== 'idle') return false;
    return [...document.querySelectorAll('.jp-StatusBar-Item')]
        .some(e => /\\|\\s*Idle/.test(e.textContent));
}"""

_RUN_AND_TIME = """() => new Promise((resolve) => {
    const t0 = performance.now();
    const playable = () => {
        const v = document.querySelector('.moneynb-view');
        return v && v.querySelector('.moneynb-board .scatterlayer path.point')
            && v.querySelector('.moneynb-decision button:not([disabled])');
    };
    const poll = () => playable() ? resolve((performance.now() - t0) / 1000)
                                  : setTimeout(poll, 20);
    window.jupyterapp.commands.execute('notebook:run-all-cells');
    poll();
})"""


def _open(page, base: str, game: str) -> None:
    page.goto(f"{base}/lab/tree/notebooks/{game}.ipynb?reset")
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=90_000)
    page.wait_for_function(_KERNEL_IDLE, timeout=90_000)
    page.wait_for_timeout(500)


def _stop_kernels(page) -> None:
    page.evaluate(
        """async () => {
            const m = document.cookie.match(/_xsrf=([^;]+)/);
            const headers = m ? {'X-XSRFToken': decodeURIComponent(m[1])} : {};
            const r = await fetch('/api/sessions', {headers});
            for (const s of await r.json())
                await fetch('/api/sessions/' + s.id, {method: 'DELETE', headers});
        }"""
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="+", default=GAMES, choices=GAMES)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    exe = os.environ.get("MONEYNB_CHROMIUM", "/usr/bin/chromium")
    rows = []
    with jupyter_server("lab") as (base, _root), sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="moneynb-bench-"), executable_path=exe, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1400, "height": 1400},
        )  # fmt: skip
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        # warm-up: Lab's and plotly's code in the browser cache, the server's first kernel
        _open(page, base, args.games[0])
        page.evaluate(_RUN_AND_TIME)
        _stop_kernels(page)
        for game in args.games:
            times = []
            for _ in range(args.runs):
                _open(page, base, game)
                times.append(page.evaluate(_RUN_AND_TIME))
                _stop_kernels(page)
            rows.append((game, times))
            print(f"{game:12s} Run All -> playable: "
                  + ", ".join(f"{t:.1f}" for t in times)
                  + f" s (median {statistics.median(times):.1f} s)", flush=True)  # fmt: skip
        ctx.close()
    print("\ngame          median (s)   runs")
    for game, times in rows:
        print(f"{game:12s}  {statistics.median(times):8.1f}   {len(times)}")


if __name__ == "__main__":
    main()
