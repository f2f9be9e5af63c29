"""Replay memory and time for a very long save (a script, not a test; issue 26 item 7).

Builds (once, cached in the temp folder) a legal Money Run save of ``--actions`` actions
(random bots that never move a pawn, ``max_rounds`` large enough), then in a fresh process per measurement:

* ``load``: :func:`moneynb.load_game` of the save (a full replay of every action);
* ``replay``: building :class:`moneynb.core.replay.Replay` from the save text, with the
  snapshots it keeps and the process's peak resident memory (``ru_maxrss``) above the
  baseline after the save is read;
* ``scrub``: median and p90 of :meth:`Replay.state` at ``--jumps`` random steps;
* ``refuse``: how long a save of ``--huge`` actions (``["x"]`` repeated) takes to be refused.

Before issue 26 (measured on the same machine): a 100,000-action save took 89 s and 3.2 GB
to replay (4,001 snapshots); a 7,000,000-action save 17 s to be refused.

Usage::

    python benchmarks/bench_replay_memory.py                  # 100,000 actions
    python benchmarks/bench_replay_memory.py --actions 20000 --jumps 50
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import moneynb
from moneynb.bots import random_action


def make_save(n: int) -> Path:
    path = Path(tempfile.gettempdir()) / f"moneynb-bench-money-run-{n}.json"
    if path.exists():
        return path
    # random bots that never move their pawns (they would reach the far side in a few
    # thousand actions): coins are placed and moved, turns ended, for ``n`` actions
    g = moneynb.new_game("money_run", players=["Ann", "Bob"], seed=1, max_rounds=10**6)
    rng = random.Random(1)
    while not g.over and len(g.actions) < n:
        a = random_action(g.decision, rng)
        g.apply("end_turn" if type(a) is tuple and a[0] == "pawn" else a)
    if len(g.actions) < n:
        raise SystemExit(f"the game ended after {len(g.actions)} actions")
    path.write_text(g.to_json(), encoding="utf-8")
    return path


def measure(path: str, jumps: int) -> dict:
    from moneynb.core.replay import Replay

    text = Path(path).read_text(encoding="utf-8")
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    moneynb.load_game(text)
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    r = Replay(text)
    build_s = time.perf_counter() - t0
    peak_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    rng = random.Random(1)
    times = []
    for _ in range(jumps):
        i = rng.randrange(r.n + 1)
        t0 = time.perf_counter()
        r.state(i)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "actions": r.n,
        "load_s": round(load_s, 2),
        "replay_build_s": round(build_s, 2),
        "snapshots": len(r._snaps),
        "every": r.every,
        "peak_rss_above_baseline_mb": round(peak_mb, 1),
        "scrub_median_ms": round(statistics.median(times), 2),
        "scrub_p90_ms": round(times[int(0.9 * (len(times) - 1))], 2),
    }


def refuse(n: int) -> dict:
    doc = {"format": "moneynb-game", "version": 1, "game": "money_run",
           "players": ["Ann", "Bob"], "seed": 1, "options": {}, "actions": ["x"] * n}  # fmt: skip
    text = json.dumps(doc)
    t0 = time.perf_counter()
    try:
        moneynb.load_game(text)
        outcome = "loaded?!"
    except moneynb.SaveFileError as e:
        outcome = str(e)[:100]
    return {"huge_actions": n, "refused_in_s": round(time.perf_counter() - t0, 3), "why": outcome}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=100_000)
    ap.add_argument("--jumps", type=int, default=100)
    ap.add_argument("--huge", type=int, default=7_000_000)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(measure(a.child, a.jumps)))
        return
    path = make_save(a.actions)
    out = subprocess.run([sys.executable, __file__, "--child", str(path), "--jumps",
                          str(a.jumps)], capture_output=True, text=True, check=True)  # fmt: skip
    print(out.stdout.strip())
    print(json.dumps(refuse(a.huge)))


if __name__ == "__main__":
    main()
