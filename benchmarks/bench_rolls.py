"""Benchmark: rolls per second of the vectorised token Monte Carlo (one core).

Run: ``python benchmarks/bench_rolls.py`` (target: at least 20 million rolls/s).
Each roll is two dice plus the full movement rules of the track (go-to spaces, doubles roll
again with a limit of three, a waiting space), looked up in the compiled chain's table.
Also times Easy Money's and Moolah's own tracks when their data files are present.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

from moneynb.analysis.markov import TrackModel  # noqa: E402
from moneynb.analysis.montecarlo import simulate_tokens  # noqa: E402


def bench(chain, label: str, n_tokens: int = 1_000_000, n_steps: int = 50, repeat: int = 3):
    """Print and return the best rolls/s over ``repeat`` runs."""
    simulate_tokens(chain, 10_000, 2, seed=0)  # warm up
    best = 0.0
    for r in range(repeat):
        t = time.perf_counter()
        simulate_tokens(chain, n_tokens, n_steps, seed=r)
        dt = time.perf_counter() - t
        best = max(best, n_tokens * n_steps / dt)
    print(f"{label:<45s} {best / 1e6:8.1f} million rolls/s  ({chain.n_states} states)")
    return best


def main():
    generic = TrackModel(
        40,
        roll_again=True,
        max_doubles=3,
        doubles_target=10,
        go_to={30: 10},
        waits={10: (1, 11)},
    ).compile()
    bench(generic, "40-space loop, 2d6, doubles, go-to, wait")
    try:
        from moneynb.analysis.tracks import easy_money_track, moolah_track

        for name, make in (("Easy Money track", easy_money_track), ("Moolah track", moolah_track)):
            try:
                bench(make().compile(), name)
            except (ValueError, ImportError) as e:
                print(f"{name}: not available ({e})")
    except ImportError:
        pass


if __name__ == "__main__":
    main()
