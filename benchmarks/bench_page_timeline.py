"""Where a board page's time goes (a script, not a test; issue 41): the timeline of a Voila
page load and reload and of a JupyterLab reload, from the page's own clock.

For each load it prints, in seconds from the navigation's start (``performance.now()``):

* ``html first byte`` / ``html end``: the page's HTML (Voila streams it while the kernel
  starts and runs the notebook, so ``html end`` is about when the notebook finished);
* ``js``: the scripts' downloads (first start, last end, bytes over the network, count),
  and separately plotly's static file (``moneynb/static/plotly-*.js``) and
  ``jupyterlab-plotly``'s chunks (the mime renderer's own copy of plotly.js);
* ``dom ready`` / ``load``: DOMContentLoaded and the load event;
* ``ws open`` / ``ws first message`` / ``ws messages``: the kernel's websocket;
* ``output``, ``view``, ``plot``, ``drawn``: the first notebook output, the moneynb view, the
  board's plot element, the board's first drawn points (a MutationObserver in the page).

A reload runs in the same browser profile (its cache kept). ``--voila N`` pages (fresh
profile each, each reloaded once), ``--lab`` one Lab notebook run then reloaded (the kernel
kept). ``--busy K`` busy loops beside it. Each line carries the load average.

Usage::

    python benchmarks/bench_page_timeline.py --voila 2 --lab
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from bench_class_load import _fresh_context, busy  # noqa: E402
from servers import jupyter_server  # noqa: E402

#: milestones of the page, from its own clock (installed before any of the page's scripts)
INIT_JS = """
(() => {
  const tl = (window.__tl = {ws: 0, wsOpen: null, wsFirst: null, wsLast: null});
  const mark = (k) => { if (!(k in tl)) tl[k] = performance.now(); };
  const look = () => {
    if (document.querySelector('.jp-OutputArea-output')) mark('output');
    if (document.querySelector('.moneynb-launcher.moneynb-owner-known')) mark('form');
    if (document.querySelector('.moneynb-view')) mark('view');
    if (document.querySelector('.moneynb-view .js-plotly-plot')) mark('plot');
    if (document.querySelector('.moneynb-view .moneynb-board .scatterlayer path.point'))
      mark('drawn');
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true});
  const WS = window.WebSocket;
  window.WebSocket = function (...a) {
    const ws = new WS(...a);
    if (String(a[0]).includes('/channels')) {
      ws.addEventListener('open', () => { if (tl.wsOpen === null) tl.wsOpen = performance.now(); });
      ws.addEventListener('message', () => {
        tl.ws += 1;
        const t = performance.now();
        if (tl.wsFirst === null) tl.wsFirst = t;
        if (!('drawn' in tl)) tl.wsLast = t;
      });
    }
    return ws;
  };
  window.WebSocket.prototype = WS.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""

#: the timeline once drawn: navigation, resources, milestones
READ_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0] || {};
  const res = performance.getEntriesByType('resource');
  const group = (f) => {
    const xs = res.filter(f);
    if (!xs.length) return null;
    return {n: xs.length, start: Math.min(...xs.map(r => r.startTime)),
            end: Math.max(...xs.map(r => r.responseEnd)),
            net: xs.reduce((s, r) => s + (r.transferSize || 0), 0),
            body: xs.reduce((s, r) => s + (r.decodedBodySize || 0), 0)};
  };
  return {
    nav: {first: nav.responseStart, end: nav.responseEnd,
          dom: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
          net: nav.transferSize},
    js: group(r => /\\.js(\\?|$)/.test(r.name)),
    plotly: group(r => /moneynb\\/static\\/plotly-/.test(r.name)),
    labplotly: group(r => /jupyterlab-plotly\\//.test(r.name)),
    all: group(r => true),
    tl: window.__tl,
    kernel: (() => {
      const k = document.querySelector('.tl-kernel');
      if (!k) return null;
      const at = (v) => Number(v) * 1000 - performance.timeOrigin;
      return {proc: at(k.dataset.proc), cell: at(k.dataset.cell), end: at(k.dataset.end)};
    })(),
  };
}"""

DRAWN_JS = "() => window.__tl && 'drawn' in window.__tl"

#: the probe: the kernel's process start, the cell's start and end (epoch seconds) shown in a
#: second cell's output, which the page turns into its own clock
PROBE = [
    "import time\n_t_cell = time.time()\nimport moneynb\n"
    "view = moneynb.play({game!r}, players=['You', 'bot:greedy'], seed=3, autosave=False)\n"
    "view",
    "import os\nfrom IPython.display import HTML\n"
    "_tick = os.sysconf('SC_CLK_TCK')\n"
    "_boot = next(int(l.split()[1]) for l in open('/proc/stat') if l.startswith('btime'))\n"
    "_start = _boot + int(open('/proc/self/stat').read().rsplit(')', 1)[1].split()[19]) / _tick\n"
    "HTML(f\"<div class='tl-kernel' data-proc='{{_start}}' data-cell='{{_t_cell}}' "
    "data-end='{{time.time()}}'></div>\")",
]


def write_probe(path: Path, game: str) -> None:
    import json

    cells = [{"cell_type": "code", "metadata": {}, "source": src.format(game=game),
              "outputs": [], "execution_count": None} for src in PROBE]  # fmt: skip
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}}}  # fmt: skip
    path.write_text(json.dumps(nb))


def fmt_s(ms) -> str:
    return "  -  " if ms is None else f"{ms / 1000:5.1f}"


def show(label: str, r: dict) -> None:
    tl, nav = r["tl"], r["nav"]
    line = [f"{label:14} load avg {os.getloadavg()[0]:4.1f} |",
            f"html {fmt_s(nav['first'])}-{fmt_s(nav['end'])}",
            f"dom {fmt_s(nav['dom'])} load {fmt_s(nav['load'])}"]  # fmt: skip
    k = r.get("kernel")
    if k:
        line.append(f"kernel proc {fmt_s(k['proc'])} cell {fmt_s(k['cell'])}-{fmt_s(k['end'])}")
    for name in ("js", "plotly", "labplotly"):
        g = r[name]
        if g:
            line.append(
                f"{name} {fmt_s(g['start'])}-{fmt_s(g['end'])} ({g['n']}, "
                f"{g['net'] / 1000:,.0f} kB net / {g['body'] / 1000:,.0f} kB)"
            )
    line.append(
        f"ws open {fmt_s(tl.get('wsOpen'))} first {fmt_s(tl.get('wsFirst'))} "
        f"last-before-drawn {fmt_s(tl.get('wsLast'))} ({tl.get('ws')} msgs)"
    )
    line.append(
        "output {} form {} view {} plot {} DRAWN {}".format(
            *(fmt_s(tl.get(k)) for k in ("output", "form", "view", "plot", "drawn"))
        )
    )
    g = r["all"]
    line.append(f"http net {(g['net'] if g else 0) / 1000 + (nav.get('net') or 0) / 1000:,.0f} kB")
    print(" ".join(line), flush=True)


def voila_page(pw, url: str, timeout_ms: int) -> None:
    ctx = _fresh_context(pw)
    try:
        ctx.add_init_script(INIT_JS)
        page = ctx.new_page()
        for phase in ("voila first", "voila reload"):
            if phase.endswith("first"):
                page.goto(url, timeout=timeout_ms)
            else:
                page.reload(timeout=timeout_ms)
            try:
                page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
            except Exception:
                print(f"{phase}: never drawn", flush=True)
            with contextlib.suppress(Exception):
                page.wait_for_load_state("networkidle", timeout=10_000)
            show(phase, page.evaluate(READ_JS))
    finally:
        ctx.close()


def app_page(pw, url: str, timeout_ms: int, label: str = "app") -> float | None:
    """The real app page (``voila/render/<game>.ipynb``): its form, Start (seed 5), one move
    (stored), then a reload, which brings the game back from the store (the launcher's
    restore). Prints both timelines; returns the reload's drawn time in seconds (None: never
    drawn)."""
    ctx = _fresh_context(pw)
    game = ".moneynb-launch-game-box .moneynb-view"
    try:
        ctx.add_init_script(INIT_JS)
        page = ctx.new_page()
        page.goto(url, timeout=timeout_ms)
        form = page.locator(".moneynb-launcher.moneynb-owner-known").first
        form.wait_for(state="visible", timeout=timeout_ms)
        seed = form.locator(".moneynb-launch-seed input")
        seed.fill("5")
        seed.press("Enter")
        form.locator("button.moneynb-launch-start").click()
        page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
        show(f"{label} first", page.evaluate(READ_JS))
        head = page.locator(f"{game} .moneynb-header").inner_text()
        page.locator(f"{game} .moneynb-decision button:not([disabled])").first.click()
        page.wait_for_function(
            """([sel, before]) => {
                const v = document.querySelector(sel);
                const head = v && v.querySelector('.moneynb-header');
                const m = head && head.textContent.match(/action (\\d+)/);
                const s = v && v.querySelector('.moneynb-saved');
                return !!(m && head.textContent !== before && s && s.dataset.actions === m[1]);
            }""",
            arg=[game, head],
            timeout=timeout_ms,
        )
        page.reload(timeout=timeout_ms)
        try:
            page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
        except Exception:
            print(f"{label} reload: never drawn", flush=True)
            return None
        r = page.evaluate(READ_JS)
        show(f"{label} reload", r)
        return r["tl"]["drawn"] / 1000
    finally:
        ctx.close()


def lab_page(pw, url: str, timeout_ms: int) -> None:
    ctx = _fresh_context(pw)
    try:
        ctx.add_init_script(INIT_JS)
        page = ctx.new_page()
        page.goto(url + "?reset", timeout=timeout_ms)
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=timeout_ms)
        page.wait_for_function(
            """() => [...document.querySelectorAll('.jp-StatusBar-Item')]
                .some(e => /\\|\\s*Idle/.test(e.textContent))""",
            timeout=timeout_ms,
        )
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
        show("lab first+run", page.evaluate(READ_JS))
        page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=10_000)
        for k in range(2):
            page.reload(timeout=timeout_ms)
            try:
                page.wait_for_function(DRAWN_JS, timeout=timeout_ms, polling=100)
            except Exception:
                print("lab reload: never drawn", flush=True)
            with contextlib.suppress(Exception):
                page.wait_for_load_state("networkidle", timeout=10_000)
            show(f"lab reload {k + 1}", page.evaluate(READ_JS))
    finally:
        ctx.close()


def app_runs(pw, args, timeout_ms: int) -> None:
    """``--app N`` real app pages per config of ``--app-configs``, the configs alternated page
    by page (one server each, started once), then each config's reload times."""
    import statistics

    repo = Path(__file__).resolve().parents[1]
    configs = [c.strip() for c in args.app_configs.split(",") if c.strip()]
    times: dict[str, list] = {c: [] for c in configs}
    with contextlib.ExitStack() as stack:
        servers, logs = {}, {}
        for c in configs:
            folder = {"none": None, "repo": repo}.get(c, c)
            extra = [f"--Voila.config_file_paths=['{folder}']"] if folder else []
            extra += [a for a in args.voila_args.split() if a]
            base, root = stack.enter_context(
                jupyter_server("voila", timeout=300, extra_args=tuple(extra))
            )
            servers[c] = base
            logs[c] = root.parent / "server.log"
        # a preheated pool fills at the server's start: wait for it (as on a server up for a
        # while), then --settle seconds more
        for c, log in logs.items():
            t0 = time.monotonic()
            while c != "none" and time.monotonic() - t0 < 900:
                if f"Kernel pool of {args.game}.ipynb is filled" in log.read_text(errors="replace"):
                    print(f"[{c}] pool filled after {time.monotonic() - t0:.0f} s", flush=True)
                    break
                time.sleep(1)
        time.sleep(args.settle)
        for _ in range(args.app):
            for c in configs:
                url = f"{servers[c]}/voila/render/{args.game}.ipynb"
                times[c].append(app_page(pw, url, timeout_ms, label=f"app[{Path(c).name}]"))
                time.sleep(args.gap)
    for c, ts in times.items():
        ok = [t for t in ts if t is not None]
        med = f"{statistics.median(ok):.1f}" if ok else "-"
        worst = f"{max(ok):.1f}" if ok else "-"
        print(
            f"app reload->drawn [{c}]: {[None if t is None else round(t, 1) for t in ts]} "
            f"median {med} s, worst {worst} s, missing {len(ts) - len(ok)}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="moolah")
    ap.add_argument("--voila", type=int, default=1, help="Voila pages (each reloaded once)")
    ap.add_argument("--lab", action="store_true", help="a Lab notebook, run then reloaded")
    ap.add_argument("--busy", type=int, default=0)
    ap.add_argument("--voila-args", default="", help="more Voila options, space separated")
    ap.add_argument(
        "--app",
        type=int,
        default=0,
        help="real app pages (--game's notebook: form, Start, a move, reload)",
    )
    ap.add_argument(
        "--app-configs",
        default="none",
        help="comma-separated Voila config folders (a voila.json each; 'none': "
        "no config file, 'repo': the repository's voila.json), alternated",
    )
    ap.add_argument(
        "--settle",
        type=float,
        default=0,
        help="seconds after the servers start before the first app page",
    )
    ap.add_argument("--gap", type=float, default=0, help="seconds between app pages")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    timeout_ms = 180_000
    with busy(args.busy), sync_playwright() as pw:
        if args.busy:
            time.sleep(20)
        if args.voila and not args.app:
            extra = tuple(a for a in args.voila_args.split() if a)
            with jupyter_server("voila", extra_args=extra) as (base, root):
                write_probe(root / "notebooks" / "bench_board.ipynb", args.game)
                for _ in range(args.voila):
                    voila_page(pw, f"{base}/voila/render/bench_board.ipynb", timeout_ms)
        if args.app:
            app_runs(pw, args, timeout_ms)
        if args.lab:
            with jupyter_server("lab") as (base, root):
                write_probe(root / "notebooks" / "bench_board.ipynb", args.game)
                lab_page(pw, f"{base}/lab/tree/notebooks/bench_board.ipynb", timeout_ms)


if __name__ == "__main__":
    main()
