"""Generic decision panels: one widget per :data:`~moneynb.core.decision.KINDS` kind.

``make_panel(decision, game, submit)`` returns an ipywidgets box for the pending decision.
``submit(action)`` is the view's function that applies the action; it shows any
:class:`~moneynb.core.IllegalAction` in the panel's error line itself, so a button handler here
never raises into the notebook.

Stable CSS classes for tests and styling:

* every panel: ``moneynb-panel`` and ``moneynb-panel-<kind>``
* roll button: ``moneynb-roll``; option buttons: ``moneynb-option`` (their tooltip, the
  ``title`` attribute in the page, is the option's own value); player buttons:
  ``moneynb-player``; amount: ``moneynb-amount-slider``, ``moneynb-amount-text`` and
  ``moneynb-submit``; space: ``moneynb-space-select`` and ``moneynb-submit``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets


def _slug(value: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-") or "x"


def button(
    description: str,
    classes: tuple[str, ...],
    on_click: Callable[[], None],
    tooltip: str = "",
    style: str = "",
) -> widgets.Button:
    """A button with the given CSS classes whose click calls ``on_click()``."""
    b = widgets.Button(
        description=description,
        tooltip=tooltip or description,
        button_style=style,
        layout=widgets.Layout(width="auto"),
        _dom_classes=tuple(classes),  # in the first message, not a later one
    )
    b.on_click(lambda _b: on_click())
    return b


def option_buttons(decision, submit, options=None, css: str = "moneynb-option") -> list:
    """One button per option of ``decision`` (text: ``decision.label(option)``)."""
    out = []
    for o in decision.options if options is None else options:
        out.append(
            button(
                decision.label(o), (css, f"{css}-{_slug(o)}"), lambda o=o: submit(o), tooltip=str(o)
            )
        )
    return out


def roll_panel(decision, game, submit) -> list:
    """A big Roll button (one per option; normally the single option ``"roll"``)."""
    out = []
    for o in decision.options:
        text = decision.labels.get(o, "Roll" if o == "roll" else str(o).capitalize())
        b = button(
            text,
            ("moneynb-roll", f"moneynb-option-{_slug(o)}"),
            lambda o=o: submit(o),
            tooltip=str(o),
            style="primary",
        )
        b.layout = widgets.Layout(width="160px", height="48px")
        b.style.font_weight = "bold"
        out.append(b)
    return out


def choose_panel(decision, game, submit) -> list:
    """One button per option."""
    return option_buttons(decision, submit)


def player_panel(decision, game, submit) -> list:
    """One button per seat that may be chosen, showing the player's name."""
    out = []
    for seat in decision.options:
        if isinstance(seat, int) and 0 <= seat < len(game.players):
            text = decision.labels.get(seat, game.players[seat])
        else:
            text = decision.label(seat)
        out.append(
            button(
                text,
                ("moneynb-player", f"moneynb-player-{_slug(text)}"),
                lambda s=seat: submit(s),
                tooltip=str(seat),
            )
        )
    return out


def amount_panel(decision, game, submit) -> list:
    """A slider and a number box over ``low..high`` (``step`` apart) with Submit, plus a button
    for each discrete option such as ``"pass"``."""
    out = []
    if decision.low is not None and decision.high is not None and decision.low <= decision.high:
        low, high, step = decision.low, decision.high, max(1, decision.step)
        slider = widgets.IntSlider(
            value=low,
            min=low,
            max=high,
            step=step,
            readout=False,
            layout=widgets.Layout(width="240px"),
        )
        slider.add_class("moneynb-amount-slider")
        text = widgets.BoundedIntText(
            value=low, min=low, max=high, step=step, description="Amount",
            style={"description_width": "initial"}, layout=widgets.Layout(width="170px"),
        )  # fmt: skip
        text.add_class("moneynb-amount-text")
        widgets.jslink((slider, "value"), (text, "value"))
        # keep the Python side in step too (jslink only links the browser copies)
        slider.observe(lambda ch: setattr(text, "value", ch["new"]), "value")
        text.observe(
            lambda ch: setattr(slider, "value", ch["new"]) if low <= ch["new"] <= high else None,
            "value",
        )
        ok = button("Submit", ("moneynb-submit",), lambda: submit(int(text.value)), style="primary")
        # an HTML widget, not a Label: a Label typesets "$...$" as mathematics
        rng = widgets.HTML(f"${low:,} to ${high:,}")
        rng.add_class("moneynb-amount-range")
        out += [rng, slider, text, ok]
    out += option_buttons(decision, submit)
    return out


def space_panel(decision, game, submit) -> list:
    """A dropdown of the legal spaces with Submit (the board can also be clicked)."""
    opts = [(decision.label(o), o) for o in decision.options]
    dd = widgets.Dropdown(
        options=opts, value=opts[0][1], description="Space",
        style={"description_width": "initial"}, layout=widgets.Layout(width="300px"),
    )  # fmt: skip
    dd.add_class("moneynb-space-select")
    ok = button("Go", ("moneynb-submit",), lambda: submit(dd.value), style="primary")
    return [dd, ok, widgets.Label("or click a highlighted space on the board")]


PANELS = {
    "roll": roll_panel,
    "choose": choose_panel,
    "amount": amount_panel,
    "player": player_panel,
    "space": space_panel,
}


def make_panel(decision, game, submit: Callable[[Any], None]) -> widgets.Box:
    """The generic panel for ``decision`` (a ``HBox`` of controls, class ``moneynb-panel``).

    Raises:
        ValueError: a decision kind with no panel.
    """
    try:
        build = PANELS[decision.kind]
    except KeyError:
        raise ValueError(f"no panel for decision kind {decision.kind!r}") from None
    box = widgets.HBox(
        build(decision, game, submit),
        layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
    )
    box.add_class("moneynb-panel")
    box.add_class(f"moneynb-panel-{decision.kind}")
    return box


def set_disabled(widget, disabled: bool) -> None:
    """Disable (or enable) every control inside ``widget``."""
    if hasattr(widget, "disabled"):
        widget.disabled = disabled
    for child in getattr(widget, "children", ()):
        set_disabled(child, disabled)
