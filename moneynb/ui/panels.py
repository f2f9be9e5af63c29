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

import contextvars
import html
import re
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from .a11y import ERROR_STYLE


def _slug(value: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-") or "x"


#: True while a click sent by the page (a person's mouse or key) is being handled; a
#: ``button.click()`` in the kernel (tests, scripts) leaves it False. See :func:`from_page`.
_PAGE_CLICK = contextvars.ContextVar("moneynb_page_click", default=False)


def from_page() -> bool:
    """True inside the handler of a click the page sent (a person's), False for a click made
    in the kernel (``button.click()``): the view's hot-seat hand-over guard (issue 38, case 1)
    applies to people's clicks only."""
    return _PAGE_CLICK.get()


class PageButton(widgets.Button):
    """An ipywidgets ``Button`` whose handlers can tell a click from the page
    (:func:`from_page`) from one made in the kernel."""

    def _handle_button_msg(self, _, content, buffers):
        token = _PAGE_CLICK.set(True)
        try:
            super()._handle_button_msg(_, content, buffers)
        finally:
            _PAGE_CLICK.reset(token)


def button(
    description: str,
    classes: tuple[str, ...],
    on_click: Callable[[], None],
    tooltip: str = "",
    style: str = "",
) -> widgets.Button:
    """A button (:class:`PageButton`) with the given CSS classes whose click calls
    ``on_click()``."""
    b = PageButton(
        description=description,
        tooltip=tooltip or description,
        button_style=style,
        layout=widgets.Layout(width="auto"),
        _dom_classes=tuple(classes),  # in the first message, not a later one
    )
    b.on_click(lambda _b: on_click())
    return b


def set_layout(widget: widgets.DOMWidget, **traits) -> widgets.DOMWidget:
    """Set ``traits`` (CSS traits of :class:`ipywidgets.Layout`: ``width="160px"``, ...) on
    ``widget``'s own layout and return ``widget``.

    A view changes its widgets' layouts this way, never by assigning a new ``Layout``: the
    replaced one stays open in the kernel, out of every view's reach, and a JupyterLab reload
    sends and rebuilds it (issue 41: Easy Money kept 51 such layouts after 25 moves).
    Raises ``traitlets.TraitError`` for a value the trait refuses, ``AttributeError`` for a
    name that is neither a trait of ``Layout`` nor one of its shorthands (``border``)."""
    layout = widget.layout
    for name, value in traits.items():
        if not (layout.has_trait(name) or isinstance(getattr(type(layout), name, None), property)):
            raise AttributeError(f"ipywidgets.Layout has no trait {name!r}")
        setattr(layout, name, value)
    return widget


def option_buttons(decision, submit, options=None, css: str = "moneynb-option") -> list:
    """One button per option of ``decision`` (text: ``decision.label(option)``)."""
    out = []
    for o in decision.options if options is None else options:
        text = decision.label(o)
        if isinstance(o, str) and text == o:  # an engine word with no label: "pass" -> "Pass"
            text = o.replace("_", " ").capitalize()
        out.append(button(text, (css, f"{css}-{_slug(o)}"), lambda o=o: submit(o)))
    return out


#: the amount box's button, said as the decision's verb (issue 38, case 8: a "Submit" beside
#: an auction's "Bid $362" read as two different things); other decisions: "Submit"
AMOUNT_VERBS = {"bid": "Bid this amount", "bet": "Bet this amount", "borrow": "Borrow this amount",
                "offer_price": "Ask this price"}  # fmt: skip


def roll_panel(decision, game, submit) -> list:
    """A big Roll button (one per option; normally the single option ``"roll"``)."""
    out = []
    for o in decision.options:
        text = decision.labels.get(o, "Roll" if o == "roll" else str(o).capitalize())
        b = button(
            text,
            ("moneynb-roll", f"moneynb-option-{_slug(o)}"),
            lambda o=o: submit(o),
            style="primary",
        )
        set_layout(b, width="160px", height="48px")
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
            )
        )
    return out


def _dollars(amount: int) -> str:
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


def amount_rule(decision) -> str:
    """The engine's own sentence for what an amount decision allows ("an amount from $0 to
    $200,000 in steps of $10,000 or one of 'pass'"), capitalised for a message."""
    text = decision.describe()
    return text[:1].upper() + text[1:]


#: how a person may type an amount (every refusal message ends with it)
AMOUNT_HELP = "type whole dollars as digits, e.g. 10000, 10,000 or 10 000"
_GROUPED = re.compile(r"\d{1,3}(?:(?P<sep>[, _\u00a0\u202f])\d{3})(?:(?P=sep)\d{3})*")


def read_dollars(text: str) -> tuple[int | None, str]:
    """Whole dollars from what a person typed, or ``(None, why)``. The one place amounts
    typed into moneynb are read (:func:`parse_amount`).

    Accepted: digits (``"10000"``), optionally grouped in threes by ONE separator used
    throughout (``"10,000"``, ``"10 000"``, ``"1_000_000"``), and an optional ``$`` and sign.
    Refused, never reinterpreted: a power of ten (``"1e5"``: typed by accident it was read as
    $100,000, and the message asks for digits), a decimal point or comma that
    is not followed by exactly three digits (``"2,50"``, ``"1,5"``, ``"12.5"``), and a point
    used as a thousands separator or mixed separators (``"10.000"``, ``"1.000,00"``), which
    read as ten in one country and ten thousand in another. Reconstruction (issue 26).
    """
    typed = str(text).strip()
    if not typed:
        return None, "No amount typed"
    body = typed
    sign = ""
    if body[:1] in "+-":
        sign, body = body[:1], body[1:].strip()
    body = body.removeprefix("$").strip()
    if body[:1] in "+-" and not sign:
        sign, body = body[:1], body[1:].strip()
    if re.fullmatch(r"\d+", body):
        return int(sign + body), ""
    if _GROUPED.fullmatch(body):
        return int(sign + re.sub(r"\D", "", body)), ""
    if re.fullmatch(r"[\d.,\s_\u00a0\u202f]+", body) and re.search(r"\d", body):
        if "." in body and "," in body or re.search(r"\.\d{3}(?!\d)", body):
            why = (
                f"{typed!r} is ambiguous: a point or comma between digits means a thousands "
                "separator in some countries and a decimal point in others"
            )
        elif re.search(r"[.,]", body):
            why = f"{typed!r} is not a whole number of dollars (amounts have no cents)"
        else:
            why = f"{typed!r} mixes separators or groups digits other than in threes"
        return None, f"{why}: {AMOUNT_HELP}"
    return None, f"{typed!r} is not a whole number of dollars: {AMOUNT_HELP}"


def parse_amount(text: str, decision) -> tuple[int | None, str]:
    """Read a typed amount for ``decision`` (an ``"amount"`` decision with ``low``/``high``).

    Returns ``(dollars, "")`` for an amount the decision allows, else ``(None, message)``: the
    message says what was wrong and names the allowed range and step from the decision itself
    (never a clamped or rounded amount: "12345" is refused where the step is $10,000, not made
    10,000). The text is read by :func:`read_dollars`: ``"$1,200"``, ``" 1200 "`` and
    ``"1 200"`` read as 1200; ``"1e3"``, ``"10.000"``, ``"2,50"`` and ``"1.000,00"`` are
    refused with a message saying how to type an amount.
    """
    rule = amount_rule(decision)
    value, why = read_dollars(text)
    if value is None:
        return None, f"{why}. {rule}."
    if decision.allows(value):
        return value, ""
    if decision.low is not None and decision.high is not None:
        if not decision.low <= value <= decision.high:
            return None, f"{_dollars(value)} is out of range. {rule}."
        return None, f"${value:,} is not a multiple of the step. {rule}."
    return None, f"{_dollars(value)} is not allowed. {rule}."


def amount_panel(decision, game, submit) -> list:
    """A slider and a box over ``low..high`` (``step`` apart) with Submit, plus a button for
    each discrete option such as ``"pass"``.

    The box starts at ``decision.suggested`` (the amount the rules recommend) or ``low``.
    What is typed is checked by :func:`parse_amount` on Submit: a non-number, an amount out of
    range or off the step is refused with a message naming the allowed range and step
    (class ``moneynb-amount-error``), never changed into another amount."""
    out = []
    if decision.low is not None and decision.high is not None and decision.low <= decision.high:
        low, high, step = decision.low, decision.high, max(1, decision.step)
        start = decision.suggested if decision.allows(decision.suggested) else low
        slider = widgets.IntSlider(
            value=start,
            min=low,
            max=high,
            step=step,
            readout=False,
            layout=widgets.Layout(width="240px"),
        )
        slider.add_class("moneynb-amount-slider")
        text = widgets.Text(
            value=str(start), description="Amount", style={"description_width": "initial"},
            layout=widgets.Layout(width="170px"),
        )  # fmt: skip
        text.add_class("moneynb-amount-text")
        message = widgets.HTML()
        message.add_class("moneynb-amount-error")

        def slid(change):
            text.value = str(change["new"])

        def typed(change):
            value, _why = parse_amount(change["new"], decision)
            message.value = ""
            if value is not None:
                slider.unobserve(slid, "value")
                slider.value = value
                slider.observe(slid, "value")

        slider.observe(slid, "value")
        text.observe(typed, "value")

        def send():
            value, why = parse_amount(text.value, decision)
            if value is None:
                message.value = (
                    f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(why)}</span>"
                )
                return
            message.value = ""
            submit(value)

        verb = AMOUNT_VERBS.get(decision.tag, "Submit")
        ok = button(verb, ("moneynb-submit",), send, style="primary")
        # an HTML widget, not a Label: a Label typesets "$...$" as mathematics
        steps = f", in steps of ${step:,}" if step != 1 else ""
        rng = widgets.HTML(f"${low:,} to ${high:,}{steps}")
        rng.add_class("moneynb-amount-range")
        out += [rng, slider, text, ok]
        out += option_buttons(decision, submit)
        out.append(message)
        return out
    out += option_buttons(decision, submit)
    return out


def space_panel(decision, game, submit) -> list:
    """A dropdown of the legal spaces with Submit (the board can also be clicked)."""
    opts = [(decision.label(o), o) for o in decision.options]
    dd = widgets.Dropdown(
        options=opts, value=opts[0][1], description="Space",
        style={"description_width": "initial"}, layout=widgets.Layout(width="auto"),
    )  # fmt: skip
    dd.add_class("moneynb-space-select")
    ok = button("Go", ("moneynb-submit",), lambda: submit(dd.value), style="primary")
    chosen = chosen_words(dd, ": Go, or click a highlighted space on the board")
    chosen.add_class("moneynb-space-chosen")
    return [dd, ok, chosen]


def chosen_words(dd: widgets.Dropdown, after: str = "", narrow_only: bool = False) -> widgets.HTML:
    """The option chosen in ``dd`` in full words, wrapping, for under the list (class
    ``moneynb-choice-words``; ``after``: plain text that follows it), kept in step with the
    list; the list's tooltip says the same. A closed drop-down cuts a long option to its
    width: in the 180 px column beside the board, "Mortgage Summit Avenue (+$170)" read
    "Mortgage Summit A" (issue 38). ``narrow_only``: shown only in that narrow column (class
    ``moneynb-narrow-only``, see ``moneynb.ui.a11y``'s CSS): elsewhere the list is wide
    enough, and the line would cost the board its height."""
    chosen = widgets.HTML()
    chosen.add_class("moneynb-choice-words")
    if narrow_only:
        chosen.add_class("moneynb-narrow-only")

    def show(_change=None):
        label = "" if dd.label is None else str(dd.label)
        chosen.value = f"<b>{html.escape(label)}</b>{html.escape(after)}"
        dd.tooltip = label or None

    dd.observe(show, "value")
    show()
    return chosen


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
