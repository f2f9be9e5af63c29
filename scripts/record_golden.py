"""Record the golden seeded games: tests/golden/<game>.json, one file per game.

Run: ``PYTHONPATH=<checkout> python scripts/record_golden.py [game ...]`` (default: every game).
``tests/test_golden.py`` plays the same games again and compares them byte for byte, so a change
meant to leave the games alone (engine speed work, refactoring) can be shown to do so.

Each golden game is a seed, a line-up of bots ("greedy", "random") and the game's options
(mostly the defaults); bot ``k`` has seed ``10 * seed + k``. Options without ``chance_streams``
play it as 1 (one random stream for all chance), as a save file without it does: the records
were made before streams per kind of chance (issue 39); a record of version 2 says so. For every game the file keeps:

* ``actions``: the full action list; ``save``: the final ``to_json()`` text;
* ``money``, ``scores``, ``winners`` at the end;
* ``log_sha256``: SHA-256 of every event's kind and text, one per line, in order;
* ``decisions_sha256``: SHA-256 of every decision met (player, kind, prompt, options, range,
  step, tag and the option labels), one per line, in order.

Re-record only for a deliberate rule change, in its own commit whose message names the rule
that changed the games; a speed change must reproduce these files exactly.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"

#: game -> list of (bot line-up, seeds, options); seat i is named "<bot><i+1>"
SETUPS: dict[str, list[tuple[list[str], list[int], dict]]] = {
    "money_moves": [
        (["greedy", "greedy", "greedy"], [1, 2, 3, 4, 5, 6], {}),
        (["greedy", "random"], [7, 8, 9], {}),
        (["random", "random", "greedy", "random", "greedy"], [10], {}),
        (["greedy", "greedy", "greedy", "greedy"], [11, 12], {"rounds": 3}),
    ],
    "moolah": [
        (["greedy", "greedy", "greedy"], [1, 2, 3, 4, 5, 6], {}),
        (["greedy", "random"], [7, 8, 9], {}),
        (["random", "random", "greedy", "random", "greedy"], [10], {}),
        (["greedy", "greedy", "greedy", "greedy"], [11, 12], {"max_turns": 60}),
    ],
    "easy_money": [
        (["greedy", "greedy", "greedy", "greedy"], [1, 2, 3, 4, 5, 6], {}),
        (["greedy", "random"], [7, 8, 9], {}),
        (["random", "random", "greedy"], [10], {}),
        (["greedy", "greedy", "greedy"], [11, 12], {"rule_of_four": False, "max_rounds": 30}),
    ],
    "money_card": [
        (["greedy", "greedy", "greedy"], [1, 2, 3, 4, 5, 6], {}),
        (["greedy", "random"], [7, 8, 9], {}),
        (["random", "random", "greedy", "random"], [10], {}),
        (["greedy", "greedy", "greedy", "greedy"], [11, 12], {"cheques": 100, "jump_fee": 50}),
    ],
    "money_run": [
        (["greedy", "greedy"], [1, 2, 3, 4, 5, 6], {}),
        (["greedy", "random", "greedy"], [7, 8, 9], {}),
        (["random", "random", "random", "greedy"], [10], {}),
        (["greedy", "greedy", "greedy"], [11, 12], {"max_rounds": 20}),
    ],
}


def _sha(lines) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


def _decision_line(d) -> str:
    labels = [(repr(o), d.label(o)) for o in d.options]
    return repr((d.player, d.kind, d.prompt, d.options, d.low, d.high, d.step, d.tag, labels))


def play_golden(game: str, bots: list[str], seed: int, options: dict | None = None) -> dict:
    """Play one golden game and return its record (see the module docstring).

    Raises:
        RuntimeError: the game did not end within 200,000 actions.
    """
    import moneynb

    names = [f"{b}{i + 1}" for i, b in enumerate(bots)]
    # a record without chance_streams is version 1, as a save file without it: every golden
    # game was recorded with the one stream all chance then came from (issue 39, case 7)
    g = moneynb.new_game(game, players=names, seed=seed, **{"chance_streams": 1, **(options or {})})
    players = [moneynb.make_bot(b, seed=10 * seed + k) for k, b in enumerate(bots)]
    decisions = []
    while not g.over:
        if len(decisions) >= 200_000:
            raise RuntimeError(f"{game} seed {seed} did not end within 200,000 actions")
        d = g.decision
        decisions.append(_decision_line(d))
        g.apply(players[d.player].choose(g))
    return {
        "bots": bots,
        "seed": seed,
        "options": options or {},
        "actions": json.loads(g.to_json())["actions"],
        "save": g.to_json(),
        "money": g.money(),
        "scores": g.scores(),
        "winners": g.winner_names,
        "log_sha256": _sha(f"{e.kind}\t{e.text}" for e in g.log),
        "decisions_sha256": _sha(decisions),
    }


def record(game: str) -> list[dict]:
    """All golden records of ``game``, in the order of :data:`SETUPS`."""
    return [play_golden(game, b, s, o) for b, seeds, o in SETUPS[game] for s in seeds]


def dump(records: list[dict]) -> str:
    """The golden file's text (one record per line keeps diffs readable)."""
    return "[\n" + ",\n".join(json.dumps(r, sort_keys=True) for r in records) + "\n]\n"


def main(games: list[str]) -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for game in games or list(SETUPS):
        path = GOLDEN_DIR / f"{game}.json"
        path.write_text(dump(record(game)))
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
