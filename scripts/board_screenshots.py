"""Screenshots of every game's board at 1024x700, 1280x800 and 1400x1000, light and dark, with
Lab's file browser open and closed (issues 30 and 38).

Usage (from the repository; needs JupyterLab, Python playwright and a Chromium, as the browser
tests do)::

    python scripts/board_screenshots.py [--out] [test-output/screenshots]

Starts JupyterLab on a temporary copy of ``notebooks/`` (``tests/browser/servers.py``), opens
ONE probe notebook showing all five games (a person against a greedy bot, seed 5) and a replay
of each (the same page as ``tests/browser/test_zz_boards_fit_browser.py``), and for each
theme (JupyterLab Light, JupyterLab Dark: a Lab server per theme, opened in it by its theme
setting, as a user who chose it sees it; the pictures wait until every board is drawn in the
theme's paper colour),
side bar (``files``: the file browser open, ``nofiles``: the left side bar closed) and window
size saves ``<out>/<game>-<width>x<height>-<theme>-<bar>.png`` (the window with the game's
board row scrolled to the top of the notebook, where a move's focus puts it: the player's
view), ``<out>/replay-<game>-<width>x<height>-<theme>-<bar>.png`` (its replay's view) and
``<out>/page-<width>x<height>-<theme>-<bar>.png`` (the window); then the same views served by
Voila (the app, its theme by the URL's ``?theme=light|dark``: Voila's
``VoilaConfiguration.allow_theme_override`` is "YES" by default; ``?voila-theme=`` is not read),
``<out>/<view>-<width>x<height>-<theme>-voila.png`` (``--no-voila``: Lab only). Each view is scrolled as a move leaves it: its "Last move" line at the top, the board
row under it (issue 38). Prints each file written.
``--only GAME`` (repeatable) keeps the pictures of those games (and their replays); ``--theme
light|dark`` (repeatable) those of that theme.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

SIZES = ((1024, 700), (1280, 800), (1400, 1000))
#: the left side bar: Lab's file browser open, or the side bar closed
BARS = (("files", True), ("nofiles", False))
#: true once every board's paper (the background of its first opaque ``svg.main-svg``) is dark
#: (luminance < 0.2) for ``dark``, light otherwise
BOARDS_IN_THEME = """(dark) => [...document.querySelectorAll('.moneynb-board')].every((b) => {
    const bgs = [...b.querySelectorAll('svg.main-svg')]
        .map((s) => getComputedStyle(s).backgroundColor.match(/[\\d.]+/g)?.map(Number))
        .filter((c) => c && (c.length < 4 || c[3] > 0.5));
    if (!bgs.length) return false;
    const [r, g, b2] = bgs[bgs.length - 1].map((v) => v / 255);
    const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b2;
    return dark ? lum < 0.2 : lum > 0.5;
})"""
THEMES = (("light", "JupyterLab Light"), ("dark", "JupyterLab Dark"))


#: the view scrolled as a move leaves it (issue 38): its "Last move" line at the top when it
#: shows one, else its board row (a replay: the view)
ANCHOR_TOP = """v => (v.querySelector('.moneynb-header .moneynb-last-move')
    || v.querySelector('.moneynb-board-row') || v).scrollIntoView({block: 'start'})"""

#: waits until the page has drawn two frames (a scroll is painted)
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", nargs="?", help="where to write the pictures (same as --out)")
    ap.add_argument("--out", default=str(REPO / "test-output" / "screenshots"))
    ap.add_argument("--only", action="append", default=[], help="only this game (repeatable)")
    ap.add_argument("--theme", action="append", default=[], choices=[t for t, _ in THEMES],
                    help="only this theme (repeatable)")  # fmt: skip
    ap.add_argument("--no-lab", dest="lab", action="store_false",
                    help="the Voila app's pictures only")  # fmt: skip
    ap.add_argument("--no-voila", dest="voila", action="store_false",
                    help="Lab only (by default the Voila app's pictures follow)")  # fmt: skip
    args = ap.parse_args(argv)
    out = Path(args.outdir or args.out)
    out.mkdir(parents=True, exist_ok=True)

    from conftest import find_chromium
    from test_zz_boards_fit_browser import GAMES

    n_plots = 3 * len(GAMES)  # a board per game, a board and a chart per replay (at least)
    exe = find_chromium()
    if exe is None:
        print("no Chromium found (see tests/browser/conftest.py)", file=sys.stderr)
        return 2
    if not args.lab:
        _voila(args, out, n_plots, exe)
        return 0
    for theme, lab_theme in THEMES:
        if not args.theme or theme in args.theme:
            _lab(args, out, n_plots, exe, theme, lab_theme)
    if args.voila:
        _voila(args, out, n_plots, exe)
    return 0


def _lab(args, out: Path, n_plots: int, exe: str, theme: str, lab_theme: str) -> None:
    """JupyterLab opened in ``lab_theme`` (its theme setting in the server's settings folder:
    the page is in that theme from its first paint, as for a user who chose it; switching
    live with Lab's theme command hung under load waiting for the boards to turn dark), each
    side bar and size: ``<out>/<view>-<WxH>-<theme>-<bar>.png``.

    Raises:
        playwright's TimeoutError: the boards were not drawn in ``theme``'s paper colour.
    """
    from conftest import CHROMIUM_ARGS, open_and_run, write_probe_notebook
    from playwright.sync_api import sync_playwright
    from servers import jupyter_server, patience
    from test_zz_boards_fit_browser import BOARDS_CELL, GAMES, REPLAYS, REPLAYS_CELL, TEXT_READY_JS

    profile = tempfile.mkdtemp(prefix="moneynb-shots-")
    settings = {"@jupyterlab/apputils-extension/themes.jupyterlab-settings": {"theme": lab_theme}}
    with (
        jupyter_server("lab", timeout=90, settings=settings) as server,
        sync_playwright() as p,
    ):
        _base, root = server
        write_probe_notebook(root / "notebooks" / "_screenshots.ipynb", BOARDS_CELL + REPLAYS_CELL)
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=exe, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000},
        )  # fmt: skip
        try:
            page = ctx.new_page()
            page.set_default_timeout(patience(90_000))  # a loaded machine: slower, not red
            open_and_run(page, server, "notebooks/_screenshots.ipynb", timeout_s=150)
            # the probe's code is not what the pictures are of
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:hide-all-cell-code')")
            page.wait_for_function(
                "(n) => document.querySelectorAll('.moneynb-view .js-plotly-plot .main-svg')"
                ".length >= n",
                arg=n_plots,
            )
            page.wait_for_function(
                "(dark) => document.body.dataset.jpThemeLight === String(!dark)",
                arg=theme == "dark",
            )
            # every board drawn in the theme's palette (the page reports its theme)
            page.wait_for_function(BOARDS_IN_THEME, arg=theme == "dark")
            for bar, shown in BARS:
                page.evaluate(
                    """(shown) => { const app = window.jupyterapp, s = app.shell;
                        if (shown && s.leftCollapsed)
                            return app.commands.execute('filebrowser:activate');
                        if (!shown && !s.leftCollapsed) s.collapseLeft(); }""",
                    shown,
                )
                page.wait_for_function(
                    "(shown) => window.jupyterapp.shell.leftCollapsed === !shown", arg=shown
                )
                for w, h in SIZES:
                    page.set_viewport_size({"width": w, "height": h})
                    page.wait_for_function(
                        "(n) => document.querySelectorAll('.moneynb-view .js-plotly-plot "
                        ".main-svg').length >= n",
                        arg=n_plots,
                    )
                    page.evaluate(FRAMES)
                    tag = f"{w}x{h}-{theme}-{bar}"
                    shot = out / f"page-{tag}.png"
                    page.screenshot(path=str(shot))
                    print(shot)
                    for name in GAMES + REPLAYS:
                        if args.only and name.removeprefix("replay-") not in args.only:
                            continue
                        # the window as a player sees it, the view's board row at the
                        # top (an element shot would be cut by Lab's scrolling panel)
                        view = page.locator(f".moneynb-view.probe-{name}")
                        view.evaluate(ANCHOR_TOP)
                        if not name.startswith("replay-"):
                            # the board's text drawn for the scale it is shown at (the
                            # kernel draws it larger in a short window: one round trip)
                            try:
                                page.wait_for_function(TEXT_READY_JS, arg=name, timeout=60_000)
                            except Exception:  # noqa: BLE001 - the picture shows it anyway
                                print(f"{name} {tag}: text not redrawn in time", file=sys.stderr)
                        page.evaluate(FRAMES)
                        shot = out / f"{name}-{tag}.png"
                        page.screenshot(path=str(shot))
                        print(shot)
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)


def _voila(args, out: Path, n_plots: int, exe: str) -> None:
    """The same probe served by Voila (the app: no Lab around the views), each theme
    (``?theme=``, see the module's note) and size: ``<out>/<game>-<WxH>-<theme>-voila.png``.

    Raises:
        playwright's TimeoutError: the page or its boards were not drawn in the theme.
    """
    from conftest import CHROMIUM_ARGS, write_probe_notebook
    from playwright.sync_api import sync_playwright
    from servers import jupyter_server, patience
    from test_zz_boards_fit_browser import BOARDS_CELL, GAMES, REPLAYS, REPLAYS_CELL

    with jupyter_server("voila", timeout=90) as server, sync_playwright() as p:
        base, root = server
        write_probe_notebook(root / "notebooks" / "_screenshots.ipynb", BOARDS_CELL + REPLAYS_CELL)
        browser = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
        try:
            for theme, _lab in THEMES:
                if args.theme and theme not in args.theme:
                    continue
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(patience(90_000))
                page.goto(f"{base}/voila/render/_screenshots.ipynb?theme={theme}",
                          timeout=patience(300_000))  # fmt: skip
                page.wait_for_function(
                    "(n) => document.querySelectorAll('.moneynb-view .js-plotly-plot .main-svg')"
                    ".length >= n",
                    arg=n_plots,
                    timeout=patience(300_000),
                )
                page.wait_for_function(
                    "(dark) => document.body.dataset.jpThemeLight === String(!dark)",
                    arg=theme == "dark",
                )
                page.wait_for_function(BOARDS_IN_THEME, arg=theme == "dark")
                for w, h in SIZES:
                    page.set_viewport_size({"width": w, "height": h})
                    page.evaluate(FRAMES)
                    for name in GAMES + REPLAYS:
                        if args.only and name.removeprefix("replay-") not in args.only:
                            continue
                        page.locator(f".moneynb-view.probe-{name}").evaluate(ANCHOR_TOP)
                        page.evaluate(FRAMES)
                        shot = out / f"{name}-{w}x{h}-{theme}-voila.png"
                        page.screenshot(path=str(shot))
                        print(shot)
                page.close()
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
