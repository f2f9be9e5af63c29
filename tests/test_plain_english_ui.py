"""Plain English and accessibility of the game views, in the kernel (issue 18 section 5, issue 20).

The browser side (axe-core, keyboard, focus, glyphs, board geometry) is
``tests/browser/test_a11y_browser.py``.
"""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest

import moneynb
from moneynb.ui import play
from moneynb.ui.boards.base import token_letters

GAMES = ("money_moves", "moolah", "easy_money", "money_card", "money_run")
#: a person called You read in the third person, as the engines write every player
THIRD_PERSON = re.compile(r"\bYou's\b|\bYou (has|holds|loses|owes|offers|is|pays|gets|moves)\b")


def _texts(w) -> list[str]:
    """Every text a widget tree shows: HTML values, button and label descriptions, card and
    dice texts."""
    out = []
    for attr in ("value", "description", "title", "text", "caption"):
        v = getattr(w, attr, None)
        if isinstance(v, str):
            out.append(html.unescape(re.sub(r"<[^>]+>", " ", v)))
    if hasattr(w, "dice"):
        out += [str(d.get("title", "")) for d in w.dice]
    for c in getattr(w, "children", ()) or ():
        out += _texts(c)
    return out


def _play_as_you(game: str, seed: int, steps: int):
    """A view with a person called You and greedy bots; You's decisions are answered by a
    random bot through the view (as clicks would be). Yields the view after each of them."""
    view = play(game, players=["You", "bot:greedy", "bot:greedy"], seed=seed, autosave=False)
    me = moneynb.make_bot("random", seed=seed)
    for _ in range(steps):
        if view.game.over:
            break
        assert view.submit(me.choose(view.game))
        yield view


@pytest.mark.parametrize("game", GAMES)
def test_you_reads_in_the_second_person_everywhere(game):
    """Prompts, header, money table, panels, cards, dice captions and log: never "You has",
    "You's bank account", "You holds", "You loses"."""
    seen = 0
    for seed in (1, 2):
        for view in _play_as_you(game, seed, 60):
            texts = _texts(view)
            seen += len(texts)
            bad = [t for t in texts if THIRD_PERSON.search(t)]
            assert not bad, f"{game} seed {seed}, action {len(view.game.actions)}: {bad[:3]}"
    assert seen > 100


def test_an_offer_to_another_person_names_both():
    """Hot seat: a prompt for Ann about an offer from You says who offers to whom."""
    view = play("easy_money", players=["You", "Ann"], seed=1, autosave=False)
    text = "You offers you Park Row for $562"
    assert view.plain(text, decider=1) == "You offer Ann Park Row for $562"
    assert view.plain("You has $0", decider=0) == "You have $0"
    # without a person called You nothing changes
    other = play("easy_money", players=["Bea", "Ann"], seed=1, autosave=False)
    assert other.plain(text, decider=1) == text


def test_moolah_jump_panel_in_play_has_distinct_buttons():
    for seed in range(1, 40):
        view = play("moolah", players=["You", "bot:greedy"], seed=seed, autosave=False)
        me = moneynb.make_bot("greedy", seed=seed)
        for _ in range(150):
            g = view.game
            if g.over:
                break
            d = g.decision
            if d.tag == "moolah":
                names = [b.description for b in view.find("moneynb-target")]
                assert len(names) == len(set(names)) == len(d.options)
                assert not any("this Moolah" in n for n in names)
                return
            view.submit(me.choose(g))
    pytest.fail("no Moolah jump in 40 seeded games")


def test_black_jack_raise_has_one_stay_button():
    from moneynb.ui.boards.moolah import Board

    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1)
    while g.decision.tag == "first_withdrawal":
        g.apply(50_000)
    g.pos[g.current] = "s08"

    class Two(random.Random):
        def randint(self, a, b):
            return 1

    g.rng = Two(0)
    g.apply("roll")
    g.apply(10_000)
    assert g.decision.tag == "casino_raise"
    panel = Board(g).custom_panel(g.decision, lambda a: None)
    buttons = [t for t in _texts(panel) if t.startswith(("Stay", "Raise"))]
    assert len(buttons) == len(set(buttons)), buttons
    assert sum(t.startswith("Stay") for t in buttons) == 1


def test_wall_street_buttons_and_coach_say_which_cards():
    from moneynb.coach import coach
    from moneynb.ui.boards.moolah import Board

    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1)
    while g.decision.tag == "first_withdrawal":
        g.apply(50_000)
    g._ask_wall_street()
    panel = Board(g).custom_panel(g.decision, lambda a: None)
    stock_buttons = [t for t in _texts(panel) if "%" in t and "mean" in t]
    assert stock_buttons and all("full deck" in t for t in stock_buttons)
    assert all("not yet seen" in line for line in coach(g).lines if "mean" in line)


def test_money_run_ends_with_its_own_score_and_no_money_table():
    view = play("money_run", players=["You", "bot:greedy"], seed=3, autosave=False)
    assert view.money_html.layout.display == "none"
    me = moneynb.make_bot("greedy", seed=3)
    while not view.game.over:
        view.submit(me.choose(view.game))
    text = view.prompt.value
    assert "Game over" in text and "$" not in text
    size = view.game.size - 1
    for p, v in view.game.scores().items():
        assert f"{p}: {v} of {size} rows" in html.unescape(text)


def test_two_bots_never_share_a_token_letter():
    assert token_letters(["You", "Greedy bot 1", "Greedy bot 2"]) == ["Y", "G1", "G2"]
    assert len(set(token_letters(["Ann", "Al", "Bob"]))) == 3
    for game in ("moolah", "easy_money", "money_card", "money_run"):
        view = play(game, players=["You", "bot:greedy", "bot:greedy"], seed=1, autosave=False)
        texts = [
            list(t.text)
            for t in view.board.figure.data
            if t.name in ("tokens", "planes", "pawns") and t.text is not None
        ]
        assert texts, game
        for letters in texts:
            assert len(set(letters)) == len(letters), (game, letters)


@pytest.mark.parametrize("game", GAMES)
def test_live_region_and_board_text_follow_the_game(game):
    """After each click the live region holds the newest log lines and whose decision it
    is; the board as text lists every player's token and the board's highlighted targets."""
    for view in _play_as_you(game, 4, 25):
        g = view.game
        msg = view.a11y.message
        assert msg
        if g.over:
            assert "Game over" in msg
        elif view.human_turn:
            assert msg.rstrip().split("Your decision: ")[-1] == view.plain(g.decision.prompt, 0)
        else:
            assert f"{g.players[g.decision.player]} (bot) to decide" in msg
        table = html.unescape(view.board_text.value)
        for p in g.players:
            assert p in table
        # the same targets the board highlights, when it highlights any
        targets = [t[0] for t in view.board.describe(g)["Choices on the board"]]
        shown = getattr(view.board, "_target_labels", None)
        if shown:
            assert targets == shown


def test_focus_goes_to_a_persons_new_decision_only():
    view = play("money_moves", players=["You", "bot:greedy"], seed=2, autosave=False)
    first = view.a11y.focus_seq
    assert first >= 1 and view.a11y.focus_key == str(len(view.game.actions))
    view.submit("roll")
    if view.human_turn:
        assert view.a11y.focus_seq == first + 1
    bots = play("money_moves", players=["bot:greedy", "bot:greedy"], seed=2, autosave=False)
    assert bots.a11y.focus_seq == 0  # nobody at the screen: the focus stays where it is


def test_controls_have_names():
    """The seat kind lists, amount boxes and space lists carry a visible label."""
    from moneynb.ui.launcher import launcher

    form = launcher("money_moves")
    assert all(kind.description for _name, kind in form.rows)
    view = play("moolah", players=["You", "bot:greedy"], seed=1, autosave=False)
    boxes = view.find("moneynb-amount-text")
    assert boxes and all(b.description for b in boxes)


def test_start_here_has_no_notebook_links_or_cell_instructions_in_its_text():
    nb = json.loads(Path("notebooks/start_here.ipynb").read_text())
    md = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "next cell" not in md
    assert not re.search(r"\]\((?!https?://)[^)]*\.ipynb\)", md)


def test_money_moves_seat_labels_stay_readable_to_the_end():
    """Issue 18 section 6: seed 7, always the first option: at action 152 the seat of the
    player who is out turned grey with white text on it. Every seat's text now has at least
    4.5:1 contrast on its seat colour, at every step."""
    from moneynb.ui.boards.base import _luminance

    def contrast(a: str, b: str) -> float:
        la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
        return (la + 0.05) / (lb + 0.05)

    outs = 0
    for seed in range(7, 30):  # seed 7 first (the game), then until a seat is out
        view = play("money_moves", players=["You", "bot:greedy", "bot:greedy"], seed=seed,
                    autosave=False)  # fmt: skip
        while True:
            seats = view.board.figure.data[0]
            for ink, color in zip(seats.textfont.color, seats.marker.color, strict=True):
                assert contrast(ink, color) >= 4.5, (seed, len(view.game.actions), ink, color)
            if view.game.over:
                break
            view.submit(view.game.decision.options[0])
        outs += any(view.game.out)
        if outs:
            break
    assert outs, "no game with a seat out: the grey seat was not checked"
