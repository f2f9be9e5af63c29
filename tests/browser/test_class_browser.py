"""A lesson as a class, in real browsers (issue 36): a teacher and three students in four
Chromium contexts (four browsers, each its own owner) on one Voila server with a teacher
passcode, and one check of the teacher's histogram in JupyterLab.

The teacher opens a class in the app's teacher page; the students join it with its code and
their names, play solo games and one table; the class view shows the three names, each one's
game, the table's leader (the engine's) and follows the table live; a pooled activity run twice
by one student keeps one result, another student's default seed differs; the teacher's
histogram draws with the right count, mean and expected value; the teacher clears the run and
a student posts again; the teacher ends the class and downloads the CSVs and the zip, whose
contents are checked."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from conftest import CHROMIUM_ARGS, launcher_form, patience, screenshot, voila_shows
from servers import jupyter_server
from test_reload_browser import _main_button

pytestmark = pytest.mark.browser

PASSCODE = "owl-36"
POOL = """\
import numpy as np
from moneynb import teach
from moneynb.core.chance import D6
LESSON = "dice-10"
seed = teach.lesson_seed(None)
my_mean = np.random.default_rng(seed).integers(1, 7, size=10).mean()
teach.post_result(LESSON, my_mean, seed=seed)
teach.class_results(LESSON, teach.mean_distribution(D6.distribution(), 10), xlabel="mean of 10 dice")
"""
GAME = ".moneynb-launch-game-box .moneynb-view"
#: the first x of the class's bars as the page's plotly.js holds it (1.05: the first bin of
#: ten dice's mean; an x lost on the page reads 0, the bar's index)
BAR_X = "(gd) => gd.data[0].x[0]"


def _notebook(path: Path, source: str) -> None:
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
                     "execution_count": None}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
    path.write_text(json.dumps(nb))


@pytest.fixture(scope="module")
def class_voila():
    """Voila with a teacher passcode (its own server: the session's has none)."""
    old = os.environ.get("MONEYNB_TEACHER_PASSCODE")
    os.environ["MONEYNB_TEACHER_PASSCODE"] = PASSCODE
    try:
        with jupyter_server("voila") as (base, root):
            _notebook(Path(root) / "notebooks" / "pool.ipynb", POOL)
            yield base, root
    finally:
        if old is None:
            os.environ.pop("MONEYNB_TEACHER_PASSCODE", None)
        else:
            os.environ["MONEYNB_TEACHER_PASSCODE"] = old


def _wait(page, js: str, arg=None, ms: float = 60_000) -> None:
    page.wait_for_function(js, arg=arg, timeout=patience(ms))


def _attr(page, selector: str, name: str) -> str:
    return page.locator(selector).first.get_attribute(name) or ""


def test_a_class_in_voila_teacher_and_three_students(class_voila, browser_context):
    from moneynb import load_game
    from moneynb.store import open_store
    from moneynb.ui.classroom import leader_of

    base, root = class_voila
    store = open_store(Path(root).parent / "store" / "games.sqlite3")
    p = browser_context.moneynb_playwright
    browser = p.chromium.launch(executable_path=browser_context.moneynb_chromium,
                                headless=True, args=CHROMIUM_ARGS)  # fmt: skip
    pages = {}
    for who in ("teacher", "Ann", "Bob", "Cy"):
        pg = browser.new_context(viewport={"width": 1400, "height": 1400},
                                 accept_downloads=True).new_page()  # fmt: skip
        pg.set_default_timeout(patience(30_000))
        pages[who] = pg
    page = pages["teacher"]
    app = f"{base}/voila/render/start_here.ipynb"
    try:
        for pg in pages.values():
            pg.goto(app, timeout=patience(240_000))
        # the teacher opens today's class in the app's teacher page
        t = pages["teacher"]
        launcher_form(t)
        t.locator(".moneynb-launch-teacher-code input").fill(PASSCODE)
        t.locator("button.moneynb-launch-teacher").click()
        t.locator(".moneynb-class-name input").wait_for(timeout=patience(60_000))
        t.locator(".moneynb-class-name input").fill("Year 10 B, 3 Dec")
        t.locator("button.moneynb-class-open").click()
        _wait(t, "() => !!document.querySelector('.moneynb-class-header [data-code]')")
        code = _attr(t, ".moneynb-class-header [data-code]", "data-code")
        klass = store.get_class(code=code)
        # the students join with the code and their names, then play
        for name in ("Ann", "Bob", "Cy"):
            page = pg = pages[name]
            launcher_form(pg)
            pg.locator(".moneynb-launch-class-code input").fill(code.lower())
            pg.locator(".moneynb-launch-class-name input").fill(name)
            pg.locator("button.moneynb-launch-class-join").click()
            _wait(pg, "() => !!document.querySelector('.moneynb-launch-class [data-class]')")
        for name in ("Ann", "Bob"):
            page = pg = pages[name]
            pg.locator("button.moneynb-launch-start").click()
            pg.locator(GAME).wait_for(state="visible", timeout=patience(60_000))
            _main_button(pg.locator(GAME)).click()
        page = c = pages["Cy"]
        c.locator("button.moneynb-launch-host").click()
        c.locator(GAME).wait_for(state="visible", timeout=patience(60_000))
        _main_button(c.locator(GAME)).click()
        # the class view: three names, each one's game, the table and its leader
        page = t
        _wait(t, "() => document.querySelectorAll('.moneynb-class-student').length === 3")
        names = t.locator(".moneynb-class-student").evaluate_all(
            "rows => rows.map(r => r.dataset.name)")  # fmt: skip
        assert names == ["Ann", "Bob", "Cy"]
        _wait(t, "() => document.querySelectorAll('.moneynb-classroom-row').length === 3")
        listing = t.locator(".moneynb-classroom-list").inner_text()
        assert "solo: Ann" in listing and "solo: Bob" in listing
        games = store.class_games(klass.id, klass.teacher)
        table = next(g for g in games if g.table)
        assert any(s.owner for s in table.seats) and table.table in listing
        row = f".moneynb-classroom-row[data-id='{table.id}']"
        n_shown = int(_attr(t, row, "data-actions"))
        shown = json.loads(store.read(table.id))  # the game as the row shows it
        shown["actions"] = shown["actions"][:n_shown]
        leader = leader_of(load_game(json.dumps(shown)))  # the engine's; Cy's seat is "You"
        assert _attr(t, row, "data-leader") == leader.replace("You", "Cy")
        doing = t.locator(".moneynb-class-roster").inner_text()
        assert f"(table {table.table})" in doing and "(solo)" in doing
        # ... and follows the table live
        label = t.locator(".moneynb-classroom-choice option", has_text=table.table).inner_text()
        t.locator(".moneynb-classroom-choice select").select_option(label=label)
        t.locator("button.moneynb-classroom-open").click()
        _wait(t, "(code) => { const e = document.querySelector('.moneynb-live-status');"
                 " return e && e.textContent.includes(code); }", table.table)  # fmt: skip
        t.locator(".moneynb-live .js-plotly-plot").first.wait_for(timeout=patience(60_000))
        n = int(_attr(t, ".moneynb-live-status [data-actions]", "data-actions"))
        page = c
        _main_button(c.locator(GAME)).click()
        page = t
        _wait(t, "(n) => Number(document.querySelector('.moneynb-live-status [data-actions]')"
                 ".dataset.actions) > n", n)  # fmt: skip
        # a pooled activity: Ann runs it twice (one result), Bob once with the default seed
        pool = f"{base}/voila/render/pool.ipynb"
        for name, expect in (("Ann", "0"), ("Ann", "1"), ("Bob", "0")):
            page = pg = pages[name]
            pg.goto(pool, timeout=patience(240_000))
            voila_shows(pg, ".moneynb-posted [data-run]", name=f"pool-{name}")
            assert _attr(pg, ".moneynb-posted [data-run]", "data-replaced") == expect
        rows = store.class_results(klass.id, klass.teacher, lesson="dice-10")
        assert sorted(r["name"] for r in rows) == ["Ann", "Bob"]
        assert rows[0]["seed"] != rows[1]["seed"]
        # the teacher's histogram: count of the roster, class mean, expected value, drawn
        page = h = t.context.new_page()  # the teacher's browser: the same owner
        h.goto(pool, timeout=patience(240_000))
        voila_shows(h, ".moneynb-class-count [data-posted]", name="pool-teacher")
        assert "not posted" in h.locator(".moneynb-posted").inner_text()
        mean = sum(r["value"] for r in rows) / 2
        _wait(h, "() => document.querySelector('.moneynb-class-count [data-posted]')"
                 ".dataset.posted === '2'")  # fmt: skip
        count = h.locator(".moneynb-class-count [data-posted]").first
        assert count.get_attribute("data-roster") == "3"
        assert float(count.get_attribute("data-mean")) == pytest.approx(mean, rel=1e-5)
        assert count.get_attribute("data-ev") == "3.5"
        fig = h.locator(".moneynb-class-results .js-plotly-plot").first
        fig.wait_for(timeout=patience(60_000))
        _wait(h, "() => document.querySelectorAll('.moneynb-class-results .barlayer path')"
                 ".length > 0")  # fmt: skip
        legend = fig.locator(".legend").text_content()
        assert f"class mean {mean:.4g}" in legend and "expected value 3.5" in legend
        assert fig.evaluate(BAR_X) == pytest.approx(1.05)  # the bars at their values
        screenshot(h, "class-histogram-voila", fig)
        # the teacher clears the run; Bob runs it again: one result in run 2, live
        h.locator("button.moneynb-class-clear-run").click()
        _wait(h, "() => document.querySelector('.moneynb-class-count [data-posted]')"
                 ".dataset.run === '2'")  # fmt: skip
        page = pages["Bob"]
        pages["Bob"].reload(timeout=patience(240_000))
        voila_shows(pages["Bob"], ".moneynb-posted [data-run='2']", name="pool-bob-again")
        page = h
        _wait(h, "() => document.querySelector('.moneynb-class-count [data-posted]')"
                 ".dataset.posted === '1'")  # fmt: skip
        # the teacher ends the class and exports it
        page = t
        t.locator("button.moneynb-class-end").click()
        _wait(t, "() => !!document.querySelector(\".moneynb-class-header [data-state='ended']\")")
        files = {}
        for what, link in (("results", "moneynb-class-download-results"),
                           ("roster", "moneynb-class-download-roster"),
                           ("games", "moneynb-class-download-games")):  # fmt: skip
            t.locator(f"button.moneynb-class-export-{what}").click()
            t.locator(f"a.{link}").wait_for(timeout=patience(60_000))
            with t.expect_download(timeout=patience(60_000)) as dl:
                t.locator(f"a.{link}").click()
            files[what] = Path(dl.value.path()).read_bytes()
        import pandas as pd

        res = pd.read_csv(io.BytesIO(files["results"]))
        assert sorted(zip(res["name"], res["run"], strict=True)) == [
            ("Ann", 1), ("Bob", 1), ("Bob", 2)]  # fmt: skip
        assert res[res["current"]]["name"].tolist() == ["Bob"]
        roster = pd.read_csv(io.BytesIO(files["roster"]))
        assert roster["name"].tolist() == ["Ann", "Bob", "Cy"]
        assert roster["games"].tolist() == [1, 1, 0] and roster["tables"].tolist() == [0, 0, 1]
        z = zipfile.ZipFile(io.BytesIO(files["games"]))
        index = json.loads(z.read("games.json"))
        assert {g["id"] for g in index["games"]} == {g.id for g in games}
        for g in index["games"]:
            assert load_game(z.read(g["file"]).decode()).name == g["game"]
        screenshot(t, "class-view-ended", t.locator(".moneynb-classroom"))
    except BaseException:
        screenshot(page, "class-browser-failure")
        raise
    finally:
        browser.close()


def test_the_teachers_histogram_draws_in_jupyterlab(page, lab_server):
    from conftest import open_and_run, write_probe_notebook

    _base, root = lab_server
    write_probe_notebook(Path(root) / "notebooks" / "class_hist_probe.ipynb", """\
from moneynb import teach
from moneynb.core.chance import D6
from moneynb.store import open_store
st = open_store()
k = st.open_class("Lab check", "hub:lab-teacher")
for i, v in enumerate([3.0, 3.5, 4.5]):
    st.join_class(k.code, f"hub:s{i}", f"S{i}")
    st.post_class_result("dice-10", f"hub:s{i}", v, seed=i)
st.join_class(k.code, "hub:s9", "S9")
teach.class_results("dice-10", teach.mean_distribution(D6.distribution(), 10),
                    owner="hub:lab-teacher", class_id=k.id)
""")  # fmt: skip
    open_and_run(page, lab_server, "notebooks/class_hist_probe.ipynb")
    page.wait_for_function(
        "() => { const e = document.querySelector('.moneynb-class-count [data-posted]');"
        " return e && e.dataset.posted === '3' && e.dataset.roster === '4'; }",
        timeout=patience(60_000),
    )
    fig = page.locator(".moneynb-class-results .js-plotly-plot").first
    fig.wait_for(timeout=patience(60_000))
    page.wait_for_function(
        "() => document.querySelectorAll('.moneynb-class-results .barlayer path').length > 0",
        timeout=patience(60_000),
    )
    legend = fig.locator(".legend").text_content()
    assert "class mean 3.667" in legend and "expected value 3.5" in legend
    assert fig.evaluate(BAR_X) == pytest.approx(1.05)  # the bars at their values, not indices
    screenshot(page, "class-histogram-lab", fig)
