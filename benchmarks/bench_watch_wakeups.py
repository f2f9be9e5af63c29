"""How often table views wake up for writes that are not theirs (issue 35, the store).

Ten views follow ten tables of one SQLite store (``moneynb.store.store.follow`` with the
table's game id, as ``moneynb.ui.table.TableView`` does); an eleventh game gets a move every
20 ms for 10 s. Prints the wake-ups (``on_change`` calls after the first) per view and in
all: a view should wake only for its own game, so the figure should be 0 (issue 35 measured
956 in 10 s before the watcher compared the game's own row).

Usage: ``python benchmarks/bench_watch_wakeups.py [seconds]``
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

import moneynb
from moneynb.store import open_store
from moneynb.store.store import follow


def main(seconds: float = 10.0, views: int = 10) -> int:
    folder = tempfile.mkdtemp(prefix="moneynb-wake-")
    store = open_store(Path(folder) / "games.sqlite3")
    config = moneynb.new_game("moolah", ["Ann", "Bob"], seed=1).config()
    ids = [store.create(config, owner="hub:x", table=f"T{i:05d}") for i in range(views)]
    busy = store.create(config, owner="hub:y")
    counts = [0] * views
    stop = threading.Event()

    def view(i: int) -> None:
        def on_change() -> None:
            counts[i] += 1

        follow(store, stop, on_change, on_error=print, wait_s=0.5, recheck_s=3600, game_id=ids[i])

    threads = [threading.Thread(target=view, args=(i,), daemon=True) for i in range(views)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # every view has listened (its first on_change)
    game = moneynb.load_game(store.read(busy))
    writes = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        store.set_status(busy, {"turn": f"write {writes}"})
        writes += 1
        time.sleep(0.02)
    stop.set()
    for t in threads:
        t.join(timeout=5)
    del game
    wakeups = sum(c - 1 for c in counts)  # the first call is the view's start
    print(
        f"{views} views, {writes} writes to another game in {seconds:g} s: "
        f"{wakeups} wake-ups in all (per view: {[c - 1 for c in counts]})"
    )
    return wakeups


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
