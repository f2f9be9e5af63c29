"""Benchmark: engine speed of every game on one core, before and after, in the same run.

Run: ``python benchmarks/bench_speed.py [--ref COMMIT] [--repeat R] [--scale S]
[--workers | --workers-only] [--sim-games 200,1000] [--workers-repeat R]``.

Measures, each game in a fresh process pinned to one core, rates per second of the process's
CPU time (``time.process_time``: other load on a shared machine disturbs it far less than
wall-clock time; one process uses one core):

* Easy Money, 4 greedy bots, default options: player-turns/s (a turn is one player's turn;
  ``g.turns`` as the game counts them, plus the turn that ended the game early), and games/s;
* every game, greedy bots only (Easy Money 4 seats, Money Run 2, the others 3): whole
  games/s over seeds ``0..n-1``, bot ``k`` seeded ``10 * seed + k``.

With ``--ref COMMIT`` the same measurements also run against that commit's ``moneynb`` package
(extracted with ``git archive`` into a temporary directory), alternating the two trees game by
game and keeping the best of ``--repeat`` runs of each, and the table shows both and the speed-up.
With ``--workers`` it also times ``moneynb.simulate`` for 200 Easy Money games (and 400 of every
other game) with ``workers=1`` and ``workers=2`` (wall-clock time, both cores; not pinned), and
the CPU seconds each used, workers included (the parallel overhead, visible even on a machine
whose cores are busy with other work); the two calls alternate ``--workers-repeat`` times
(default 3), best of each kept. It replaces the former ``bench_games.py``.

Figures depend on the machine and its load: compare columns of one run, not runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: game -> (seats, games per measurement at --scale 1)
GAMES = {
    "easy_money": (4, 60),
    "moolah": (3, 150),
    "money_card": (3, 120),
    "money_moves": (3, 600),
    "money_run": (2, 600),
}


def measure(game: str, n_games: int) -> dict:
    """Play ``n_games`` greedy games of ``game`` in this process; return rates."""
    import moneynb
    from moneynb.bots import make_bot

    seats = GAMES[game][0]
    names = [f"greedy{i + 1}" for i in range(seats)]
    turns = actions = 0
    t0 = time.process_time()
    for seed in range(n_games):
        g = moneynb.new_game(game, players=names, seed=seed)
        bots = [make_bot("greedy", seed=10 * seed + k) for k in range(seats)]
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
            actions += 1
        if game == "easy_money":
            turns += g.turns + (0 if g.end_reason.startswith("the turn cap") else 1)
    dt = time.process_time() - t0
    return {
        "games_per_s": n_games / dt,
        "turns_per_s": turns / dt,
        "actions_per_s": actions / dt,
    }


def child(game: str, scale: float) -> None:
    """Measure ``game`` in this process (pinned to one core) and print JSON."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    measure(game, 2)  # warm up: imports, data files
    print(json.dumps(measure(game, max(2, int(GAMES[game][1] * scale)))))


def run_tree(tree: Path, game: str, scale: float) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    res = subprocess.run(
        [sys.executable, __file__, "--child", game, "--scale", str(scale)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def extract(ref: str, into: Path) -> Path:
    """``moneynb`` of commit ``ref`` (and its data files) under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "moneynb"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def best(runs: list[dict]) -> dict:
    return {
        g: {k: max(r[g][k] for r in runs) for k in runs[0][g]}
        for g in runs[0]  # the best of the repeats (the least disturbed by other load)
    }


def table(after: dict, before: dict | None) -> str:
    rows = [("easy_money", "turns_per_s", "Easy Money player-turns/s (4 greedy)")]
    rows += [(g, "games_per_s", f"{g} games/s (greedy)") for g in GAMES]
    head = f"{'measure':44s} {'before':>12s} {'after':>12s} {'speed-up':>9s}"
    lines = [head, "-" * len(head)]
    for g, key, label in rows:
        a = after[g][key]
        if before is None:
            lines.append(f"{label:44s} {'':>12s} {a:12,.1f}")
        else:
            b = before[g][key]
            lines.append(f"{label:44s} {b:12,.1f} {a:12,.1f} {a / b:8.2f}x")
    return "\n".join(lines)


def bench_workers(tree: Path, counts: list[int] | None = None, repeat: int = 1) -> str:
    """``simulate`` at ``workers=1`` and ``2`` in a fresh process using ``tree``: wall-clock
    games/s, and the CPU seconds used (this process plus its workers, reaped after each call:
    every ``workers=2`` call starts its workers cold), so the parallel overhead shows even when
    other load leaves no core free. ``counts``: the numbers of games to time per game
    (default: 200 Easy Money games, 400 of the others). ``repeat``: the two calls alternate
    this many times and the best of each is kept (the least disturbed by other load)."""
    plan = [
        (game, seats, n)
        for game, (seats, _) in GAMES.items()
        for n in (counts or [200 if game == "easy_money" else 400])
    ]
    code = (
        "import os, time, json\n"
        "import moneynb.analysis.montecarlo as mc\n"
        "def cpu():\n"
        "    t = os.times()\n"
        "    return t.user + t.system + t.children_user + t.children_system\n"
        "mc.simulate('money_run', ['greedy'] * 2, n_games=2, progress=False)  # imports\n"
        "out = []\n"
        f"for game, seats, n in {plan!r}:\n"
        "    best = {1: [0.0, 0.0], 2: [0.0, 0.0]}\n"
        f"    for _ in range({repeat}):\n"
        "        for w in (1, 2):\n"
        "            t, c = time.perf_counter(), cpu()\n"
        "            mc.simulate(game, ['greedy'] * seats, n_games=n, seed=1, workers=w, "
        "progress=False)\n"
        "            getattr(mc, 'shutdown_workers', lambda: None)()  # reap: count their CPU\n"
        "            rate = n / (time.perf_counter() - t)\n"
        "            if rate > best[w][0]:\n"
        "                best[w] = [rate, cpu() - c]\n"
        "    out.append([game, n, *best[1], *best[2]])\n"
        "print(json.dumps(out))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(tree))
    load = os.getloadavg()[0]
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if res.returncode:
        return res.stderr
    data = json.loads(res.stdout.strip().splitlines()[-1])
    lines = [
        f"{'simulate, greedy bots':22s} {'games':>5s} {'workers=1':>11s} {'workers=2':>11s}"
        f" {'2 vs 1':>7s}   {'CPU s, 1':>8s} {'CPU s, 2':>8s}"
    ]
    for game, n, w1, c1, w2, c2 in data:
        lines.append(
            f"{game:22s} {n:5d} {w1:9,.1f}/s {w2:9,.1f}/s {w2 / w1:6.2f}x   {c1:8.2f} {c2:8.2f}"
        )
    lines.append(
        f"(best of {repeat} alternating calls each; load average {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores)"
    )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", help="a commit to compare with (the 'before' column)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per tree; the best is kept")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    ap.add_argument("--workers", action="store_true", help="also time simulate(workers=1, 2)")
    ap.add_argument(
        "--sim-games",
        help="games per simulate timing, e.g. 200,1000 (default: 200 Easy Money, 400 others)",
    )
    ap.add_argument(
        "--workers-repeat", type=int, default=3, help="alternating simulate calls; best kept"
    )
    ap.add_argument(
        "--workers-only", action="store_true", help="only the simulate timings (no table)"
    )
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.workers = args.workers or args.workers_only
    if args.child:
        child(args.child, args.scale)
        return
    counts = [int(n) for n in args.sim_games.split(",")] if args.sim_games else None
    with tempfile.TemporaryDirectory(prefix="moneynb-before-") as tmp:
        before_tree = extract(args.ref, Path(tmp)) if args.ref else None
        runs_after, runs_before = [], []
        for _ in range(0 if args.workers_only else args.repeat):  # before, after alternate
            after, before = {}, {}
            for game in GAMES:
                if before_tree is not None:
                    before[game] = run_tree(before_tree, game, args.scale)
                after[game] = run_tree(ROOT, game, args.scale)
            runs_after.append(after)
            if before:
                runs_before.append(before)
        if args.ref:
            print(f"before = {args.ref}, after = working tree {ROOT}")
        if runs_after:
            print(f"one core, CPU time of the process, best of {args.repeat} runs per tree\n")
            print(table(best(runs_after), best(runs_before) if runs_before else None))
        if args.workers:
            print()
            if before_tree is not None:
                print(f"before ({args.ref}):")
                print(bench_workers(before_tree, counts, args.workers_repeat))
                print("after:")
            print(bench_workers(ROOT, counts, args.workers_repeat))


if __name__ == "__main__":
    main()
