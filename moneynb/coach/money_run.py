"""The Coach at Money Run's decisions (see :mod:`moneynb.coach`).

Source: reconstruction; issues 12, 18 (section 7) and 30.
"""

from __future__ import annotations

from typing import Any

from ..core.words import counted
from .rollouts import deferred
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
        lines.append(f"{d.label(o)[:1].upper() + d.label(o)[1:]}: you can get to {r['you']} from the goal this turn; "
                     f"next turn best of {opp}.")  # fmt: skip
    lines.append("Counted on the engine's board after the coin is placed (coins as they then "
                 "stand; the others' coin moves before yours are not foreseen).")  # fmt: skip
    coaching = Coaching("Where does the coin go?", lines, numbers={"squares": rows})
    order = sorted(rows, key=rank)
    values = {o: (-rows[o]["you"], min(rows[o]["opponents"].values(), default=0)) for o in order}
    labels = {o: d.label(o) for o in order}
    b = order[0]
    headline = f"Best: {labels[b]}."
    if len(order) > 1:
        s = order[1]
        (you0, opp0), (you1, opp1) = values[b], values[s]
        if you0 != you1:
            k = you0 - you1
            headline = (f"Best: {labels[b]} — your pawn can get {k} square{'s' * (k != 1)} "
                        f"closer to your goal this turn than with {labels[s]}.")  # fmt: skip
        elif opp0 != opp1:
            k = opp0 - opp1
            headline = (f"Best: {labels[b]} — the other pawns stay {k} square{'s' * (k != 1)} "
                        f"further from their goals than with {labels[s]}.")  # fmt: skip
        else:
            tied = [o for o in order if values[o] == values[b]]
            names = (
                ", ".join(labels[o] for o in tied[:-1]) + " or " + labels[tied[-1]]
                if len(tied) <= 3
                else f"{len(tied)} squares, such as {labels[tied[0]]},"
            )
            headline = (f"A tie: {names} — each leaves your pawn and the others as close to "
                        "their goals.")  # fmt: skip
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
            f"{name}: {counted(len(reach), 'square')} within {counted(n_moves, 'pawn move')}"
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
        coaching.headline = (f"Your pawn can reach {counted(len(mine), 'square')} this turn; the closest is "
                             f"{closest} from your goal (now {game.distance(seat)}).")  # fmt: skip
    else:
        coaching.headline = "Your pawn cannot move this turn: place or move a coin."
    why = [coaching.headline]
    if "refill" in nums:
        new = [(game.coin_names[r], p) for r, p in nums["refill"].items() if r is not None]
        likely = max(new, key=lambda np: np[1], default=None)
        if likely:
            why.append(f"Placing a table coin brings a new coin from the bag; most likely "
                       f"a {likely[0]} one (chance {chance(likely[1])}).")  # fmt: skip
    return coaching.defer(deferred(_actions_ranked, game, why))


#: Money Run's actions: how many of the game's candidate moves are played out (the most
#: promising by the game's own position score)
ACTION_CANDIDATES = 5
#: Money Run's actions: the deciding player's turns the play-outs run to
ACTION_TURNS = 2
#: Money Run's actions: most engine actions the play-outs of one decision may take (about a
#: second; ``benchmarks/bench_coach.py`` prints the time)
ACTION_BUDGET = 5_000


def _move_label(game, move: tuple) -> str:
    """A move of :meth:`MoneyRun.search_moves` in words: the engine's own labels, squares said
    from the deciding player's pawn (:meth:`MoneyRun.square_words`; no grid coordinates,
    issue 38, case 3)."""
    first = move[0]
    if first == "end_turn":
        return "End your turn"
    seat = game.decision.player
    label = game.decision.label(first)
    if first[0] == "pawn":
        return label
    to = game.square_words(seat, *move[1]) if len(move) > 1 else "a square"
    return f"{label} to {to}"


def _actions_ranked(game, d, coaching: Coaching, why: list) -> Coaching:
    """Money Run's action, ranked by the chance of winning: the game's own candidate moves
    (:meth:`MoneyRun.search_moves`: every pawn move, ending the turn, coins placed or moved
    next to a pawn), the :data:`ACTION_CANDIDATES` best by the game's own position score
    (:meth:`MoneyRun.evaluate`) after the move, each played out to the start of your
    :data:`ACTION_TURNS`-th turn from now (or the end of the game) by seeded greedy bots on
    resampled copies (the bag's order drawn afresh: :func:`~moneynb.coach.rollouts.
    play_outs`); the measure is your lead: your progress toward your goal less the best other
    pawn's (the engine's ``scores()``; a pawn on its goal edge has won)."""
    from .rollouts import lead_measure, play_outs, rank

    seat = d.player
    scored = []
    for move in game.search_moves():
        h = game.copy()  # Money Run copies fast: its log is short
        for a in move:
            h.apply(a)
        scored.append((-h.evaluate(seat), len(scored), tuple(move)))
    keep = [m for _, _, m in sorted(scored)[:ACTION_CANDIDATES]]
    moves = {m: m for m in keep}
    labels = {m: _move_label(game, m) for m in keep}
    po = play_outs(game, moves, measure=lead_measure, turns=ACTION_TURNS, budget=ACTION_BUDGET)
    coaching.lines += [
        f"{labels[m]}: your lead over the best other pawn changes by {po.mean(m):+.2f} steps "
        f"by your {ACTION_TURNS}nd turn from now, on average."
        for m in sorted(keep, key=po.mean, reverse=True)
    ]
    coaching.lines.append(
        f"The {len(keep)} most promising moves by the game's own position score, each played "
        f"out {po.n} times to your {ACTION_TURNS}nd turn from now, the bag's coins drawn afresh "
        "(the same draws for every move), everyone then playing as the game's greedy bots."
    )
    return rank(
        coaching, po, labels, of=lambda m: m[0], fmt=steps,
        more="further ahead of the closest other pawn", why=why,
        measure=f"steps ahead of the closest other pawn by your {ACTION_TURNS}nd turn from now",
    )  # fmt: skip


def steps(x: float) -> str:
    """Steps toward the goal in words: ``1`` -> ``"1 step"``, ``0.25`` -> ``"0.25 steps"``."""
    t = f"{x:.2f}".rstrip("0").rstrip(".")
    return f"{t} step" if t in ("1", "-1") else f"{t} steps"
