"""Benchmark: the floor of the engine's protocol, per action, against what issue 14's targets
would need per action in each real game.

Run: ``python benchmarks/bench_floor.py [--today COMMIT] [--repeat R] [--scale S] [--profile]``.

The *floor game* (:class:`FloorGame`) is a ``moneynb.core.game.Game`` whose rule is trivial
but which goes through the whole real protocol on every action, as every real game does:

* a bot (``GreedyBot``: ``require_decision`` + the game's ``greedy_action``, which answers
  with ``decision.first_option``) chooses;
* ``Game.apply`` validates the action against the pending ``Decision`` (``allows``) and the
  ``_check`` hook, takes the chance fingerprint before and after, runs the rule, checks the
  ledger (money conserved, nobody below $0), appends the action and extends the log;
* the rule rolls one die (``GameRandom``), the bank pays the player that many dollars (one
  ``Game.transfer``: a ledger transfer and a ``"paid"`` event), one more event
  (``emit``, text built when read), and asks the next player one new ``Decision`` (two
  options, a tag, a prompt) with ``Game.ask``.

That is one Decision, one validation, one transfer, one check, two events and one bot choice
per action: less than any real game's action does (every real action asks a decision,
validates, checks the money and has a bot choose; most also roll or move money). Its time per
action is therefore a lower bound for a real game's time per action as long as the protocol
stays as it is (the issue's own constraints: one-Decision protocol, ``apply`` validating
before it changes anything, pure Python).

Then, for each real game (greedy bots, the seats and seeds of ``bench_speed.py``), measured in
the same run, each in a fresh process pinned to one core, by CPU time: actions per game
(Easy Money: also actions per player-turn), the time per action today (this tree), the
"today" rate of the issue (``--today``, default ``9ab3632``: the commit that recorded the golden
games, before any speed work; measured now, same run), the target rate (Easy Money 8x
player-turns/s, the others 5x games/s) and the time per action that target leaves
(``1 / (target rate x actions per game or per turn)``, at today's action counts). The last
column divides that budget by the floor: below 1.0x even a game whose rules and bot cost
nothing could not reach the target with this protocol.

Three floors are shown: the floor game; the *bare protocol* (the same game whose bots always
pass: a decision asked, chosen, validated, the money checked, nothing else); and, per game, the
*mix floor*: the bare protocol plus that game's own transfers, other events and generator
draws per action, each at the cost of the piece timed alone (no collector, no glue: a low
estimate). An *idealised loop* (:func:`measure_ideal`: the same loop shape with the leanest
Python objects, no ledger, events or chance tracking; not moneynb's protocol) bounds what any
pure-Python protocol of this shape could cost. The second table gives the microseconds per
action left for a game's rules and bot at the target, with this protocol and with the
idealised loop, and how much faster the rules and bot would have to get in the second case.

Figures depend on the machine and its load: compare columns of one run, not runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "bench_speed", Path(__file__).with_name("bench_speed.py")
)
bench_speed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_speed)

#: the issue's targets: Easy Money player-turns/s x8, every other game's games/s x5
TARGET = {"easy_money": 8.0, "moolah": 5.0, "money_card": 5.0, "money_moves": 5.0,
          "money_run": 5.0}  # fmt: skip
#: actions per floor game (its length does not change the time per action)
FLOOR_ACTIONS = 200
FLOOR_GAMES = 300


def floor_game_class():
    """The floor game's class (defined on demand: the child process imports moneynb from the
    tree it measures)."""
    from moneynb.core.game import Game

    class FloorGame(Game):
        """A trivial rule through the real protocol (see the module docstring). Each action:
        the player takes (or passes); a take rolls one die and the bank pays that many dollars.
        The game ends after ``length`` actions; the richest player wins."""

        name = "floor"
        title = "Floor"
        min_players, max_players = 2, 8
        default_options = {"length": FLOOR_ACTIONS, "take": True}

        def _setup(self) -> None:
            self.ledger.open("Bank", 10**9)
            for w in self._cache_wallets:
                self.ledger.open(w, 0)
            self.current = 0
            self._ask_next()

        def _ask_next(self) -> None:
            self.ask(self.current, "choose", "Take or pass", ("take", "pass"), tag="take")

        def _apply(self, action: Any) -> None:
            seat = self.current
            if action == "take":
                die = self.rng.randrange(6) + 1
                self.transfer("Bank", self._cache_wallets[seat], die, "the die")
                self.emit("took", lambda: f"{self.players[seat]} rolled {die}", die=die)
            if len(self.actions) + 1 >= self.options["length"]:
                self.finish([max(range(len(self.players)), key=self.cash)])
                return
            self.current = (seat + 1) % len(self.players)
            self._ask_next()

        def scores(self) -> dict[str, int]:
            return {p: self.cash(i) for i, p in enumerate(self.players)}

        def greedy_action(self, rng: random.Random) -> Any:
            return self.pending.first_option if self.options["take"] else "pass"

    return FloorGame


def measure_floor(n_games: int, take: bool = True) -> dict:
    """Play ``n_games`` floor games (4 greedy bots) with bench_speed's loop; return the CPU
    microseconds per action. ``take=False``: the bots always pass (no die, transfer or event:
    the bare protocol, a decision asked, chosen, validated and the money checked)."""
    from moneynb.bots import make_bot

    cls = floor_game_class()
    names = [f"greedy{i + 1}" for i in range(4)]
    actions = 0
    t0 = time.process_time()
    for seed in range(n_games):
        g = cls(names, seed=seed, take=take)
        bots = [make_bot("greedy", seed=10 * seed + k) for k in range(4)]
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
            actions += 1
    dt = time.process_time() - t0
    return {"us_per_action": 1e6 * dt / actions, "actions": actions}


def measure_parts() -> dict:
    """CPU microseconds of each piece of one floor action, timed alone on a live floor game
    (``timeit``, best of 5): what the floor is made of."""
    import timeit

    from moneynb.bots import make_bot
    from moneynb.core.decision import Decision

    g = floor_game_class()(["a", "b", "c", "d"], seed=1)
    bot = make_bot("greedy", seed=1)
    d, w = g.pending, g._cache_wallets[0]

    def ledger_pair():
        g.ledger.transfer("Bank", w, 1, "x")
        g.ledger.transfer(w, "Bank", 1, "x")

    def transfer_pair():
        g.transfer("Bank", w, 1, "x")
        g.transfer(w, "Bank", 1, "x")
        g._events.clear()

    def emit():
        g.emit("took", lambda: "text", die=1)
        g._events.clear()

    parts = {
        "bot.choose (GreedyBot -> greedy_action)": lambda: bot.choose(g),
        "Decision(...) built": lambda: Decision(
            0, "choose", "Take or pass", ("take", "pass"), tag="take"
        ),  # fmt: skip
        "Game.ask (Decision + pending)": lambda: g.ask(
            0, "choose", "Take or pass", ("take", "pass"), tag="take"
        ),  # fmt: skip
        "Decision.allows": lambda: d.allows("take"),
        "chance fingerprint x2": lambda: (g._chance_fingerprint(), g._chance_fingerprint()),
        "ledger.check": g.ledger.check,
        "ledger.transfer (half of a pair)": ledger_pair,
        "Game.transfer + paid event (half)": transfer_pair,
        "Game.emit (lazy text)": emit,
        "rng.randrange(6)": lambda: g.rng.randrange(6),
        "an empty Python call": lambda: None,
    }
    out = {}
    for name, fn in parts.items():
        n = 20_000
        best = min(timeit.repeat(fn, number=n, repeat=5, timer=time.process_time))
        half = 2 if "half" in name else 1
        out[name] = 1e6 * best / n / half
    return out


def measure_ideal(n_games: int) -> float:
    """CPU microseconds per action of the same loop with the leanest Python objects: a
    four-slot decision, a membership check, the action appended, the next decision made; no
    ledger, chance tracking, events, options or labels machinery. Not moneynb's protocol: a
    bound no Python protocol of this shape can go below."""

    class D:
        __slots__ = ("player", "kind", "options", "tag")

        def __init__(self, player, kind, options, tag):
            self.player, self.kind, self.options, self.tag = player, kind, options, tag

    class G:
        def __init__(self):
            self.pending, self.actions = D(0, "choose", ("take", "pass"), "take"), []

        def apply(self, a):
            d = self.pending
            if a not in d.options:
                raise ValueError(a)
            self.actions.append(a)
            n = len(self.actions)
            self.pending = (None if n >= FLOOR_ACTIONS
                            else D(n % 4, "choose", ("take", "pass"), "take"))  # fmt: skip

    class B:
        def choose(self, g):
            return g.pending.options[0]

    actions = 0
    t0 = time.process_time()
    for _ in range(n_games):
        g, bots = G(), [B() for _ in range(4)]
        while g.pending is not None:
            g.apply(bots[g.pending.player].choose(g))
            actions += 1
    return 1e6 * (time.process_time() - t0) / actions


def child_floor(scale: float, profile: bool) -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    measure_floor(5)  # warm up
    measure_floor(5, take=False)
    n = max(5, int(FLOOR_GAMES * scale))
    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        measure_floor(n)
        prof.disable()
        print("floor game, bots take (die, transfer, two events):", file=sys.stderr)
        pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(18)
        return
    full, bare = measure_floor(n), measure_floor(n, take=False)
    print(json.dumps({"full": full["us_per_action"], "bare": bare["us_per_action"],
                      "ideal": measure_ideal(n), "parts": measure_parts()}))  # fmt: skip


def child_counts(game: str, scale: float) -> None:
    """Actions per game and per Easy Money player-turn; transfers, other events and generator
    draws per action (counts, not times; the setup's are counted too)."""
    import moneynb
    from moneynb.bots import make_bot

    seats, n = bench_speed.GAMES[game]
    n = max(2, int(n * scale))
    names = [f"greedy{i + 1}" for i in range(seats)]
    actions = turns = paid = events = draws = 0
    for seed in range(n):
        g = moneynb.new_game(game, players=names, seed=seed)
        bots = [make_bot("greedy", seed=10 * seed + k) for k in range(seats)]
        draws -= g.rng.draws
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
            actions += 1
        draws += g.rng.draws
        paid += sum(e.kind == "paid" for e in g.log)
        events += len(g.log)
        if game == "easy_money":
            turns += g.turns + (0 if g.end_reason.startswith("the turn cap") else 1)
    counts = {
        "actions_per_game": actions / n,
        "actions_per_turn": actions / max(turns, 1),
        "paid_per_action": paid / actions,
        "other_events_per_action": (events - paid) / actions,
        "draws_per_action": draws / actions,
    }
    print(json.dumps(counts))


def run_child(tree: Path, *args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    res = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return json.loads(res.stdout.strip().splitlines()[-1])


def _rate_key(game: str, counts: dict) -> tuple[str, float]:
    """The rate the issue's target is stated in for ``game`` and the actions per unit of it:
    Easy Money player-turns/s (actions per turn), every other game games/s (per game)."""
    if game == "easy_money":
        return "turns_per_s", counts["actions_per_turn"]
    return "games_per_s", counts["actions_per_game"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--today", default="9ab3632", help="the issue's 'today' commit")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; best kept")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    ap.add_argument("--profile", action="store_true", help="profile the floor game and stop")
    ap.add_argument("--child-floor", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--child-counts", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_floor:
        child_floor(args.scale, args.profile)
        return
    if args.child_counts:
        child_counts(args.child_counts, args.scale)
        return
    if args.profile:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, __file__, "--child-floor", "--profile", "--scale",
                        str(args.scale)], env=env, check=True)  # fmt: skip
        return
    scale = str(args.scale)
    floors, bares, ideals, now_runs, today_runs = [], [], [], [], []
    with tempfile.TemporaryDirectory(prefix="moneynb-today-") as tmp:
        today_tree = bench_speed.extract(args.today, Path(tmp))
        for _ in range(args.repeat):  # floor, today and now alternate
            f = run_child(ROOT, "--child-floor", "--scale", scale)
            floors.append(f["full"])
            bares.append(f["bare"])
            ideals.append(f["ideal"])
            now, today = {}, {}
            for game in bench_speed.GAMES:
                today[game] = bench_speed.run_tree(today_tree, game, args.scale)
                now[game] = bench_speed.run_tree(ROOT, game, args.scale)
            now_runs.append(now)
            today_runs.append(today)
    now, today = bench_speed.best(now_runs), bench_speed.best(today_runs)
    floor, bare, ideal = min(floors), min(bares), min(ideals)
    parts = f["parts"]
    counts = {g: run_child(ROOT, "--child-counts", g, "--scale", scale) for g in bench_speed.GAMES}
    # the floor of each game's own mix: the bare protocol plus, per action, that game's
    # transfers, other events and generator draws at the cost of each piece timed alone
    mix = {
        g: bare
        + c["paid_per_action"] * parts["Game.transfer + paid event (half)"]
        + c["other_events_per_action"] * parts["Game.emit (lazy text)"]
        + c["draws_per_action"] * parts["rng.randrange(6)"]
        for g, c in counts.items()
    }
    load = os.getloadavg()[0]
    print(
        f"floor game (protocol, trivial rule, 4 greedy bots): {floor:.2f} us/action "
        f"(best of {args.repeat}; runs: {', '.join(f'{f:.2f}' for f in floors)})"
    )
    print(
        f"bare protocol (the bots pass: no die, transfer or event): {bare:.2f} us/action "
        f"(runs: {', '.join(f'{f:.2f}' for f in bares)})"
    )
    print(
        f"idealised Python loop of the same shape (not moneynb's protocol): {ideal:.2f} us/action"
    )
    print(f"today = {args.today} (measured now); now = working tree {ROOT}")
    print(f"one core, CPU time, best of {args.repeat}; load average {load:.1f} on "
          f"{os.cpu_count()} cores\n")  # fmt: skip
    head = (
        f"{'game':12s} {'actions':>8s} {'rate today':>12s} {'target':>10s} {'rate now':>10s}"
        f" {'us/act now':>10s} {'us/act target':>13s} {'floor':>6s} {'target/floor':>12s}"
        f" {'target/bare':>11s} {'mix floor':>9s} {'target/mix':>10s}"
    )
    print(head)
    print("-" * len(head))
    for game in bench_speed.GAMES:
        c = counts[game]
        us_now = 1e6 / now[game]["actions_per_s"]
        key, per = _rate_key(game, c)
        acts = f"{per:.2f}/turn" if game == "easy_money" else f"{per:.0f}/game"
        rate_today = today[game][key]
        target = TARGET[game] * rate_today
        us_target = 1e6 / (target * per)
        print(
            f"{game:12s} {acts:>8s} {rate_today:12,.1f} {target:10,.0f} {now[game][key]:10,.1f}"
            f" {us_now:10.2f} {us_target:13.2f} {floor:6.2f} {us_target / floor:11.2f}x"
            f" {us_target / bare:10.2f}x {mix[game]:9.2f} {us_target / mix[game]:9.2f}x"
        )
        if game == "easy_money":
            print(
                f"{'':12s} {c['actions_per_game']:>6.0f}/game (the issue's absolute target "
                f"55,000 turns/s = {1e6 / (55_000 * per):.2f} us/action)"
            )
    print("\nus per action left for the game's rules and bot (now: us/act now - bare):")
    head = (
        f"{'game':12s} {'rules+bot now':>13s} {'at target, this protocol':>24s}"
        f" {'at target, idealised loop':>25s} {'rules+bot must get':>18s}"
    )
    print(head)
    print("-" * len(head))
    for game in bench_speed.GAMES:
        key, per = _rate_key(game, counts[game])
        us_target = 1e6 / (TARGET[game] * today[game][key] * per)
        now_rb = 1e6 / now[game]["actions_per_s"] - bare
        here, best = us_target - mix[game], us_target - ideal
        need = f"{now_rb / best:.1f}x faster" if best > 0 else "impossible"
        print(f"{game:12s} {now_rb:13.2f} {here:24.2f} {best:25.2f} {need:>18s}")
    print(
        "(at target, this protocol = target - mix floor; idealised = target - idealised "
        "loop; the last column: with the idealised loop)"
    )
    print("\nper action in each game (greedy):")
    for g, c in counts.items():
        print(
            f"  {g:12s} transfers {c['paid_per_action']:.2f}, other events "
            f"{c['other_events_per_action']:.2f}, generator draws {c['draws_per_action']:.2f}"
        )
    print("\nwhat a floor action is made of (each piece timed alone, us):")
    for name, us in parts.items():
        print(f"  {name:42s} {us:6.2f}")
    print(
        "\nunits: rates in games/s (Easy Money: player-turns/s); us/act = microseconds of CPU "
        "per action; target/floor < 1 means the target is below the protocol's floor; mix floor = "
        "bare protocol + this game's transfers, events and draws per action (pieces above)"
    )


if __name__ == "__main__":
    main()
