"""The Coach at Money Run's decisions (see :mod:`moneynb.coach`).

Source: reconstruction; issues 12, 18 (section 7) and 30.
"""

from __future__ import annotations

from typing import Any

from .valuation import Coaching, value_check
from .wording import chance, pct


def money_run_reach(game, seat: int, moves: int) -> set[tuple[int, int]]:
    """Squares ``seat``'s pawn can reach with ``moves`` pawn actions on the board as it is now
    (coins not moved): repeated :meth:`MoneyRun.pawn_paths` from each square reached."""
    g = game.copy()  # Money Run copies fast: its log is short
    start = g.pawns[seat]
    frontier, seen = {start}, set()
    for _ in range(moves):
        nxt = set()
        for sq in frontier:
            g.pawns[seat] = sq
            for dest in g.pawn_paths(seat):
                if dest not in seen and dest != start:
                    seen.add(dest)
                    nxt.add(dest)
        frontier = {s for s in nxt if not g.on_goal(seat, s)}
    return {g.xy(s) for s in seen}


def _mr_drawn(before, after, events) -> Any:
    """The rank of the coin drawn from the bag onto the table (None: the bag was empty)."""
    return next((e.data["rank"] for e in events if e.kind == "drew"), None)


def _mr_best(game, seat: int, moves: int) -> int:
    """Fewest squares from the goal ``seat``'s pawn can get to with ``moves`` pawn actions on
    the board as it is (its own square included): the engine's ``distance`` over
    :func:`money_run_reach`."""
    reach = money_run_reach(game, seat, moves) if moves else set()
    return min([game.distance(seat)] + [game.distance(seat, game.sq(*xy)) for xy in reach])


def _mr_place(game, d) -> Coaching:
    """Money Run, where the picked coin goes: for each square, the engine's board after the
    coin is put there (``apply`` on a copy): how close to your goal your pawn can then get with
    the actions left this turn, and how close each opponent can get with a two-action turn on
    that board (coins as they then stand). Best three squares for you, and the numbers of every
    square in ``numbers``."""
    seat = d.player
    others = [s for s in range(len(game.players)) if s != seat]
    rows = {}
    for o in d.options:
        h = game.copy()  # Money Run copies fast: its log is short
        h.apply(o)
        left = h.actions_left if h.decision is not None and h.decision.player == seat else 0
        rows[o] = {
            "you": _mr_best(h, seat, left) if not h.over else 0,
            "opponents": {s: _mr_best(h, s, 2) for s in others} if not h.over else {},
        }
    now = game.distance(seat)

    def rank(o):
        r = rows[o]
        return (r["you"], -min(r["opponents"].values(), default=0), str(o))

    best = sorted(rows, key=rank)[:3]
    lines = [f"Your pawn is {now} from the goal now."]
    for o in best:
        r = rows[o]
        opp = ", ".join(f"{game.players[s]} {v}" for s, v in r["opponents"].items())
        lines.append(f"Square {o}: you can get to {r['you']} from the goal this turn; "
                     f"next turn best of {opp}.")  # fmt: skip
    lines.append("Counted on the engine's board after the coin is placed (coins as they then "
                 "stand; the others' coin moves before yours are not foreseen).")  # fmt: skip
    coaching = Coaching("Where does the coin go?", lines, numbers={"squares": rows})
    order = sorted(rows, key=rank)
    values = {o: (-rows[o]["you"], min(rows[o]["opponents"].values(), default=0)) for o in order}
    labels = {o: d.label(o) if d.label(o) != str(o) else f"Square {o}" for o in order}
    b = order[0]
    headline = f"Best: {labels[b]}."
    if len(order) > 1:
        s = order[1]
        (you0, opp0), (you1, opp1) = values[b], values[s]
        if you0 != you1:
            headline = (f"Best: {labels[b]} — your pawn can get {you0 - you1} square(s) closer to "
                        f"your goal this turn than with {labels[s]}.")  # fmt: skip
        elif opp0 != opp1:
            headline = (f"Best: {labels[b]} — the other pawns stay {opp0 - opp1} square(s) "
                        f"further from their goals than with {labels[s]}.")  # fmt: skip
        else:
            headline = f"Best: {labels[b]} — just as good as {labels[s]}."
    why = [f"Your pawn is {now} from the goal now; then it can get to {rows[b]['you']}."]
    if rows[b]["opponents"]:
        why.append(f"The closest another pawn can then get: {values[b][1]} from its goal.")
    return coaching.recommend(
        values, labels, why=why, headline=headline,
        measure="squares from your goal this turn (fewer is better), then the others' (more)",
    )  # fmt: skip


def coach_decision(game, d) -> Coaching | None:
    if d.tag in ("place", "move_coin"):  # issue 18, section 7
        return _mr_place(game, d)
    if d.tag != "action":
        return None
    moves = game.actions_left
    heat: dict = {}
    lines, nums, checks = [], {}, []
    for seat, name in enumerate(game.players):
        n_moves = moves if seat == d.player else 2
        reach = money_run_reach(game, seat, n_moves)
        nums[name] = reach
        best = min((game.distance(seat, game.sq(*xy)) for xy in reach), default=None)
        lines.append(
            f"{name}: {len(reach)} squares within {n_moves} pawn move(s)"
            + (f", best {best} from the goal (now {game.distance(seat)})." if reach else ".")
        )
        if seat == d.player:
            heat.update({xy: 1.0 for xy in reach})
    if game.bag and ("place", 0) in d.options:
        g = game.copy()
        g.apply(("place", 0))
        target = g.decision.options[0]
        c = value_check(game, "refill", target, pre=(("place", 0),), shows=("each",),
                   measure=lambda g2, ev: _mr_drawn(None, g2, ev))  # fmt: skip
        c.measure = _mr_drawn
        dist = c.valuation.distribution
        nums["refill"] = dist
        checks.append(c)
        lines.append(
            "Placing a table coin refills the table from the bag: "
            + ", ".join(f"{game.coin_names[r]} {pct(p)}" for r, p in dist.items() if r is not None)
            + "."
        )
    coaching = Coaching("Where the pawns can reach this turn", lines, heatmap=heat,
                        numbers=nums, checks=checks)  # fmt: skip
    seat = d.player
    mine = nums[game.players[seat]]
    if mine:
        closest = min(game.distance(seat, game.sq(*xy)) for xy in mine)
        coaching.headline = (f"Your pawn can reach {len(mine)} squares this turn; the closest is "
                             f"{closest} from your goal (now {game.distance(seat)}).")  # fmt: skip
    else:
        coaching.headline = "Your pawn cannot move this turn: place or move a coin."
    if "refill" in nums:
        new = [(game.coin_names[r], p) for r, p in nums["refill"].items() if r is not None]
        likely = max(new, key=lambda np: np[1], default=None)
        if likely:
            coaching.why = [f"Placing a table coin brings a new coin from the bag; most likely "
                            f"a {likely[0]} one (chance {chance(likely[1])})."]  # fmt: skip
    return coaching
