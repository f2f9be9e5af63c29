"""Take the screenshots of docs/classroom.md's 45-minute lesson (issue 36).

Starts a Voila server on a copy of ``notebooks/`` with a teacher passcode (tests/browser/
servers.py) and drives headless Chromium: the teacher opens a class in the app's teacher page
(``class-open.png``); a student joins it with the code and a name (``class-join.png``); three
students' solo games, a table and pooled results are added through the store (what their
browsers would store); the teacher's view shows the roster and the table live
(``class-view.png``); the teacher's notebook shows the class histogram
(``class-histogram.png``). Images go to ``docs/images/``.

Usage::

    python scripts/class_screenshots.py            # needs chromium and the [app] extra
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "browser"))
OUT = REPO / "docs" / "images"
PASSCODE = "owl42"
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


def main() -> None:
    os.environ["MONEYNB_TEACHER_PASSCODE"] = PASSCODE
    from playwright.sync_api import sync_playwright
    from servers import jupyter_server

    import moneynb
    from moneynb.bots import make_bot
    from moneynb.store import open_store
    from moneynb.tables import host_table, join_table

    OUT.mkdir(parents=True, exist_ok=True)
    with jupyter_server("voila", timeout=120) as (base, root):
        nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": POOL, "outputs": [],
                         "execution_count": None}],
              "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                          "language": "python"}},
              "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
        (Path(root) / "notebooks" / "pool.ipynb").write_text(json.dumps(nb))
        store = open_store(Path(root).parent / "store" / "games.sqlite3")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
            t = browser.new_context(viewport={"width": 1300, "height": 2400}).new_page()
            t.set_default_timeout(300_000)
            t.goto(f"{base}/voila/render/start_here.ipynb", timeout=300_000)
            t.locator(".moneynb-launcher.moneynb-owner-known").wait_for()
            t.locator(".moneynb-launch-teacher-code input").fill(PASSCODE)
            t.locator("button.moneynb-launch-teacher").click()
            t.locator(".moneynb-class-name input").fill("Year 10 B, 3 Dec")
            t.locator("button.moneynb-class-open").click()
            header = t.locator(".moneynb-class-header [data-code]")
            header.wait_for()
            code = header.get_attribute("data-code")
            t.locator(".moneynb-classroom").screenshot(path=str(OUT / "class-open.png"))
            # a student joins in their own browser
            s = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
            s.set_default_timeout(300_000)
            s.goto(f"{base}/voila/render/start_here.ipynb", timeout=300_000)
            s.locator(".moneynb-launcher.moneynb-owner-known").wait_for()
            s.locator(".moneynb-launch-class-code input").fill(code)
            s.locator(".moneynb-launch-class-name input").fill("Ann")
            s.locator("button.moneynb-launch-class-join").click()
            s.locator(".moneynb-launch-class [data-class]").wait_for()
            row = s.locator(".moneynb-launch-class-code").locator("xpath=..")  # the join row
            row.screenshot(path=str(OUT / "class-join.png"))
            # more students, their games, a table and their results (as their browsers would)
            for i, name in enumerate(["Bob", "Cy", "Dee", "Eli"]):
                owner = f"hub:{name.lower()}"
                store.join_class(code, owner, name)
                g = moneynb.new_game("money_moves", players=["You", "Greedy bot 1"], seed=i)
                bot = make_bot("greedy", seed=i)
                for _ in range(8 + 3 * i):
                    if g.over:
                        break
                    g.apply(bot.choose(g))
                store.create(g.config(), seats=["human", "bot:greedy"], owner=owner,
                             origin="launcher:money_moves", actions=g.actions,
                             status={"to_move": "" if g.over else "You", "over": g.over})  # fmt: skip
                import numpy as np

                seed = 1000 + i
                mean = float(np.random.default_rng(seed).integers(1, 7, size=10).mean())
                store.post_class_result("dice-10", owner, mean, seed=seed)
            h = host_table("moolah", ["Bob", "Cy", "bot:greedy"], owner="hub:bob", store=store,
                           seed=5)  # fmt: skip
            join_table(h.code, "Cy", owner="hub:cy", store=store)
            g = moneynb.load_game(store.read(h.game_id))
            bot = make_bot("greedy", seed=2)
            for _ in range(30):
                if g.over:
                    break
                g.apply(bot.choose(g))
            store.extend(h.game_id, 0, g.actions,
                         status={"to_move": g.players[g.decision.player]})  # fmt: skip
            t.locator(".moneynb-classroom-row").nth(4).wait_for()
            label = t.locator(".moneynb-classroom-choice option", has_text=h.code).inner_text()
            t.locator(".moneynb-classroom-choice select").select_option(label=label)
            t.locator("button.moneynb-classroom-open").click()
            t.locator(".moneynb-live .js-plotly-plot").first.wait_for()
            t.wait_for_timeout(1500)  # the board's drawing settles (a picture, not a test)
            t.locator(".moneynb-classroom").screenshot(path=str(OUT / "class-view.png"))
            # the teacher's notebook: the class histogram
            hp = t.context.new_page()
            hp.set_default_timeout(300_000)
            hp.goto(f"{base}/voila/render/pool.ipynb", timeout=300_000)
            hp.locator(".moneynb-class-count [data-posted='4']").wait_for()
            hp.locator(".moneynb-class-results .barlayer path").first.wait_for(state="attached")
            hp.wait_for_timeout(1000)
            hp.locator(".moneynb-class-results").screenshot(path=str(OUT / "class-histogram.png"))
            browser.close()
    for name in ("class-open", "class-join", "class-view", "class-histogram"):
        print(OUT / f"{name}.png")


if __name__ == "__main__":
    main()
