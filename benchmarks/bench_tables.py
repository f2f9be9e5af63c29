"""Shared tables benchmark (a script, not a test; issue 25): how fast a move reaches the other
browsers at a table, and a bounded class-sized load on one store.

Two parts, each against a SQLite file and a PostgreSQL server (a real one: started here from
Debian's ``postgresql`` package with tests/pgserver.py, or ``--pg URL``):

(a) **latency**: 4 processes (the 4 "browsers" of one Moolah table of 4 people) play a table;
    each move is timed from the moment its append committed in the mover's process to the
    moment each other process has it applied to its own copy (its watcher woke, it read the
    store). Prints the median, p95 and p99 in ms over every (move, other browser) pair.
(b) **load**: ``--students`` processes, each playing a solo Moolah game (every action appended
    with the optimistic count check, ``--think`` seconds between a student's solo moves) and a
    seat at one of ``--tables`` tables of 4 (seats nobody holds are bots), for ``--seconds``.
    A table that ends is followed by the next of its series. Then checks every stored game:
    the actions each process had acknowledged as stored are all stored, once (0 lost, 0
    duplicated), and each process's final copy equals a replay of the stored actions. Prints
    moves/s and the move-to-other-browser latency percentiles at the tables.

The processes are kernels without widgets (:class:`moneynb.tables.TableSession`, what a
:class:`moneynb.ui.table.TableView` drives): the figures are the store's and the engine's,
not the page's.

Usage::

    python benchmarks/bench_tables.py                       # (a) and (b), both back ends
    python benchmarks/bench_tables.py --students 30 --tables 8 --seconds 60
    python benchmarks/bench_tables.py --only sqlite --seconds 20
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def pct(values, q):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))]


def fmt_ms(values) -> str:
    ms = [x * 1000 for x in values]
    return (f"n={len(ms)} median {pct(ms, 50):.0f} ms, p95 {pct(ms, 95):.0f} ms, "
            f"p99 {pct(ms, 99):.0f} ms")  # fmt: skip


# ----- one process: a seat at a series of tables, and (optionally) a solo game ----------------
def student(location, owner, table_ids, seconds, think, solo, out):
    """Play ``owner``'s seat at the tables ``table_ids`` (in turn: the next when one ends) and,
    if ``solo``, a solo game of its own, for ``seconds``. Puts a report dict on ``out``."""
    from moneynb.bots import make_bot
    from moneynb.core.registry import game_class
    from moneynb.store import ConflictError, open_store
    from moneynb.tables import TableSession, table_bot

    st = open_store(location)
    watcher = st.watch()
    stored_at: list[tuple[str, int, float]] = []  # (game id, count after, when) by me
    seen_at: list[tuple[str, int, float]] = []  # (game id, count, when first applied here)
    acked: dict[str, int] = {}  # game id -> actions this process stored
    finals: dict[str, list] = {}
    solo_game = solo_id = None
    if solo:
        g = game_class("moolah")(["You", "Greedy bot 1", "Greedy bot 2"], sum(map(ord, owner)))
        solo_game, solo_id = g, st.create(g.config(), seats=["human", "bot:greedy", "bot:greedy"],
                                          owner=owner, origin="bench")  # fmt: skip
    queue = list(table_ids)
    sess = TableSession(queue.pop(0), owner, st) if queue else None
    next_solo = time.monotonic()
    end = time.monotonic() + seconds
    moves = 0
    while time.monotonic() < end:
        did = False
        if sess is not None:
            before = sess.stored
            events = sess.sync()
            if sess.stored > before:
                seen_at.append((sess.game_id, sess.stored, time.time()))
            if events is None:
                seen_at.append((sess.game_id, sess.stored, time.time()))
            while sess.bot_to_move() or (sess.to_move in sess.mine):
                n = sess.stored
                s = sess.to_move
                bot = table_bot(sess.kind(s), sess.game, s) if sess.bot_to_move() else \
                    make_bot("greedy", seed=n)  # fmt: skip
                sess.game.apply(bot.choose(sess.game))
                try:
                    st.extend(sess.game_id, n, sess.game.actions[n:])
                    sess.stored = len(sess.game.actions)
                    acked[sess.game_id] = acked.get(sess.game_id, 0) + 1
                    stored_at.append((sess.game_id, sess.stored, time.time()))
                    moves += 1
                    did = True
                except ConflictError:
                    sess.sync()  # another kernel stored this bot move first
            if sess.game.over:
                finals[sess.game_id] = (list(sess.game.actions), sess.game.money())
                sess = TableSession(queue.pop(0), owner, st) if queue else None
                did = True
        if solo_game is not None and time.monotonic() >= next_solo and not solo_game.over:
            g = solo_game
            n = len(g.actions)
            seat = g.decision.player
            g.apply((make_bot("greedy", seed=n) if seat == 0 else table_bot("bot:greedy", g, seat))
                    .choose(g))  # fmt: skip
            st.append(solo_id, n, g.actions[-1])
            acked[solo_id] = acked.get(solo_id, 0) + 1
            moves += 1
            next_solo = time.monotonic() + think
            did = True
        if not did:
            watcher.wait(min(0.5, max(0.0, next_solo - time.monotonic())) if solo_game else 0.5)
    if sess is not None:
        sess.sync()
        finals[sess.game_id] = (list(sess.game.actions), sess.game.money())
    if solo_game is not None:
        finals[solo_id] = (list(solo_game.actions), solo_game.money())
    watcher.close()
    out.put({"owner": owner, "stored_at": stored_at, "seen_at": seen_at, "acked": acked,
             "finals": finals, "moves": moves})  # fmt: skip


def host_series(location, n_tables, per_series, humans_per_table, seed0=1):
    """``n_tables`` series of ``per_series`` tables of 4 (Moolah); returns
    ``[[game ids of series k]]`` and the owners of each series' human seats."""
    from moneynb.tables import host_table, join_table

    series, owners = [], []
    for k in range(n_tables):
        people = [f"hub:t{k}s{i}" for i in range(humans_per_table[k])]
        seats = [f"P{i}" for i in range(len(people))] + ["bot:greedy"] * (4 - len(people))
        ids = []
        for j in range(per_series):
            h = host_table("moolah", seats, owner=people[0] if people else "hub:teacher",
                           store=location, seed=seed0 + 100 * k + j,
                           seat=0 if people else -1)  # fmt: skip
            for i, who in enumerate(people[1:], start=1):
                join_table(h.code, f"P{i}", owner=who, store=location)
            ids.append(h.game_id)
        series.append(ids)
        owners.append(people)
    return series, owners


def run(location, owners_tables, seconds, think, solo_owners):
    """Start one process per owner; returns their reports."""
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    procs = []
    for owner, tables in owners_tables:
        p = ctx.Process(target=student, args=(location, owner, tables, seconds, think,
                                              owner in solo_owners, out))  # fmt: skip
        p.start()
        procs.append(p)
    reports = [out.get(timeout=seconds + 600) for _ in procs]
    for p in procs:
        p.join(60)
    return reports


def latencies(reports, table_ids) -> list[float]:
    """Seconds from a table move's commit (mover) to its arrival at each other process."""
    stored = {}
    for r in reports:
        for gid, n, t in r["stored_at"]:
            if gid in table_ids:
                stored[(gid, n)] = (t, r["owner"])
    out = []
    for r in reports:
        firsts = {}
        for gid, n, t in r["seen_at"]:
            firsts.setdefault((gid, n), t)
        # a read may bring several moves at once: each counts from its own commit
        for (gid, n), (t0, who) in stored.items():
            if who == r["owner"]:
                continue
            seen = [t for (g2, m), t in firsts.items() if g2 == gid and m >= n]
            if seen:
                out.append(max(0.0, min(seen) - t0))
    return out


def check(location, reports) -> tuple[int, int, int]:
    """(lost, duplicated, copies unequal to a replay) over every game the processes touched:
    lost = actions a process had acknowledged as stored that are not; duplicated = stored
    actions nobody acknowledged; unequal = a process's final copy (actions and money) that is
    not the replay of the stored actions (up to its length)."""
    import moneynb
    from moneynb.store import open_store

    st = open_store(location)
    acked: dict[str, int] = {}
    for r in reports:
        for gid, n in r["acked"].items():
            acked[gid] = acked.get(gid, 0) + n
    lost = dup = unequal = 0
    for gid, n in acked.items():
        stored = st.count(gid)
        lost += max(0, n - stored)
        dup += max(0, stored - n)
    for r in reports:
        for gid, (actions, money) in r["finals"].items():
            # the copy is the stored game as it was when this process stopped (a table's
            # others may have played on): the stored actions up to its length, replayed
            stored = moneynb.load_game(st.read(gid))
            replay = moneynb.new_game("moolah", players=list(stored.players), seed=stored.seed)
            for a in stored.actions[: len(actions)]:
                replay.apply(a)
            if replay.actions != actions or replay.money() != money:
                unequal += 1
    return lost, dup, unequal


def bench(location, label, args):
    from moneynb.store import open_store

    open_store(location)  # migrations once, here
    print(f"\n== {label}: {open_store(location).shown}")
    # (a) 4 browsers at one table of 4 people
    series, owners = host_series(location, 1, 3, [4])
    reports = run(location, [(o, series[0]) for o in owners[0]], args.latency_seconds, 0, set())
    lat = latencies(reports, set(series[0]))
    moves = sum(r["moves"] for r in reports)
    lost, dup, unequal = check(location, reports)
    print(f"(a) latency, 4 browsers at one table, {args.latency_seconds} s, {moves} moves: "
          f"{fmt_ms(lat)}; lost {lost}, duplicated {dup}, copies unequal to a replay {unequal}")  # fmt: skip
    # (b) the class
    s, t = args.students, args.tables
    humans = [0] * t
    for i in range(s):
        humans[i % t] += 1
    humans = [min(4, h) for h in humans]
    series, owners = host_series(location, t, 4, humans, seed0=1000)
    jobs = []
    for k in range(t):
        for o in owners[k]:
            jobs.append((o, series[k]))
    extra = [f"hub:solo{i}" for i in range(max(0, s - len(jobs)))]
    jobs += [(o, []) for o in extra]
    solo = {o for o, _ in jobs}
    t0 = time.monotonic()
    reports = run(location, jobs, args.seconds, args.think, solo)
    wall = time.monotonic() - t0
    all_tables = {g for ids in series for g in ids}
    lat = latencies(reports, all_tables)
    moves = sum(r["moves"] for r in reports)
    lost, dup, unequal = check(location, reports)
    print(f"(b) load: {len(jobs)} students (each a solo game, {sum(humans)} of them at {t} tables "
          f"of 4), {args.seconds} s (wall {wall:.0f} s with start-up): {moves} moves stored, "
          f"{moves / args.seconds:.1f} moves/s; table move to other browsers: {fmt_ms(lat)}; "
          f"lost {lost}, duplicated {dup}, copies unequal to a replay {unequal}")  # fmt: skip
    return lost + dup + unequal


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--latency-seconds", type=float, default=30)
    ap.add_argument("--think", type=float, default=0.5,
                    help="seconds between one student's solo moves")  # fmt: skip
    ap.add_argument("--only", choices=["sqlite", "postgresql"])
    ap.add_argument("--pg", help="a postgresql:// URL (default: start a server here)")
    args = ap.parse_args(argv)
    print(f"bench_tables: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    bad = 0
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory() as tmp:
            bad += bench(str(Path(tmp) / "class.sqlite3"), "SQLite", args)
    if args.only in (None, "postgresql"):
        if args.pg:
            bad += bench(args.pg, "PostgreSQL", args)
        else:
            sys.path.insert(0, str(REPO / "tests"))
            from pgserver import postgres_server

            with postgres_server() as server:
                bad += bench(server.new_database(), "PostgreSQL", args)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
