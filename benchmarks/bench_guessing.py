"""Guessing benchmark (a script, not a test; issue 35, case 6): how many join codes and teacher
passcodes one kernel can try per second against a real SQLite store, and how many of those
tries are actually looked at (the others are refused with "too many tries: wait N s").

Four guessers, each for ``--seconds``:

- join codes from one browser (one owner), every code wrong;
- join codes from a guesser that forges a new browser id for every try (what clearing
  ``localStorage`` and reloading does): only the per-server limit holds it;
- teacher passcodes from one browser;
- teacher passcodes with a new browser id each try.

Prints tries/s (calls answered), looked-at guesses/s (a wrong code told as wrong: the only
tries that teach the guesser anything) over the whole run and over its second half (after the
free tries: the steady rate), and, for join codes, the expected time to find one of
``--tables`` open tables at the steady rate (64 million codes).

Run it against the code before the limits (``PYTHONPATH=/path/to/old/checkout``: it then
uses no limits API) and after, from one kernel::

    python benchmarks/bench_guessing.py --seconds 5
"""

from __future__ import annotations

import argparse
import os
import secrets
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--tables", type=int, default=10, help="open tables a guesser may hit")
    args = ap.parse_args()

    import moneynb
    from moneynb.store import NoSuchGame, StoreError, teacher_passcode_ok
    from moneynb.tables import ALPHABET, host_table, join_table

    try:
        from moneynb.store import TooManyTries
    except ImportError:  # before issue 35: no limits
        TooManyTries = None  # noqa: N806
    folder = tempfile.mkdtemp(prefix="moneynb-guess-")
    store = str(Path(folder) / "games.sqlite3")
    os.environ["MONEYNB_TEACHER_PASSCODE"] = "owl-" + secrets.token_hex(4)
    codes = {host_table("moolah", ["Ann", "Bob"], owner="hub:host", store=store).code
             for _ in range(args.tables)}  # fmt: skip
    print(f"moneynb from {Path(moneynb.__file__).parent}; limits: "
          f"{'yes' if TooManyTries else 'none'}; {args.tables} open tables")  # fmt: skip

    def wrong_code():
        while True:
            c = "".join(secrets.choice(ALPHABET) for _ in range(6))
            if c not in codes:
                return c

    def run(label, attempt):
        tries = looked = refused = late = 0
        t0 = time.perf_counter()
        while (now := time.perf_counter()) - t0 < args.seconds:
            tries += 1
            try:
                attempt(tries)
                looked += 1
                late += now - t0 >= args.seconds / 2
            except NoSuchGame:
                looked += 1
                late += now - t0 >= args.seconds / 2
            except StoreError as e:  # TooManyTries: refused, nothing learned
                if TooManyTries is None or not isinstance(e, TooManyTries):
                    raise
                refused += 1
        dt = time.perf_counter() - t0
        rate, steady = looked / dt, late / (dt / 2)
        line = (f"{label:<44} tries/s {tries / dt:8.0f}   looked-at guesses/s {rate:9.2f} "
                f"(second half {steady:9.2f})   refused {refused}")  # fmt: skip
        if label.startswith("join") and steady > 0:
            days = (len(ALPHABET) ** 6 / args.tables / 2) / steady / 86400
            line += f"   at that rate one of the tables is hit in {days:,.1f} days"
        print(line, flush=True)

    def code_one(_i):
        join_table(wrong_code(), owner="browser:" + "a" * 32, store=store)

    def code_forged(i):
        join_table(wrong_code(), owner=f"browser:{i:032x}", store=store)

    def passcode(owner_of):
        def go(i):
            kw = {"owner": owner_of(i), "store": store} if TooManyTries else {}
            if teacher_passcode_ok("guess-" + secrets.token_hex(3), **kw):
                raise AssertionError("guessed")
            raise NoSuchGame("wrong")  # a wrong passcode told as wrong

        return go

    run("join codes, one browser", code_one)
    run("join codes, a new browser id each try", code_forged)
    run("teacher passcode, one browser", passcode(lambda i: "browser:" + "b" * 32))
    run("teacher passcode, a new browser id each try", passcode(lambda i: f"browser:{i:032x}"))


if __name__ == "__main__":
    main()
