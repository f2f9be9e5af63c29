"""Benchmark: engine speed of every game on one core, before and after, in the same run.

Run: ``python benchmarks/bench_speed.py [--ref COMMIT] [--anchor DIR] [--repeat R]
[--scale S] [--workers | --workers-only] [--workers-after-only] [--sim-games 200,1000]
[--workers-repeat R]``.

Measures, each game in a fresh process pinned to one core, rates per second of the process's
CPU time (``time.process_time``: other load on a shared machine disturbs it far less than
wall-clock time; one process uses one core), every game with greedy bots only (Easy Money 4
seats, Money Run 2, the others 3) over seeds ``0..n-1``, bot ``k`` seeded ``10 * seed + k``,
played as ``simulate`` plays them (each tree's own runner and collector setting):

* actions/s, player-turns/s and games/s. A player-turn is, in Easy Money, one player's turn
  as the game counts them (``g.turns``, plus the turn that ended the game early); in the
  others, a run of consecutive decisions by one player.
* With ``--compiled DIR`` (``python scripts/build_compiled.py --into DIR``), the compiled
  build of the working tree too, alternating with the others.
* With ``--anchor DIR`` (the gamescomputersplay/monopoly simulator: a work tree, or a git
  repository such as the mirror ``fetch github:gamescomputersplay/monopoly`` makes), that
  simulator's player-turns/s in the same run (its four players, logging off), and each
  game's player-turns/s against it.

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
    """Play ``n_games`` greedy games of ``game`` in this process as ``simulate`` plays them
    (this tree's runner: ``Game.advance`` where the tree has it, else ``Game.apply``; the
    collector as ``simulate`` tunes it); return rates per CPU second."""
    import moneynb
    from moneynb.analysis import montecarlo as mc
    from moneynb.bots import make_bot

    seats = GAMES[game][0]
    names = [f"greedy{i + 1}" for i in range(seats)]
    turns = actions = 0
    t0 = time.process_time()
    with mc._fewer_gc_passes():
        for seed in range(n_games):
            g = moneynb.new_game(game, players=names, seed=seed)
            bots = [make_bot("greedy", seed=10 * seed + k) for k in range(seats)]
            step = getattr(g, "advance", g.apply)
            last, changes = None, 0
            while g.pending is not None:
                seat = g.pending.player
                if seat != last:
                    changes, last = changes + 1, seat
                step(bots[seat].choose(g))
                actions += 1
            if game == "easy_money":  # the game's own count of player-turns
                turns += g.turns + (0 if g.end_reason.startswith("the turn cap") else 1)
            else:  # a player-turn: a run of decisions by one player
                turns += changes
    dt = time.process_time() - t0
    return {
        "games_per_s": n_games / dt,
        "turns_per_s": turns / dt,
        "actions_per_s": actions / dt,
        "load": os.getloadavg()[0],  # the 1-minute load average as the measurement ended
    }


def measure_anchor(tree: str, n_games: int) -> dict:
    """Play ``n_games`` games of the gamescomputersplay/monopoly simulator (its own four
    players, logging off: the game log disabled, the bankruptcies log to /dev/null) from the
    source in ``tree``; return player-turns per CPU second (a player-turn: one top-level
    ``Player.make_a_move``, the rolls again on doubles inside it)."""
    import random

    sys.path.insert(0, tree)
    from monopoly.core import game as anchor_game
    from monopoly.core.player import Player
    from monopoly.log_settings import LogSettings

    LogSettings.KEEP_GAME_LOG = False
    LogSettings.BANKRUPTCIES_PATH = os.devnull
    count = {"turns": 0, "depth": 0}
    move = Player.make_a_move

    def counted(self, *args, **kwargs):
        if count["depth"] == 0:
            count["turns"] += 1
        count["depth"] += 1
        try:
            return move(self, *args, **kwargs)
        finally:
            count["depth"] -= 1

    Player.make_a_move = counted
    master = random.Random(0)
    seeds = [(i + 1, master.getrandbits(32)) for i in range(n_games)]
    t0 = time.process_time()
    for pair in seeds:
        anchor_game.monopoly_game(pair)
    dt = time.process_time() - t0
    return {"games_per_s": n_games / dt, "turns_per_s": count["turns"] / dt, "actions_per_s": 0}


#: games of the anchor (gamescomputersplay/monopoly) per measurement at --scale 1
ANCHOR_GAMES = 40


def child(game: str, scale: float, anchor: str | None = None) -> None:
    """Measure ``game`` (or the anchor, from the source in ``anchor``) in this process,
    pinned to one core, and print JSON."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if anchor:
        measure_anchor(anchor, 2)  # warm up
        print(json.dumps(measure_anchor(anchor, max(2, int(ANCHOR_GAMES * scale)))))
        return
    measure(game, 2)  # warm up: imports, data files
    print(json.dumps(measure(game, max(2, int(GAMES[game][1] * scale)))))


def run_tree(tree: Path, game: str, scale: float, anchor: Path | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    extra = ["--anchor-child", str(anchor)] if anchor else []
    res = subprocess.run(
        [sys.executable, __file__, "--child", game, "--scale", str(scale), *extra],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def extract(ref: str, into: Path, repo: Path = ROOT, paths: tuple = ("moneynb",)) -> Path:
    """``paths`` of commit ``ref`` of the git repository ``repo`` (a work tree or a bare
    repository) under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", ref, *paths], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def best(runs: list[dict]) -> dict:
    """Per game, the best rate of the repeats (the least disturbed by other load), and the
    highest load average any of them ended at (``load``)."""
    return {g: {k: max(r[g].get(k, 0.0) for r in runs) for k in runs[0][g]} for g in runs[0]}


def table(
    after: dict, before: dict | None, anchor: dict | None = None, compiled: dict | None = None
) -> str:
    """One row per game and measure: before, after, the speed-up and, for player-turns/s,
    after against the anchor's player-turns/s; with ``compiled``, the compiled build's
    figure and its speed-up over before (and its player-turns/s against the anchor)."""
    rows = []
    for g, (seats, _) in GAMES.items():
        rows += [
            (g, "actions_per_s", f"{g} actions/s ({seats} greedy)"),
            (g, "turns_per_s", f"{g} player-turns/s"),
            (g, "games_per_s", f"{g} games/s"),
        ]
    head = f"{'measure':40s} {'before':>11s} {'after':>11s} {'speed-up':>9s} {'vs anchor':>10s}"
    if compiled is not None:
        head += f" {'compiled':>11s} {'speed-up':>9s} {'vs anchor':>10s}"
    lines = [head, "-" * len(head)]
    for g, key, label in rows:
        a = after[g][key]
        vs = ""
        if anchor is not None and key == "turns_per_s":
            vs = f"{a / anchor['turns_per_s']:9.2f}x"
        b = f"{before[g][key]:11,.1f}" if before is not None else f"{'':11s}"
        up = f"{a / before[g][key]:8.2f}x" if before is not None else f"{'':9s}"
        line = f"{label:40s} {b} {a:11,.1f} {up} {vs:>10s}"
        if compiled is not None:
            c = compiled[g][key]
            cup = f"{c / before[g][key]:8.2f}x" if before is not None else f"{'':9s}"
            cvs = ""
            if anchor is not None and key == "turns_per_s":
                cvs = f"{c / anchor['turns_per_s']:9.2f}x"
            line += f" {c:11,.1f} {cup} {cvs:>10s}"
        if key == "games_per_s":  # the highest load average any run of the game ended at
            loads = [t[g].get("load") for t in (before, after, compiled) if t is not None]
            if all(x is not None for x in loads):
                line += f"   (load up to {max(loads):.1f})"
        lines.append(line)
    if anchor is not None:
        lines.append(
            f"{'anchor (gamescomputersplay/monopoly)':40s} {'':11s} "
            f"{anchor['turns_per_s']:11,.1f} player-turns/s, {anchor['games_per_s']:,.1f} games/s"
        )
    return "\n".join(lines)


#: the order of the ``simulate`` timings: the quickest games first (a long run that is cut
#: short has the most games done)
WORKERS_ORDER = ("money_run", "money_moves", "moolah", "easy_money", "money_card")


def bench_workers(
    tree: Path, counts: list[int] | None = None, repeat: int = 1, games: tuple = WORKERS_ORDER
) -> str:
    """``simulate`` at ``workers=1`` and ``2`` in a fresh process using ``tree``: wall-clock
    games/s, and the CPU seconds used (this process plus its workers, reaped after each call:
    every ``workers=2`` call starts its workers cold), so the parallel overhead shows even when
    other load leaves no core free. ``counts``: the numbers of games to time per game
    (default: 200 Easy Money games, 400 of the others). ``repeat``: the two calls alternate
    this many times and the best of each is kept (the least disturbed by other load)."""
    plan = [
        (game, GAMES[game][0], n)
        for game in WORKERS_ORDER
        if game in games
        for n in (counts or [200 if game == "easy_money" else 400])
    ]
    code = (
        "import os, sys, time, json\n"
        "import moneynb.analysis.montecarlo as mc\n"
        "def cpu():\n"
        "    t = os.times()\n"
        "    return t.user + t.system + t.children_user + t.children_system\n"
        "mc.simulate('money_run', ['greedy'] * 2, n_games=2, progress=False)  # imports\n"
        f"for game, seats, n in {plan!r}:\n"
        "    best = {1: [0.0, 0.0, 0.0], 2: [0.0, 0.0, 0.0]}\n"
        f"    for _ in range({repeat}):\n"
        "        for w in (1, 2):\n"
        "            load = os.getloadavg()[0]\n"
        "            t, c = time.perf_counter(), cpu()\n"
        "            mc.simulate(game, ['greedy'] * seats, n_games=n, seed=1, workers=w, "
        "progress=False)\n"
        "            getattr(mc, 'shutdown_workers', lambda: None)()  # reap: count their CPU\n"
        "            rate = n / (time.perf_counter() - t)\n"
        "            load = max(load, os.getloadavg()[0])\n"
        "            if rate > best[w][0]:\n"
        "                best[w] = [rate, cpu() - c, load]\n"
        "    print(json.dumps([game, n, *best[1], *best[2]]), flush=True)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(tree))
    load = os.getloadavg()[0]
    head = (
        f"{'simulate, greedy bots':22s} {'games':>6s} {'workers=1':>11s} {'workers=2':>11s}"
        f" {'2 vs 1':>7s}   {'CPU s, 1':>8s} {'CPU s, 2':>8s}   {'load, 1':>7s} {'load, 2':>7s}"
    )
    lines = [head]
    print(head, flush=True)  # each game's row as it comes (a long run shows its progress)
    proc = subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True
    )  # (its errors go to this process's stderr)
    for line in proc.stdout:
        game, n, w1, c1, l1, w2, c2, l2 = json.loads(line)
        row = (
            f"{game:22s} {n:6d} {w1:9,.1f}/s {w2:9,.1f}/s {w2 / w1:6.2f}x   {c1:8.2f} {c2:8.2f}"
            f"   {l1:7.1f} {l2:7.1f}"
        )
        lines.append(row)
        print(row, flush=True)
    if proc.wait():
        return "\n".join(lines)
    lines.append(
        f"(best of {repeat} alternating calls each; 'load': the highest 1-minute load average "
        f"seen at the start and end of the call kept; load average {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores)"
    )
    print(lines[-1], flush=True)
    return "\n".join(lines)


def anchor_tree(source: str, into: Path) -> Path:
    """The anchor's source: ``source`` itself when it holds ``monopoly/`` and ``settings.py``
    (a work tree), else its HEAD extracted under ``into`` (a git repository, e.g. the bare
    mirror ``fetch`` makes)."""
    src = Path(source)
    if (src / "monopoly").is_dir() and (src / "settings.py").is_file():
        return src
    return extract("HEAD", into, repo=src, paths=("monopoly", "settings.py"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", help="a commit to compare with (the 'before' column)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per tree; the best is kept")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    ap.add_argument(
        "--anchor",
        help="the gamescomputersplay/monopoly simulator (a work tree or a git repository): "
        "its player-turns/s measured in the same run",
    )
    ap.add_argument(
        "--compiled",
        help="a directory holding a compiled build of the working tree "
        "(scripts/build_compiled.py --into DIR): measured too, in the same run",
    )
    ap.add_argument("--workers", action="store_true", help="also time simulate(workers=1, 2)")
    ap.add_argument(
        "--sim-games",
        help="games per simulate timing, e.g. 200,1000 or 10000 (default: 200 Easy Money, "
        "400 others)",
    )
    ap.add_argument(
        "--workers-repeat", type=int, default=3, help="alternating simulate calls; best kept"
    )
    ap.add_argument(
        "--workers-only", action="store_true", help="only the simulate timings (no table)"
    )
    ap.add_argument(
        "--workers-after-only",
        action="store_true",
        help="time simulate for the working tree only (not --ref)",
    )
    ap.add_argument(
        "--games", help="only these games' simulate timings, e.g. easy_money,money_card"
    )
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--anchor-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.workers = args.workers or args.workers_only
    if args.child:
        child(args.child, args.scale, args.anchor_child)
        return
    counts = [int(n) for n in args.sim_games.split(",")] if args.sim_games else None
    only = tuple(args.games.split(",")) if args.games else WORKERS_ORDER
    with tempfile.TemporaryDirectory(prefix="moneynb-before-") as tmp:
        before_tree = extract(args.ref, Path(tmp)) if args.ref else None
        anchor = None
        if args.anchor:
            (Path(tmp) / "anchor").mkdir()
            anchor = anchor_tree(args.anchor, Path(tmp) / "anchor")
        runs_after, runs_before, runs_anchor, runs_compiled = [], [], [], []
        load = os.getloadavg()[0]
        for _ in range(0 if args.workers_only else args.repeat):  # before, after alternate
            after, before = {}, {}
            for game in GAMES:
                if before_tree is not None:
                    before[game] = run_tree(before_tree, game, args.scale)
                after[game] = run_tree(ROOT, game, args.scale)
            if args.compiled:
                runs_compiled.append(
                    {game: run_tree(Path(args.compiled), game, args.scale) for game in GAMES}
                )
            if anchor is not None:
                runs_anchor.append({"anchor": run_tree(ROOT, "anchor", args.scale, anchor)})
            runs_after.append(after)
            if before:
                runs_before.append(before)
        if args.ref:
            print(f"before = {args.ref}, after = working tree {ROOT}")
        if runs_after:
            print(
                f"one core, CPU time of the process, best of {args.repeat} runs per tree "
                f"(load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)\n"
            )
            print(
                table(
                    best(runs_after),
                    best(runs_before) if runs_before else None,
                    best(runs_anchor)["anchor"] if runs_anchor else None,
                    best(runs_compiled) if runs_compiled else None,
                )
            )
        if args.workers:
            print()
            if before_tree is not None and not args.workers_after_only:
                print(f"before ({args.ref}):")
                bench_workers(before_tree, counts, args.workers_repeat, only)
                print("after:")
            bench_workers(ROOT, counts, args.workers_repeat, only)


if __name__ == "__main__":
    main()
