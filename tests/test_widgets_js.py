"""The dice, card and spinner widgets' page code, run in Node.js (tests/widget_js.py): what
a player reads on them (issue 30, cases 2 and 3)."""

from __future__ import annotations

import re

from widget_js import draw, find, state

from moneynb.ui.spinner import SpinnerWidget


def _angle(transform: str) -> float:
    m = re.search(r"rotate\((-?[\d.]+)deg\)", transform or "")
    return float(m.group(1)) if m else 0.0


def test_spinner_labels_stay_upright_after_a_spin():
    """Issue 30 case 2: the wheel turns, its numbers and CARD do not (6 and 9 stay apart)."""
    labels = ["1", "6", "9", "CARD", "3", "2"]
    s = SpinnerWidget([{"label": x, "color": "#ccc"} for x in labels])
    states = [state(s)]
    for i in (1, 3, 2):
        s.spin(i)
        states.append(state(s))
    tree = draw(s, states)
    (wheel,) = find(tree, "moneynb-spinner-wheel")
    turned = _angle(wheel["style"]["transform"])
    assert turned % 360 != 0  # the wheel did turn (so an unturned label would be tilted)
    drawn = find(wheel, "moneynb-spinner-label")
    assert [x["text"] for x in drawn] == labels
    for x in drawn:  # each label's own turn undoes the wheel's: upright on the page
        assert (turned + _angle(x["style"].get("transform"))) % 360 == 0, x


def test_card_and_spinner_say_whose_they_are_in_the_page():
    """Issue 30 case 3: the card shown and the spinner's result name their player."""
    from moneynb.ui.cards import CardWidget

    c = CardWidget()
    states = [state(c)]
    c.show("Lucky 7", "Take $7 from the pot", kind="Task card", owner="Bob")
    states.append(state(c))
    (card,) = find(draw(c, states), "moneynb-card")
    assert card["data"]["owner"] == "Bob"
    assert [o["text"] for o in find(card, "moneynb-card-owner")] == ["Drawn for Bob"]

    s = SpinnerWidget(["1", "6", "9"])
    states = [state(s)]
    s.spin(1, owner="Cy")
    states.append(state(s))
    (box,) = find(draw(s, states), "moneynb-spinner")
    assert box["data"]["owner"] == "Cy" and box["data"]["result"] == "6"
    assert find(box, "moneynb-spinner-result")[0]["text"] == "Cy spun 6"
