"""What tracing a new game's chance costs ``Store.create`` (``_provenance``: the store compares
the new game with the owner's earlier games of the same game).

One owner holds ``earlier`` stored Money Moves games (a random seed each, 40 actions each;
``same`` of them share one seed, the worst case: each has its first moves read and compared).
Then ``n`` games are created, alternately a new seed and the shared seed with 4 moves (a
branch), with the tracing as it is and with it switched off (``_provenance`` answering
"nothing known"), in the same run. Prints the median and p95 milliseconds per create.

Usage: ``python benchmarks/bench_provenance.py [sqlite|postgresql://...] [earlier] [same]``
"""

from __future__ import annotations

import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

import moneynb
from moneynb.bots import make_bot
from moneynb.store import open_store
from moneynb.store import store as store_module


def _played(seed: int, moves: int):
    g = moneynb.new_game("money_moves", ["Ann", "Bot"], seed=seed)
    bot = make_bot("greedy", seed=1)
    for _ in range(moves):
        if g.over:
            break
        g.apply(bot.choose(g))
    return g


def main(location: str = "sqlite", earlier: int = 500, same: int = 20, n: int = 100) -> None:
    if location == "sqlite":
        location = str(Path(tempfile.mkdtemp(prefix="moneynb-prov-")) / "games.sqlite3")
    st = open_store(location, fresh=True)
    owner = "hub:ann"
    shared = 12345
    base = _played(shared, 40)
    for i in range(earlier):
        g = base if i < same else _played(secrets.randbits(62), 40)
        st.create(g.config(), owner=owner, actions=g.actions)
    branch = _played(shared, 4)
    real = store_module._provenance

    def off(*_a, **_k):
        return {"branch_of": None, "branch_at": None, "chance": None, "chance_from": None}, None

    times: dict[str, list[float]] = {"traced": [], "off": []}
    for i in range(n):
        g = branch if i % 2 else _played(secrets.randbits(62), 0)
        for name in ("off", "traced") if i % 4 < 2 else ("traced", "off"):
            store_module._provenance = real if name == "traced" else off
            t = time.perf_counter()
            st.create(g.config(), owner=owner, actions=g.actions)
            times[name].append((time.perf_counter() - t) * 1000)
    store_module._provenance = real
    for name, ts in times.items():
        ts.sort()
        print(f"{name:7s} create: median {statistics.median(ts):6.2f} ms, "
              f"p95 {ts[int(0.95 * len(ts)) - 1]:6.2f} ms ({len(ts)} creates, {earlier} earlier "
              f"games of the owner, {same} of one seed)")  # fmt: skip
    st.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "sqlite", *(int(a) for a in args[1:3]))
