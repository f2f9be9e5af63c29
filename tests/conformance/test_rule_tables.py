"""The rulebook tables in docs/<game>.md name real tests, and every conformance test is listed.

Each game's docs page has a "Rulebook conformance" table: rule -> the test that plays it (``C:``
tests/conformance/test_<game>.py, ``T:`` tests/test_<game>.py) or a reconstruction.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["easy_money", "money_card", "moolah"]


def _table(game: str) -> str:
    text = (ROOT / "docs" / f"{game}.md").read_text()
    start = text.index("## Rulebook conformance")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def _tests(path: Path) -> set[str]:
    return set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))


@pytest.mark.parametrize("game", GAMES)
def test_every_test_named_in_the_table_exists(game):
    known = _tests(ROOT / "tests" / "conformance" / f"test_{game}.py")
    known |= _tests(ROOT / "tests" / f"test_{game}.py")
    named = set(re.findall(r"`(test_\w+)`", _table(game)))
    assert named, f"docs/{game}.md has no rule table"
    assert sorted(named - known) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_conformance_test_is_in_the_table_and_every_row_has_a_player(game):
    table = _table(game)
    conformance = _tests(ROOT / "tests" / "conformance" / f"test_{game}.py")
    assert sorted(t for t in conformance if f"`{t}`" not in table) == []
    rows = [r for r in table.splitlines() if re.match(r"\| \d+ \|", r)]
    assert rows
    for row in rows:
        played_by = row.rstrip(" |").rsplit("|", 1)[1]
        assert "test_" in played_by or "reconstruction" in played_by, row
    m = re.search(r"\*\*(\d+) rules traced\*\*", table)
    assert m and int(m.group(1)) == len(rows)
