"""Accessibility and readable boards, in a real browser (issue 20; issue 18 sections 5 and 6).

One Voila server and the session's JupyterLab serve ``notebooks/start_here.ipynb``; its start
form (a game chooser) starts each of the five games in turn on ONE page per theme, so every
game is checked in Lab and in Voila, light and dark, without a page load per game:

* axe-core (``axe-playwright-python``) at the start of each game and again mid-game:
  0 critical and 0 serious violations (each run's counts by impact are written to
  ``test-output/axe-<mode>-<theme>.json`` for the closing note);
* keyboard only: every decision is answered with Tab and Enter from where the view put the
  focus (the first control of a person's new decision); 20 decisions per game in Voila
  (light), fewer in the other runs (they only need a mid-game page);
* the live region (``.moneynb-live``) reads the newest log line and whose decision it is;
* mid-game axe runs with the Coach and the on-screen board as text turned on (by keyboard);
* the board as text (``.moneynb-board-text``) names every player and, when the board has
  highlighted targets, as many targets;
* the boards (Voila light): with every seat a bot, the game plays out at once; at the start
  and at that late state an element screenshot of each board is saved
  (``test-output/board-<game>-<start|late>-widget.png``) and, from the page's own geometry,
  no text label of the board overlaps another or leaves the figure;
* every glyph the view writes renders (no empty box where the font lacks it).
"""

from __future__ import annotations

import collections
import json

import pytest
from conftest import OUTPUT, launcher_form, open_and_run, painted, patience, screenshot

pytestmark = pytest.mark.browser

GAMES = ("money_moves", "moolah", "easy_money", "money_card", "money_run")
VIEW = ".moneynb-launch-game-box .moneynb-view"
#: the seed typed into the form for every game (7: its all-bot Moolah ended with "G3" over
#: "Temp-tation" before the fix, in every run)
SEED = "7"


@pytest.fixture(scope="module")
def voila(voila_server):
    """The session's Voila (``voila_server``): one server start for every Voila test that
    needs no server settings of its own (CI time)."""
    return voila_server


def _axe(page, where: str, results: dict, context=None) -> list:
    """axe-core on the page (or on ``context``, a CSS selector); counts by impact go into
    ``results[where]``; returns the critical and serious violations as text."""
    from axe_playwright_python.base import AXE_SCRIPT, AxeBase

    # axe-core once per page (half a megabyte of script: the wrapper's Axe().run evaluates it
    # again on every run), then the run itself, as the wrapper makes it
    if not page.evaluate("() => typeof window.axe === 'object' && !!window.axe.run"):
        page.evaluate(AXE_SCRIPT)
    args = AxeBase._format_script_args(context=context, options={"resultTypes": ["violations"]})
    violations = page.evaluate(f"axe.run({args}).then(results => results)")["violations"]
    counts = collections.Counter(v["impact"] for v in violations)
    results[where] = dict(counts, rules=sorted(f"{v['impact']} {v['id']}" for v in violations))
    return [
        f"{where}: {v['impact']} {v['id']} at {[n['target'] for n in v['nodes'][:3]]}: "
        + (v["nodes"][0].get("failureSummary") or "").replace("\n", " ")[:300]
        for v in violations
        if v["impact"] in ("critical", "serious")
    ]


def _start(page, game: str, bots: bool = False):
    """Choose ``game`` on the form (keyboard-free setup is fine: the form is not the game),
    optionally make every seat a bot, press Start; returns the view locator."""
    form = page.locator(".moneynb-launcher").first
    form.locator(".moneynb-launch-game select").select_option(value=_TITLES[game])
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('.moneynb-launcher .moneynb-launch-game select')]"
        ".some(s => s.value === t)",
        arg=_TITLES[game],
    )
    kinds = form.locator(".moneynb-launch-kind select")
    for i in range(kinds.count()):
        kinds.nth(i).select_option("greedy bot" if bots or i else "person")
    # one seed: every run checks the same games (a random one found a Moolah label bug at
    # one late position in some runs only; issue 38)
    form.locator(".moneynb-launch-seed input").fill(SEED)
    # mark the old view: the new one is the unmarked view under the form
    page.evaluate(
        f"() => {{ const v = document.querySelector('{VIEW}'); if (v) v.dataset.old = 1; }}"
    )
    form.locator("button.moneynb-launch-start").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"""() => {{
            const v = document.querySelector('{VIEW}');
            return v && !v.dataset.old && !!v.querySelector('.js-plotly-plot .scatterlayer .trace');
        }}""",
        timeout=patience(60_000),
    )
    view = page.locator(VIEW)
    page.wait_for_function(
        f"() => document.querySelector('{VIEW} .moneynb-live')",
        timeout=patience(30_000),
    )
    return view


_TITLES = {
    "money_moves": "Money Moves",
    "moolah": "Moolah",
    "easy_money": "Easy Money",
    "money_card": "Money Card",
    "money_run": "Money Run",
}

_STATE_JS = f"""() => {{
    const v = document.querySelector('{VIEW}');
    const head = v.querySelector('.moneynb-header').textContent;
    const m = head.match(/action (\\d+)/);
    const a = document.activeElement;
    const live = [...v.querySelectorAll('.moneynb-live p')].map(p => p.textContent);
    const log = [...v.querySelectorAll('.moneynb-log-line')].map(d => d.textContent);
    return {{
        actions: m ? Number(m[1]) : -1,
        over: /Game over/.test(head),
        focusInPanel: !!(a && a.closest('{VIEW} .moneynb-decision')),
        focusTag: a ? a.tagName + '.' + a.className : '',
        live: live.length ? live[live.length - 1] : '',
        lastLog: log.length ? log[log.length - 1] : '',
        human: !!v.querySelector('.moneynb-decision .moneynb-panel button:not([disabled])'),
        error: v.querySelector('.moneynb-error').textContent,
        logs: Number(v.querySelector('.moneynb-log-box').dataset.count),
    }};
}}"""


def _keyboard_decisions(page, n: int) -> int:
    """Answer up to ``n`` decisions with Tab and Enter only, starting from the focus the view
    gave; checks the focus landed in the decision panel and the live region after each.
    Returns how many decisions were answered."""
    done = 0
    for _ in range(n):
        s = page.evaluate(_STATE_JS)
        if s["over"] or not s["human"]:
            break
        # the view moves the focus to the first control of a person's new decision: wait
        # for the focus of THIS decision (the helper names the action count it served)
        page.wait_for_function(
            f"""(n) => {{
                const h = document.querySelector('{VIEW} .moneynb-a11y');
                const a = document.activeElement;
                return h && h.dataset.focused === String(n) && !!(a && a.closest(
                    '{VIEW} .moneynb-decision'));
            }}""",
            arg=s["actions"],
            timeout=patience(
                30_000
            ),  # a cold first kernel (the first test of a run) can take >10 s
        )
        # the focus is the view's last message of a decision: the log is now the one this
        # decision was shown with (the header and board arrive first, the log after them)
        s = page.evaluate(_STATE_JS)
        # a visible focus ring on the control the focus went to
        ring = page.evaluate(
            "() => { const c = getComputedStyle(document.activeElement);"
            " return [c.outlineStyle, parseFloat(c.outlineWidth)]; }"
        )
        assert ring[0] != "none" and ring[1] >= 2, f"no visible focus ring: {ring}"
        for _tab in range(8):  # from a slider, a number box or a list, Tab on to a button
            tag = page.evaluate("() => document.activeElement.tagName")
            if tag == "BUTTON":
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"(n) => {{ const h = document.querySelector('{VIEW} .moneynb-header').textContent;"
            "const m = h.match(/action (\\d+)/); return /Game over/.test(h) || "
            "(m && Number(m[1]) > n); }",
            arg=s["actions"],
            timeout=patience(30_000),
        )
        done += 1
        # the live region has read the newest log line (and says whose decision it is)
        page.wait_for_function(
            f"""(before) => {{
                const ps = document.querySelectorAll('{VIEW} .moneynb-live p');
                const t = ps.length ? ps[ps.length - 1].textContent : '';
                const box = document.querySelector('{VIEW} .moneynb-log-box');
                const log = [...document.querySelectorAll('{VIEW} .moneynb-log-line')];
                const last = log.length ? log[log.length - 1].textContent : '';
                const grew = box && Number(box.dataset.count) > before;
                return (!grew || t.includes(last.slice(0, 40)))
                    && /decide|decision|Game over/i.test(t);
            }}""",
            arg=s["logs"],
            timeout=patience(10_000),
        )
    return done


def _board_text(page) -> dict:
    return page.evaluate(
        f"""() => {{
        const v = document.querySelector('{VIEW}');
        const out = {{}};
        for (const t of v.querySelectorAll('.moneynb-board-text table'))
            out[t.dataset.section] = [...t.querySelectorAll('tr')].map(r => r.textContent);
        // every player of the game, as the start form names them
        out.__players = [...document.querySelectorAll('.moneynb-launcher .moneynb-launch-row')]
            .filter(r => r.offsetParent !== null)
            .map(r => r.querySelector('input').value.trim());
        return out;
    }}"""
    )


_GEOMETRY_JS = """(sel) => {
    // every text label of the board: plotly's text points and annotations, with their boxes
    const root = document.querySelector(sel);
    const plots = [...root.querySelectorAll('.js-plotly-plot')];
    const boxes = [], out = [];
    let fig = null;
    for (const p of plots) {
        const r = p.querySelector('.main-svg').getBoundingClientRect();
        fig = fig ? {left: Math.min(fig.left, r.left), top: Math.min(fig.top, r.top),
                     right: Math.max(fig.right, r.right), bottom: Math.max(fig.bottom, r.bottom)}
                  : {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
        for (const t of p.querySelectorAll('.textpoint text, .annotation-text, .gtitle')) {
            if (!t.textContent.trim()) continue;
            const b = t.getBoundingClientRect();
            if (b.width === 0 || b.height === 0) continue;
            boxes.push({text: t.textContent.trim(), left: b.left, top: b.top, right: b.right,
                        bottom: b.bottom});
        }
    }
    const eps = 1;
    for (const b of boxes) {
        if (b.left < fig.left - eps || b.right > fig.right + eps || b.top < fig.top - eps
            || b.bottom > fig.bottom + eps) out.push(`"${b.text}" leaves the figure`);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 2 && h > 2) out.push(`"${a.text}" overlaps "${b.text}"`);
    }
    return {labels: boxes.length, problems: out};
}"""

_GLYPHS_JS = """(sel) => {
    // each non-ASCII character the view shows, drawn in the page's own font, must not look
    // like the "missing glyph" box the browser draws for a character no font has
    const root = document.querySelector(sel);
    const text = root.innerText + [...root.querySelectorAll('svg text')].map(t => t.textContent).join('');
    const chars = [...new Set([...text].filter(c => c.codePointAt(0) > 127 && !/\\s/.test(c)))];
    const font = getComputedStyle(root).font || '16px sans-serif';
    const draw = (c) => {
        const cv = document.createElement('canvas'); cv.width = 40; cv.height = 40;
        const x = cv.getContext('2d'); x.font = '28px ' + getComputedStyle(root).fontFamily;
        x.fillText(c, 4, 30); return cv.toDataURL();
    };
    const missing = [draw('\\u{10FFFD}'), draw('\\uFFFF'), draw('\\u0378')];
    return chars.filter(c => missing.includes(draw(c)));
}"""


#: Each board's colours against the page's theme (issue 30, case 6), from the page itself:
#: the opaque backgrounds of its figures (a figure's paper: the ``svg.main-svg`` background;
#: its plot area: ``.bglayer .bg`` fill) must be dark (luminance < 0.2) in a dark page and
#: light (> 0.5) in a light one; every text drawn on them (the title, annotations, and the
#: text-only traces: plotly binds each trace group to its trace, ``g.__data__[0].trace``)
#: at 4.5:1 or more against the background it sits on (a board's tile text, its
#: ``TILE_TEXT`` traces, against the colour of the tile of its ``spaces`` trace under it).
#: Returns the problems found, as text.
_THEME_JS = r"""([sel, dark, tileText, backgroundsOnly]) => {
    const parse = (s) => {
        const m = /rgba?\(([^)]+)\)/.exec(s || '');
        if (!m) return null;
        const p = m[1].split(',').map(Number);
        return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
    };
    const lum = (c) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const ratio = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
    };
    const hex = (c) => '#' + [c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
    const out = [];
    const boards = [...document.querySelectorAll(sel)];
    if (!boards.length) return ['no board found'];
    for (const board of boards) {
        // bottom to top: a backdrop comes after the figure laid over it in the page
        const plots = [...board.querySelectorAll('.js-plotly-plot')].reverse();
        let paper = null, plot = null;
        for (const p of plots) {
            const c = parse(getComputedStyle(p.querySelector('svg.main-svg')).backgroundColor);
            if (c && c.a > 0.5) paper = c;
            const bg = p.querySelector('.bglayer .bg');
            if (bg) {
                const f = parse(getComputedStyle(bg).fill);
                const op = parseFloat(getComputedStyle(bg).fillOpacity || '1');
                if (f && f.a * op > 0.5) plot = f;
            }
        }
        plot = plot || paper;
        if (!paper) { out.push('no opaque background'); continue; }
        for (const [what, c] of [['paper', paper], ['plot area', plot]]) {
            const l = lum(c);
            if (dark ? l >= 0.2 : l <= 0.5)
                out.push(`${what} ${hex(c)} (luminance ${l.toFixed(2)}) in a ${dark ? 'dark' : 'light'} page`);
        }
        if (backgroundsOnly) continue;
        const check = (text, el, bgs) => {
            const f = parse(getComputedStyle(el).fill);
            if (!f || !text) return;
            for (const bg of bgs) {
                const r = ratio(f, bg);
                if (r < 4.5) out.push(`"${text}" ${hex(f)} on ${hex(bg)}: ${r.toFixed(2)}:1`);
            }
        };
        let checked = 0;
        for (const p of plots) {
            for (const t of p.querySelectorAll('.gtitle')) { check(t.textContent.trim(), t, [paper]); checked++; }
            for (const t of p.querySelectorAll('.annotation-text')) { check(t.textContent.trim(), t, [plot]); checked++; }
            const tiles = [];  // the board's tiles: their boxes and colours
            for (const g of p.querySelectorAll('.scatterlayer .trace')) {
                const tr = g.__data__ && g.__data__[0] && g.__data__[0].trace;
                if (tr && tr.name === 'spaces')
                    for (const pt of g.querySelectorAll('path.point'))
                        tiles.push({box: pt.getBoundingClientRect(), fill: parse(getComputedStyle(pt).fill)});
            }
            // the tiles keep their own colours in the theme (a lost per-point colour list
            // drew every Moolah space in plotly's default purple in a dark page)
            const fills = new Set(tiles.filter((t) => t.fill).map((t) => hex(t.fill)));
            if (tiles.length >= 3 && fills.size < 3)
                out.push(`the board's ${tiles.length} spaces are drawn in ${fills.size} colour(s)`);
            const under = (el) => {  // the tile under the middle of a text
                const b = el.getBoundingClientRect(), x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
                const t = tiles.find((t) => t.fill && x >= t.box.left && x <= t.box.right
                                            && y >= t.box.top && y <= t.box.bottom);
                return t ? t.fill : plot;
            };
            for (const g of p.querySelectorAll('.scatterlayer .trace')) {
                const tr = g.__data__ && g.__data__[0] && g.__data__[0].trace;
                if (!tr || tr.mode !== 'text') continue;
                const onTiles = tileText.includes(tr.name);
                for (const t of g.querySelectorAll('.textpoint text')) {
                    check(t.textContent.trim(), t, [onTiles ? under(t) : plot]);
                    checked++;
                }
            }
        }
        if (!checked) out.push('no board text found');
    }
    return out;
}"""


def _board_theme(page, game: str, dark: bool, where: str) -> list[str]:
    """Wait (generously) until the board of ``game`` (the page's view) is drawn in the
    theme's background, then check its colours from the page (:data:`_THEME_JS`); returns
    the problems."""
    from moneynb.ui.boards import board_class

    # the names of the board's text traces drawn on its tiles
    tile_text = list(getattr(board_class(game), "TILE_TEXT", ()))
    arg = [f"{VIEW} .moneynb-board", dark, tile_text]
    # the whole check, every 200 ms: the kernel's redraw for the theme may reach the page in
    # more than one message (the backgrounds first, a title's colour a moment later: the full
    # run of stop 48 read "a board title still in its light colour" after a wait on the
    # backgrounds alone); a problem that stays is reported after the wait
    try:
        page.wait_for_function(
            f"(a) => ({_THEME_JS})(a).length === 0",
            arg=[*arg, False],
            polling=200,
            timeout=patience(30_000),
        )
    except Exception:  # noqa: BLE001 - the check below says what is wrong
        pass
    return [f"{where}: {p}" for p in page.evaluate(_THEME_JS, [*arg, False])]


#: the window sizes of issue 30 (a school laptop to a desktop); the session's window is 1400x1400
SIZES = ((1024, 700), (1280, 800), (1400, 1000))


def _theme_at_sizes(page, game: str, dark: bool, where: str) -> list[str]:
    """:func:`_board_theme` at each of :data:`SIZES` (the layout changes with the width: side
    by side or stacked, the board scaled), then the window back to 1400x1400; returns the
    problems."""
    problems = []
    try:
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_function(  # the view laid out again for this width, its board drawn
                f"""(w) => {{
                    const v = document.querySelector('{VIEW}');
                    return window.innerWidth === w && v && !!v.querySelector('.moneynb-board-row')?.dataset.layout
                        && !!v.querySelector('.js-plotly-plot .main-svg');
                }}""",
                arg=w,
                timeout=patience(30_000),
            )
            painted(page)
            problems += _board_theme(page, game, dark, f"{where} {w}x{h}")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1400})
    return problems


def _show_coach_and_board_text(page) -> None:
    """Turn on the Coach and the on-screen board as text (keyboard: focus, Enter)."""
    # first the view's own focus move to a person's pending decision (it may arrive after
    # the log): else it can take the focus from a toggle between focus() and Enter
    s = page.evaluate(_STATE_JS)
    if s["human"] and not s["over"]:
        page.wait_for_function(
            f"(n) => document.querySelector('{VIEW} .moneynb-a11y')?.dataset.focused === String(n)",
            arg=s["actions"],
            timeout=patience(30_000),
        )
    for css in (".moneynb-coach-toggle", ".moneynb-board-text-toggle"):
        toggle = page.locator(f"{VIEW} button{css}")
        if "mod-active" not in (toggle.get_attribute("class") or ""):
            toggle.focus()
            page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => {{ const t = document.querySelector('{VIEW} .moneynb-board-text');"
        " return t && !t.classList.contains('moneynb-sr-only'); }",
        timeout=patience(10_000),
    )


def _board_geometry(page, view, game, when, mode, theme) -> list[str]:
    """Element screenshot of the board; its text labels' overlaps and overflows, as text."""
    board = view.locator(".moneynb-board")
    screenshot(page, f"board-{game}-{when}-{mode}-{theme}", board)
    geo = page.evaluate(_GEOMETRY_JS, f"{VIEW} .moneynb-board")
    assert geo["labels"] > 0, f"{game} {when}: no text label found on the board"
    return [f"{game} {when}: {p}" for p in geo["problems"]]


def _run_mode(page, mode: str, theme: str, keyboard: int, check_boards: bool) -> None:
    # Lab: the form and its game (Lab's own chrome is not ours to check); Voila: the page
    context = ".moneynb-launcher" if mode == "lab" else None
    results: dict = {}
    problems: list[str] = []
    for game in GAMES:
        view = _start(page, game)
        if check_boards:
            problems += _board_geometry(page, view, game, "start", mode, theme)
        problems += _board_theme(page, game, theme == "dark", f"{game} start ({theme})")
        if theme == "dark":  # the colours at the three window sizes too (issue 30, case 6)
            problems += _theme_at_sizes(page, game, True, f"{game} start ({theme})")
        problems += _axe(page, f"{game} start", results, context)
        bt = _board_text(page)
        assert bt.get("tokens"), f"{game}: the board as text lists no token"
        for name in bt["__players"]:
            assert any(name in row for row in bt["tokens"]), (game, name, bt["tokens"])
        done = _keyboard_decisions(page, keyboard)
        for _again in range(3):  # a game that ended first: a new one, still by keyboard
            if done >= keyboard:
                break
            _start(page, game)
            done += _keyboard_decisions(page, keyboard - done)
        assert done >= keyboard, f"{game}: only {done} decisions by keyboard"
        _show_coach_and_board_text(page)  # checked too: both in the page, on screen
        problems += _axe(page, f"{game} mid-game", results, context)
        missing = page.evaluate(_GLYPHS_JS, VIEW)
        assert not missing, f"{game}: glyphs drawn as empty boxes: {missing}"
        if check_boards:  # late game: every seat a bot, so the game plays out at once
            view = _start(page, game, bots=True)
            problems += _board_geometry(page, view, game, "late", mode, theme)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"axe-{mode}-{theme}.json").write_text(json.dumps(results, indent=1))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_voila_accessible_keyboard_and_readable(voila, page, theme):
    base, _root = voila
    page.goto(f"{base}/voila/render/start_here.ipynb?theme={theme}", timeout=patience(240_000))
    launcher_form(page)  # the form knows its owner: a game it brings back is on it
    try:
        _run_mode(page, "voila", theme, keyboard=20 if theme == "light" else 4,
                  check_boards=theme == "light")  # fmt: skip
    except BaseException:
        screenshot(page, f"a11y-voila-{theme}-failure")
        raise


def test_the_first_board_of_a_dark_page_keeps_its_colours(voila, browser_context):
    """A newcomer's finding: in Voila with ``?theme=dark``, when Moolah's was the first board
    of the page (its own notebook) in a newly started browser, every space was drawn in
    plotly's default purple (the board, built light, was recoloured by one message over all
    its traces). The spaces keep their colours, the labels their contrast."""
    from conftest import CHROMIUM_ARGS

    base, _root = voila
    browser = browser_context.moneynb_playwright.chromium.launch(
        executable_path=browser_context.moneynb_chromium, headless=True, args=CHROMIUM_ARGS
    )
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(patience(30_000))
        page.goto(f"{base}/voila/render/moolah.ipynb?theme=dark", timeout=patience(240_000))
        form = launcher_form(page)
        form.locator("button.moneynb-launch-start").click()
        page.wait_for_function(
            "() => document.querySelectorAll('.moneynb-view .js-plotly-plot').length >= 2",
            timeout=patience(60_000),
        )
        painted(page)
        problems = _board_theme(page, "moolah", True, "moolah first board (dark)")
        assert not problems, "\n".join(problems)
    finally:
        browser.close()


def _lab_theme(page, dark: bool) -> None:
    name = "JupyterLab Dark" if dark else "JupyterLab Light"
    page.evaluate(
        f"window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{name}'}})"
    )
    page.wait_for_function(
        f"() => document.body.dataset.jpThemeLight === '{str(not dark).lower()}'",
        timeout=patience(30_000),
    )
    # the theme's CSS variables reach the page: Lab's background colour is dark in the dark
    # theme, light in the light one (then one paint so every widget is drawn with them)
    page.wait_for_function(
        """(dark) => {
            const c = getComputedStyle(document.body).getPropertyValue('--jp-layout-color0');
            const el = document.createElement('div');
            el.style.color = c;
            document.body.appendChild(el);
            const rgb = getComputedStyle(el).color.match(/\\d+/g).map(Number);
            el.remove();
            const light = (rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114) / 1000 > 128;
            return c.trim() !== '' && light === !dark;
        }""",
        arg=dark,
        timeout=patience(30_000),
    )
    painted(page)


def test_lab_accessible_in_both_themes(lab_server, page):
    """Lab: each game started from the form, checked light, then dark (the theme switched in
    the page: one notebook run for both), at the start and after a few keyboard decisions.

    Each game: started in the light theme and checked; the theme switched to dark, checked
    (also at the three window sizes); a few keyboard decisions and the Coach and board text
    turned on, in the dark theme; checked mid-game dark, the theme switched back to light and
    checked mid-game light. Two theme switches a game (each one restyles all of Lab and has
    the kernel redraw the board): the order saves Lab two more a game (CI time)."""
    open_and_run(page, lab_server, "notebooks/start_here.ipynb")
    results: dict = {"light": {}, "dark": {}}
    problems: list[str] = []

    def check(game: str, when: str, theme: str) -> list[str]:
        # the board follows the theme (the kernel redraws it): wait, then check
        where = f"{game} {when} ({theme})"
        found = _board_theme(page, game, theme == "dark", where)
        if theme == "dark" and when == "start":  # and at the three window sizes
            found += _theme_at_sizes(page, game, True, where)
        return found + _axe(page, f"{game} {when}", results[theme], ".moneynb-launcher")

    try:
        _lab_theme(page, False)
        for game in GAMES:
            _start(page, game)
            problems += check(game, "start", "light")
            _lab_theme(page, True)
            problems += check(game, "start", "dark")
            assert _keyboard_decisions(page, 3) >= 1, f"{game}: no keyboard decision"
            _show_coach_and_board_text(page)
            problems += check(game, "mid-game", "dark")
            _lab_theme(page, False)
            problems += check(game, "mid-game", "light")
    except BaseException:
        screenshot(page, "a11y-lab-failure")
        raise
    finally:  # the theme is a setting of the session's Lab: put it back
        _lab_theme(page, False)
    OUTPUT.mkdir(exist_ok=True)
    for theme, res in results.items():
        (OUTPUT / f"axe-lab-{theme}.json").write_text(json.dumps(res, indent=1))
    assert not problems, "\n".join(problems)


def test_glyph_check_can_fail(voila, page):
    """The missing-glyph check sees a character no font has (so a pass means something)."""
    base, _root = voila
    page.set_content("<div id='x'>A \U0010fffd</div>")
    assert page.evaluate(_GLYPHS_JS, "#x") == ["\U0010fffd"]
    del base
