"""The moneynb tracks as :class:`~moneynb.analysis.markov.TrackModel` s, built from each game's
own data files (so a house-rule board or deck changes the analysis too).

* :func:`easy_money_track`: Easy Money's 48-space loop; two dice; doubles draw a Give or Take
  card BEFORE moving, and a card that moves the man replaces the dice move (rulebook,
  "Doubles"). No roll again on doubles (the rulebook gives none).
* :func:`moolah_track`: Moolah's board with its Option Points resolved by a policy; the Bank
  cannot be passed; doubles roll again (no limit; also when stopped at the Bank); go-to
  spaces; Bufe's Bar & Grill = miss one turn then Exit; The Big House Maximum Security = miss
  one turn then Minimum Security, which is miss one turn then Parole (rulebook); a token sent
  there by a doubles roll serves one missed turn at once (moolah/rules.py, "Rolling Doubles").

Simplifications (the chain follows one token, so choices become a fixed policy and other
players are not modelled): Moolah spaces keep the token where it is; Take A Pal is not taken;
Advantage cards and Prison Break (which frees other tokens) are not modelled; decks are
drawn with replacement; Easy Money's first move (counting Start as one) does not matter in the
long run and is ignored.
"""

from __future__ import annotations

from .markov import TrackModel

__all__ = ["easy_money_track", "moolah_track"]


def easy_money_track(data_file: str | None = None, cards_file: str | None = None) -> TrackModel:
    """Easy Money's track from ``board.toml`` and ``cards.toml`` (or house-rule files).

    Give or Take cards: ``move_to`` sends the man to the named space, ``back`` moves him back
    ``amount`` spaces; every other card (money, the Special Exemption) leaves the dice move.

    Raises:
        ValueError: the data files fail the game's own checks.
    """
    from ..games.easy_money.rules import load_board, load_cards

    board = load_board(data_file)
    cards = load_cards(cards_file)["card"]
    names = [sp["name"] for sp in board["space"]]
    index: dict[str, int] = {}
    for i, n in enumerate(names):
        index.setdefault(n, i)
    deck: list = []
    for c in cards:
        if c["effect"] == "move_to":
            entry = index[c["target"]]
        elif c["effect"] == "back":
            entry = ("move", -int(c["amount"]))
        else:
            entry = None
        deck.extend([entry] * c["count"])
    return TrackModel(n_spaces=len(names), doubles_cards=deck, names=names, start=0)


def moolah_track(
    data_file: str | None = None, policy: str = "outer", cards_file: str | None = None
) -> TrackModel:
    """Moolah's track from ``board.toml`` (or a house-rule file).

    Args:
        data_file: a house-rule board file; None = the shipped one.
        policy: at an Option Point take the ``"outer"`` path or the ``"inner"`` pathway.
        cards_file: a Temptation deck file; cards whose ``effect`` is ``"goto"``/``"move_to"``
            (with a ``to``/``target`` space id) or ``"move"`` (``amount`` spaces, negative =
            back) move the token, others do not. None = the shipped ``cards.toml`` if present.

    Raises:
        ValueError: unknown policy, or a board without a Bank.
    """
    if policy not in ("outer", "inner"):
        raise ValueError(f"policy must be 'outer' or 'inner', got {policy!r}")
    from ..core.data import load_toml

    board = load_toml("moneynb.games.moolah", "board.toml", data_file)
    spaces = board["space"]
    ids = [sp["id"] for sp in spaces]
    at = {sid: i for i, sid in enumerate(ids)}
    nxt, go_to, waits, stops = [], {}, {}, []
    for i, sp in enumerate(spaces):
        succ = sp.get("next", [])
        if not succ:
            nxt.append(i)
        elif len(succ) > 1 and policy == "inner":
            nxt.append(at[succ[1]])
        else:
            nxt.append(at[succ[0]])
        kind = sp["kind"]
        if kind == "bank":
            stops.append(i)
        elif kind == "goto":
            go_to[i] = at[sp["to"]]
    kinds = {sp["kind"]: i for i, sp in enumerate(spaces)}
    if "bank" not in kinds:
        raise ValueError("the Moolah board needs a Bank space")
    if "bufes" in kinds and "exit" in kinds:
        waits[kinds["bufes"]] = (1, kinds["exit"])
    if "max" in kinds and "min" in kinds:
        waits[kinds["max"]] = (1, kinds["min"])
    if "min" in kinds and "parole" in kinds:
        waits[kinds["min"]] = (1, kinds["parole"])
    cards = {}
    deck = _moolah_temptation_deck(cards_file, at)
    if deck is not None:
        for i, sp in enumerate(spaces):
            if sp["kind"] == "temptation":
                cards[i] = deck
    return TrackModel(
        n_spaces=len(spaces),
        next_space=nxt,
        stops=stops,
        go_to=go_to,
        waits=waits,
        cards=cards,
        roll_again=True,
        doubles_cut_wait=True,
        start=kinds["bank"],
        names=[sp["name"] for sp in spaces],
    )


def _moolah_temptation_deck(cards_file, at) -> list | None:
    """The Temptation deck as card entries, or None when there is no deck file yet."""
    from ..core.data import load_toml

    try:
        data = load_toml("moneynb.games.moolah", "cards.toml", cards_file)
    except ValueError:
        if cards_file:
            raise
        return None
    cards = data.get("temptation") or data.get("card") or []
    if isinstance(cards, dict):
        cards = cards.get("card", [])
    deck = []
    for c in cards:
        effect = c.get("effect", c.get("kind", ""))
        target = c.get("to", c.get("target"))
        if effect in ("goto", "move_to", "go_to") and target in at:
            entry = at[target]
        elif effect in ("move", "back", "forward") and type(c.get("amount")) is int:
            k = c["amount"]
            entry = ("move", -abs(k) if effect == "back" else k)
        else:
            entry = None
        deck.extend([entry] * int(c.get("count", 1)))
    return deck or None
