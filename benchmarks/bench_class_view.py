"""The teacher's class view: how long one refresh takes (a script, not a test; issue 36).

Builds a class of ``--students`` students (default 30) on a fresh store (SQLite file, and a
PostgreSQL server started here with tests/pgserver.py unless ``--only sqlite``): each student
joined, played a solo Moolah game of ``--moves`` actions and posted a pooled result; ``--tables``
tables (default 8) of 4 seats (students, the rest greedy bots) played ``--moves`` actions each.
Then times :meth:`moneynb.ui.classroom.ClassroomView.redraw` (read the roster, every game of
the class, its lessons and results, and draw the page):

- **cold**: the first refresh (every game replayed once by the engine for its leader/winner);
- **warm**: a refresh with nothing changed (the replays remembered);
- **after a move**: one table moved once, then a refresh (one game replayed again).

Prints the median and the maximum of ``--repeat`` runs, in milliseconds.

Usage::

    python benchmarks/bench_class_view.py
    python benchmarks/bench_class_view.py --students 30 --tables 8 --only sqlite
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

TEACHER = "hub:teacher"


def build(location: str, students: int, tables: int, moves: int):
    import moneynb
    from moneynb.bots import make_bot
    from moneynb.store import open_store
    from moneynb.tables import host_table, join_table

    st = open_store(location, fresh=True)
    k = st.open_class("Bench class", TEACHER)
    owners = [f"hub:s{i:02d}" for i in range(students)]
    for i, o in enumerate(owners):
        st.join_class(k.code, o, f"Student {i + 1}")
        g = moneynb.new_game("moolah", players=["You", "Greedy bot 1"], seed=i)
        bot = make_bot("greedy", seed=i)
        for _ in range(moves):
            if g.over:
                break
            g.apply(bot.choose(g))
        st.create(g.config(), seats=["human", "bot:greedy"], owner=o, origin="lab",
                  actions=g.actions, status={"over": g.over, "to_move": "You"})  # fmt: skip
        st.post_class_result("dice-10", o, 3.5 + (i % 7) / 10, seed=i)
    sessions = []
    for t in range(tables):
        a, b = owners[(2 * t) % students], owners[(2 * t + 1) % students]
        h = host_table("moolah", ["A", "B", "bot:greedy", "bot:greedy"], owner=a,
                       store=st, seed=100 + t)  # fmt: skip
        join_table(h.code, "B", owner=b, store=st)
        g = moneynb.load_game(st.read(h.game_id))
        bot = make_bot("greedy", seed=t)
        for _ in range(moves):  # every seat's moves, stored as the table's kernels would
            if g.over:
                break
            g.apply(bot.choose(g))
        st.extend(h.game_id, 0, g.actions, status={"to_move": g.players[g.decision.player]})
        sessions.append((h.game_id, g, bot))
    return st, k, sessions


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def run(label: str, location: str, args) -> None:
    from moneynb.ui.classroom import ClassroomView

    st, k, sessions = build(location, args.students, args.tables, args.moves)
    cold, warm, moved = [], [], []
    for r in range(args.repeat):
        view = ClassroomView(st, owner=TEACHER, class_id=k.id, watch=False)  # draws once
        view._replays.clear()
        cold.append(timed(view.redraw))
        warm.append(timed(view.redraw))
        gid, g, bot = sessions[r % len(sessions)]
        if not g.over:
            a = bot.choose(g)
            st.append(gid, len(g.actions), a)
            g.apply(a)
        moved.append(timed(view.redraw))
        view.close()
    games = st.count_class_games(k.id, TEACHER)
    print(f"{label}: {args.students} students, {args.tables} tables, {games} games, "
          f"{args.moves} actions each")  # fmt: skip
    for name, xs in (("cold", cold), ("warm", warm), ("after a move", moved)):
        print(f"  refresh {name:13s} median {statistics.median(xs):7.1f} ms   "
              f"max {max(xs):7.1f} ms   ({len(xs)} runs)")  # fmt: skip
    st.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", choices=["sqlite", "postgresql"])
    args = ap.parse_args()
    if args.only != "postgresql":
        run("SQLite", str(Path(tempfile.mkdtemp()) / "bench.sqlite3"), args)
    if args.only != "sqlite":
        from pgserver import postgres_server

        with postgres_server() as pg:
            run("PostgreSQL", pg.new_database(), args)


if __name__ == "__main__":
    os.environ.setdefault("MONEYNB_TEACHERS", "teacher")
    main()
