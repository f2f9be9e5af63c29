"""Golden seeded games: the same seeds and bots play exactly the recorded games.

The records in tests/golden/<game>.json were made by scripts/record_golden.py. A change that
is not meant to change any game (engine speed work, refactoring) must reproduce them byte for
byte: the action list, the final ``to_json()``, money, scores, winners, and hashes of every
event's text and every decision met. A deliberate rule change re-records them in its own commit.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("record_golden", ROOT / "scripts/record_golden.py")
record_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record_golden)

GAMES = list(record_golden.SETUPS)


def _stored(game: str) -> list[dict]:
    return json.loads((record_golden.GOLDEN_DIR / f"{game}.json").read_text())


@pytest.mark.parametrize("game", GAMES)
def test_golden_games_replay_byte_identically(game):
    stored_text = (record_golden.GOLDEN_DIR / f"{game}.json").read_text()
    stored = json.loads(stored_text)
    assert len(stored) == sum(len(seeds) for _, seeds, _ in record_golden.SETUPS[game])
    for old in stored:
        new = record_golden.play_golden(game, old["bots"], old["seed"], old["options"])
        where = f"{game} seed {old['seed']} bots {old['bots']}"
        pairs = zip(old["actions"], new["actions"], strict=False)  # lengths may differ
        first_diff = next(
            (i for i, (a, b) in enumerate(pairs) if a != b),
            min(len(old["actions"]), len(new["actions"])),
        )
        assert new["actions"] == old["actions"], f"{where}: actions differ from #{first_diff}"
        assert new["save"] == old["save"], f"{where}: to_json() differs"
        for key in ("money", "scores", "winners", "log_sha256", "decisions_sha256"):
            assert new[key] == old[key], f"{where}: {key} differs"
    # and the whole file, byte for byte (also catches a change in the file's own format)
    assert record_golden.dump(record_golden.record(game)) == stored_text


@pytest.mark.parametrize("game", GAMES)
def test_golden_records_tell_games_apart(game):
    """Another seed plays another game, so matching the record means something."""
    old = _stored(game)[0]
    other = record_golden.play_golden(game, old["bots"], old["seed"] + 1000, old["options"])
    assert other["save"] != old["save"]
    assert other["log_sha256"] != old["log_sha256"]
    assert other["decisions_sha256"] != old["decisions_sha256"]
