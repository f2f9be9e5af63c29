"""Table latency across two hub users with the moneynb service in the path (issue 35).

Starts a real PostgreSQL and a real JupyterHub configured by ``docs/jupyterhub_config.py``
(tests/hubserver.py), gives two users (ann, bob) tokens through the hub's REST API, and plays a
two-seat table between them through the service (:class:`moneynb.store.hub.HubStore`). Each
user's watcher (a long poll on the service, as a table view's) runs in its own thread. For each
move: the time from the mover's ``append`` call to the other user's watcher waking (what a
student waits for the other's move to reach their kernel), and the append's own round trip
(the service replays and checks the move with the engine).

Usage: ``python benchmarks/bench_hub_tables.py [moves]`` (default 50). Prints median and p95.
"""

from __future__ import annotations

import queue
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

import moneynb  # noqa: E402
from moneynb.store.hub import HubStore  # noqa: E402
from moneynb.tables import host_table, join_table  # noqa: E402

SCOPES = ["users:activity!user", "access:services!service=moneynb"]


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def main(moves: int = 50) -> None:
    from hubserver import jupyterhub
    from pgserver import postgres_server

    with postgres_server() as pg, jupyterhub(pg.new_database(), ["ann", "bob"]) as hub:
        stores = {u: HubStore(hub.service_url, hub.token(u, SCOPES)) for u in ("ann", "bob")}
        woke: dict[str, queue.Queue] = {u: queue.Queue() for u in stores}
        stop = threading.Event()
        played = 0
        append_ms: list[float] = []
        seen_ms: list[float] = []
        while played < moves:
            h = host_table("moolah", ["Ann", "Bob"], owner="hub:ann", store=stores["ann"])
            join_table(h.code, "Bob", owner="hub:bob", store=stores["bob"])
            owners = ["ann", "bob"]

            def follow(user: str, gid: str = h.game_id) -> None:
                w = stores[user].watch(gid)
                while not stop.is_set():
                    if w.wait(1.0):
                        woke[user].put(time.perf_counter())

            threads = [threading.Thread(target=follow, args=(u,), daemon=True) for u in owners]
            for t in threads:
                t.start()
            time.sleep(0.5)
            game = moneynb.load_game(stores["ann"].read(h.game_id))
            bot = moneynb.make_bot("greedy", seed=3)
            while not game.over and played < moves:
                mover = owners[game.decision.player]
                other = owners[1 - game.decision.player]
                action = bot.choose(game)
                for q in woke.values():  # wake-ups of earlier moves
                    while not q.empty():
                        q.get_nowait()
                t0 = time.perf_counter()
                stores[mover].append(h.game_id, len(game.actions), action)
                t1 = time.perf_counter()
                t2 = woke[other].get(timeout=30)
                game.apply(action)
                append_ms.append((t1 - t0) * 1000)
                seen_ms.append((t2 - t0) * 1000)
                played += 1
            stop.set()
            for t in threads:
                t.join(5)
            stop.clear()
        print(f"{played} moves at a table of two hub users, through the moneynb service "
              f"(PostgreSQL behind it):")  # fmt: skip
        print(f"  append (service replays and checks the move): median "
              f"{statistics.median(append_ms):.1f} ms, p95 {p95(append_ms):.1f} ms")  # fmt: skip
        print(f"  the other user's watcher sees it: median {statistics.median(seen_ms):.1f} ms, "
              f"p95 {p95(seen_ms):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
