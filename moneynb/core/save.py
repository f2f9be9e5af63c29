"""Save files: JSON text of a game's config, seed and actions; loading replays them.

Schema (version 1)::

    {"format": "moneynb-game", "version": 1, "game": "money_moves",
     "players": ["Ann", "Bob"], "seed": 7, "options": {...}, "actions": [...]}

Source: DESIGN.md ("save = config + seed + actions (JSON); load = replay").
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from .errors import IllegalAction, SaveFileError
from .game import MAX_ACTION_DEPTH

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

FORMAT = "moneynb-game"
VERSION = 1
_KEYS = {"format", "version", "game", "players", "seed", "options", "actions"}


def dumps(game: Game) -> str:
    """JSON text of ``game`` (config + seed + actions)."""
    doc = {"format": FORMAT, "version": VERSION, **game.config(), "actions": game.actions}
    return json.dumps(doc)


def _json_value_ok(v, depth: int = 0) -> bool:
    if v is None or isinstance(v, (bool, int, str)):
        return True
    if isinstance(v, list) and depth < MAX_ACTION_DEPTH:
        return all(_json_value_ok(x, depth + 1) for x in v)
    return False


def loads(text: str | bytes) -> Game:
    """Rebuild a game from save-file text by replaying its actions.

    Raises:
        SaveFileError: not JSON, not an object, wrong format or version, a missing, extra or
            ill-typed field, an unknown game, a bad config, or an action that is not legal
            where it stands (a tampered file). The message names what is wrong.
    """
    from .registry import game_class

    if isinstance(text, os.PathLike) or (
        isinstance(text, str) and text.strip().endswith(".json") and "{" not in text
    ):
        raise SaveFileError(
            f"load_game takes the save file's JSON text, not a path ({text!s}): "
            "use moneynb.load_game(pathlib.Path(path).read_text())"
        )
    try:
        doc = json.loads(text)
    except (TypeError, ValueError) as e:
        raise SaveFileError(f"a save file must be JSON text: {e}") from None
    except RecursionError:
        raise SaveFileError("a save file must be JSON text: it nests too deeply") from None
    if not isinstance(doc, dict):
        raise SaveFileError("a save file must be a JSON object")
    if doc.get("format") != FORMAT:
        raise SaveFileError(f"not a moneynb save file (format is {doc.get('format')!r})")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise SaveFileError(
            f"save file version {doc.get('version')!r} is not supported (this moneynb reads {VERSION})"
        )
    missing, extra = _KEYS - doc.keys(), doc.keys() - _KEYS
    if missing or extra:
        raise SaveFileError(
            f"save file fields wrong: missing {sorted(missing)}, extra {sorted(extra)}"
        )
    if not isinstance(doc["game"], str):
        raise SaveFileError("'game' must be a string")
    if not isinstance(doc["players"], list) or not all(isinstance(p, str) for p in doc["players"]):
        raise SaveFileError("'players' must be a list of names")
    if type(doc["seed"]) is not int:
        raise SaveFileError("'seed' must be an integer")
    if not isinstance(doc["options"], dict):
        raise SaveFileError("'options' must be an object")
    if not isinstance(doc["actions"], list) or not all(_json_value_ok(a) for a in doc["actions"]):
        raise SaveFileError(
            "'actions' must be a list of JSON strings, integers or lists "
            f"(nested at most {MAX_ACTION_DEPTH} deep)"
        )
    try:
        cls = game_class(doc["game"])
        game = cls(doc["players"], doc["seed"], **doc["options"])
    except ValueError as e:
        raise SaveFileError(f"save file config is not valid: {e}") from None
    for i, action in enumerate(doc["actions"]):
        try:
            game.apply(action)
        except IllegalAction as e:
            raise SaveFileError(f"action #{i} ({action!r}) cannot be replayed: {e}") from None
    return game
