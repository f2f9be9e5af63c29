"""Save files: JSON text of a game's config, seed and actions; loading replays them.

Schema (version 1)::

    {"format": "moneynb-game", "version": 1, "game": "money_moves",
     "players": ["Ann", "Bob"], "seed": 7, "options": {...}, "actions": [...]}

``options`` holds the game's options that differ from what a save without them reads as
(:attr:`~moneynb.core.game.Game.saved_defaults`): a game started with ``chance_streams=2``
writes it (a random stream per kind of chance); a save without it is version 1
(one stream for all chance, as every game before) and replays exactly as it was played.

Every field is checked against :class:`SaveFile` (player names at most
:data:`~moneynb.core.schema.MAX_NAME` characters, bounded strings, numbers and lists) before
any game object is built; any problem, including a house-rule data file the save names and
an engine failure met in replay, is one :class:`~moneynb.core.errors.SaveFileError`.

Source: DESIGN.md ("save = config + seed + actions (JSON); load = replay").
"""

from __future__ import annotations

import json
import os
import reprlib
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, ValidationError
from typing_extensions import TypeAliasType

from .data import BOM
from .errors import IllegalAction, SaveFileError
from .limits import (  # noqa: F401  (re-exported: moneynb.core.save.MAX_ACTIONS ...)
    MAX_ACTION_TEXT,
    MAX_ACTIONS,
    MAX_INT,
    MAX_OPTION_TEXT,
    MAX_SAVE_CHARS,
    MAX_SEED,
)
from .schema import (
    MAX_LABEL,
    MAX_NAME,
    Int,
    Items,
    Num,
    Schema,
    Text,
    describe_errors,
    explained,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

FORMAT = "moneynb-game"
VERSION = 1


def dumps(game: Game) -> str:
    """JSON text of ``game`` (config + seed + actions)."""
    doc = {"format": FORMAT, "version": VERSION, **game.config(), "actions": game.actions}
    return json.dumps(doc)


Whole = Int(-MAX_INT, MAX_INT)
#: an action: a string, a whole number, a bool, or a list of actions (nesting is bounded by
#: the engine: :data:`~moneynb.core.game.MAX_ACTION_DEPTH`)
Action = TypeAliasType(
    "Action",
    "Annotated[bool | Whole | Text(MAX_ACTION_TEXT) | Items(Action, 0, 64), _ACTION_IS]",
)
_ACTION_IS = explained(
    f"an action must be true/false, a whole number up to {MAX_INT:,}, text of at most "
    f"{MAX_ACTION_TEXT} characters, or a list of at most 64 actions"
)
#: the ``reseed`` option's pairs (``[action count, seed]``; the game checks their order)
ReseedPairs = Items(Items(Int(0, MAX_SEED - 1), 2, 2), 0, 64)
OptionValue = Annotated[
    bool | Whole | Num(-MAX_INT, MAX_INT) | Text(MAX_OPTION_TEXT) | ReseedPairs,
    explained(
        f"an option must be true/false, a number up to {MAX_INT:,}, text of at most "
        f"{MAX_OPTION_TEXT} characters, or (reseed) a list of [action count, seed] pairs"
    ),
]


class SaveFile(Schema):
    """Schema of a save file (version 1); each game's options are then checked by the game
    (their names and types by :meth:`~moneynb.core.game.Game._check_options`)."""

    format: Literal["moneynb-game"]
    version: Literal[1]
    game: Text(MAX_LABEL, 1)
    players: Items(Text(MAX_NAME, 1), 1, 8)
    seed: Int(0, MAX_SEED - 1)
    options: Annotated[dict[Text(MAX_LABEL, 1), OptionValue], Field(max_length=50)]
    actions: Items(Action, 0, MAX_ACTIONS)


def loads(text: str | bytes) -> Game:
    """Rebuild a game from save-file text (``str`` or UTF-8 ``bytes``; a byte-order mark at
    the start is dropped from either) by replaying its actions.

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
    if isinstance(text, (str, bytes, bytearray)) and len(text) > MAX_SAVE_CHARS:
        raise SaveFileError(
            f"a save file may be at most {MAX_SAVE_CHARS:,} characters, this one has "
            f"{len(text):,} (a save of {MAX_ACTIONS:,} actions fits)"
        )
    if isinstance(text, (bytes, bytearray)):
        try:  # UTF-8 (a BOM dropped), as the same text given as a str
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SaveFileError(f"a save file must be UTF-8 JSON text: {e}") from None
    if isinstance(text, str):
        text = text.removeprefix(BOM)  # a byte-order mark, as bytes or text: dropped
    try:
        doc = json.loads(text)
    except (TypeError, ValueError) as e:
        raise SaveFileError(f"a save file must be JSON text: {e}") from None
    except RecursionError:
        raise SaveFileError("a save file must be JSON text: it nests too deeply") from None
    if not isinstance(doc, dict):
        raise SaveFileError("a save file must be a JSON object")
    if doc.get("format") != FORMAT:
        raise SaveFileError(f"not a moneynb save file (format is {_short(doc.get('format'))})")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise SaveFileError(
            f"save file version {_short(doc.get('version'))} is not supported "
            f"(this moneynb reads {VERSION})"
        )
    acts = doc.get("actions")
    if type(acts) is list and len(acts) > MAX_ACTIONS:  # before checking each of them
        raise SaveFileError(
            f"save file fields wrong: actions: {len(acts):,} actions, more than the "
            f"{MAX_ACTIONS:,} a save file may hold"
        )
    try:
        SaveFile.model_validate(doc)
    except ValidationError as e:
        _, message = describe_errors(e)
        raise SaveFileError(f"save file fields wrong: {message}") from None
    try:
        cls = game_class(doc["game"])
        # an option left out is read as its saved default: a save made before the option
        # existed (chance_streams: 1, the one stream every game then drew from) replays as made
        game = cls(doc["players"], doc["seed"], **{**cls.saved_defaults, **doc["options"]})
    except ValueError as e:  # DataFileError included: a house-rule file it names
        raise SaveFileError(f"save file config is not valid: {e}") from None
    except Exception as e:  # noqa: BLE001 - an engine bug: reported, never escapes as such
        raise SaveFileError(
            f"save file config cannot be set up ({type(e).__name__}: {e}); please report it"
        ) from e
    for i, action in enumerate(doc["actions"]):
        try:
            game.apply(action)
        except IllegalAction as e:
            raise SaveFileError(f"action #{i} ({_short(action)}) cannot be replayed: {e}") from None
        except Exception as e:  # noqa: BLE001 - an engine bug met in replay
            raise SaveFileError(
                f"action #{i} ({_short(action)}) cannot be replayed: the engine failed "
                f"({type(e).__name__}: {e}); please report it"
            ) from e
    return game


def _short(value) -> str:
    return _repr.repr(value)


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = _repr.maxlong = 60
