"""How much better than greedy is the rollout teacher itself? (issue 29, fourth round)

The teacher of ``train_maskable_ppo.py`` (:class:`RolloutTeacher`: play-outs at the money
decisions, greedy elsewhere) plays one seat against the greedy bot on duplicate deals (game
``i``: seed 1,000,000 + ``i // 2``, the teacher in seat ``i % 2``, so every deal is played
from both seats), straight on the engine (no env, no network). It bounds what imitating the
teacher can give a learner. Prints every game, then the sole wins with the Wilson 95% interval
and the paired 95% interval over the deals, and how the pairs split (both won, one, none)::

    python benchmarks/teacher_vs_greedy.py moolah 0 100 &      # games 0..99
    python benchmarks/teacher_vs_greedy.py moolah 100 200 &    # games 100..199, another core
    python benchmarks/teacher_vs_greedy.py moolah --summary    # both ranges' records together

Options: ``--tags`` (default the game's ``TEACHER_TAGS``), ``--playouts`` (24), ``--turns``
(play-outs to the seat's k-th turn instead of the end). Records go to
``runs/teacher/<game>-<first>-<last>.json`` (``(game, seat, sole win)`` rows).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_maskable_ppo import (  # noqa: E402
    EVAL_SEED,
    TEACHER_TAGS,
    RolloutTeacher,
    eval_seed,
    paired_interval,
)


def play(game: str, first: int, last: int, tags: str, playouts: int, turns, out: Path) -> list:
    """Games ``first..last-1`` of the teacher against greedy; returns and saves the records."""
    from moneynb import new_game
    from moneynb.bots import GreedyBot

    record = []
    t0 = time.process_time()
    for i in range(first, last):
        seat = i % 2
        g = new_game(game, players=["A", "B"], seed=eval_seed(i, True, EVAL_SEED))
        bots = [None, None]
        bots[seat] = RolloutTeacher(set(tags.split(",")), playouts, seed=i, turns=turns)
        bots[1 - seat] = GreedyBot(seed=i)
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
        won = g.winners == [seat]
        record.append((i, seat, won))
        print(i, seat, won, f"{time.process_time() - t0:.0f} s", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{game}-{first}-{last}.json").write_text(json.dumps(record))
    return record


def summary(game: str, out: Path) -> None:
    """Print the figures over every saved record of ``game``."""
    from moneynb.analysis.stats import wilson_interval

    record = []
    for f in sorted(out.glob(f"{game}-*.json")):
        record += json.loads(f.read_text())
    won, n = sum(r[2] for r in record), len(record)
    low, high = wilson_interval(won, n)
    p = paired_interval(record)
    deals: dict = {}
    for i, _seat, w in record:
        deals.setdefault(i // 2, []).append(w)
    split = Counter(sum(v) for v in deals.values() if len(v) == 2)
    print(f"{game}: teacher {won}/{n} = {won / n:.3f} (Wilson {low:.3f} to {high:.3f})")
    if p:
        print(f"  paired over {p['pairs']} deals: {p['mean']:.3f} ({p['low']:.3f} to "
              f"{p['high']:.3f}); deals won twice {split[2]}, once {split[1]}, never {split[0]}")  # fmt: skip


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("first", nargs="?", type=int, default=0)
    ap.add_argument("last", nargs="?", type=int, default=200)
    ap.add_argument("--tags", default=None)
    ap.add_argument("--playouts", type=int, default=24)
    ap.add_argument("--turns", type=int, default=None)
    ap.add_argument("--out", default="runs/teacher")
    ap.add_argument("--summary", action="store_true")
    a = ap.parse_args(argv)
    out = Path(a.out)
    if not a.summary:
        play(a.game, a.first, a.last, a.tags or TEACHER_TAGS[a.game], a.playouts, a.turns, out)
    summary(a.game, out)


if __name__ == "__main__":
    main()
