"""Boards in plain words (issue 38, case 8): every label drawn on a board, over seeded games of
greedy bots, is a word or a short form listed in ``docs/board-words.md``, never a space's name
cut short ("Colle."), a raw value (a tuple) or grid coordinates; never below 11 px at the
board's own size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import moneynb
from moneynb.bots import make_bot
from moneynb.ui.boards import board_for

DOC = Path(__file__).resolve().parents[1] / "docs" / "board-words.md"
GAMES = ("moolah", "easy_money", "money_card", "money_moves", "money_run")
RAW = re.compile(r"\(\s*'|\(\d+, ?\d+\)|\[\d+, ?\d+\]")
#: what looks like a short form: a word cut with ".", capitals with digits, one capital letter
SHORTISH = re.compile(r"^(?:[A-Za-z]{1,6}\.|[A-Z]\d+|[A-Z]|[A-Z]{2,5})$")


def listed() -> set[str]:
    return set(re.findall(r"^\| `([^`]+)` \|", DOC.read_text(), re.M))


def labels(name: str, seed: int = 5, moves: int = 30):
    """``(text, px)`` of every label the board draws (trace texts and annotations) while a
    seeded game of greedy bots is played, and the board's space names."""
    g = moneynb.new_game(name, players=["Ann", "Bob"], seed=seed)
    b = board_for(g)
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    out = set()
    for _ in range(moves):
        if g.over:
            break
        b.update(g, g.apply(bots[g.decision.player].choose(g)))
        for t in b.figure.data:
            texts = t.text if isinstance(t.text, (list, tuple)) else [t.text]
            size = t.textfont.size if t.textfont is not None else None
            sizes = size if isinstance(size, (list, tuple)) else [size] * len(texts)
            for x, px in zip(texts, sizes, strict=False):
                if x:
                    out.add((str(x), px))
        for a in b.figure.layout.annotations or ():
            if a.text:
                out.add((a.text, a.font.size if a.font is not None else None))
    return out


def _names(name: str) -> list[str]:
    g = moneynb.new_game(name, players=["Ann", "Bob"], seed=1)
    board = getattr(g, "board", None)
    if isinstance(board, list):
        return [sp.get("name", "") for sp in board]
    return []


@pytest.mark.parametrize("name", GAMES)
def test_board_labels_are_words(name):
    ok, bad = listed(), []
    title = moneynb.new_game(name, players=["Ann", "Bob"], seed=1).title.lower()
    for text, px in labels(name):
        plain = re.sub(r"<[^>]+>", " ", text)
        if RAW.search(plain):
            bad.append(f"raw value: {text!r}")
        if px is not None and px < 11:
            bad.append(f"{text!r} at {px} px")
        for word in plain.split():
            word = word.strip(",:;()")
            if word in ok or not SHORTISH.match(word) or re.fullmatch(r"[+−-]?\$[\d,]+k?", word):
                continue
            # a space's name cut short ("Colle.") is no longer drawn (issue 38): a word fits
            # whole or is left to the hover
            if word.lower() in title:
                continue  # the game's own name ("EASY MONEY")
            if word in ("A", "B") or re.fullmatch(r"[A-Z]\d", word):
                continue  # a token: its player's initial (Ann, Bob; G1 listed)
            bad.append(f"unexplained short form {word!r} in {text!r}")
    assert not bad, sorted(set(bad))[:20]


def test_the_docs_list_explains_each_short_form():
    text = DOC.read_text()
    for short in listed():
        row = re.search(rf"^\| `{re.escape(short)}` \| ([^|]+) \|", text, re.M)
        assert row and len(row.group(1).split()) >= 2, short
