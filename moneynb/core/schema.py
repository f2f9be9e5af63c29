"""Schemas for what a user loads: house-rule data files and save files (pydantic models).

A data file or a save file may come from someone else (a classmate, a forum post), so each is
checked against a schema before any game object is built: every field typed, every count and
amount bounded to what a rulebook could mean, every string bounded. A violation is one error
naming the file, the field and what is allowed (:class:`~moneynb.core.errors.DataFileError`
for a data file; :mod:`moneynb.core.save` turns it into a ``SaveFileError``).

Building blocks (each an annotated type usable in a :class:`Schema` field):

* :func:`Int` ``(lo, hi)``: an ``int`` (never a bool or a float such as ``2.0``) in ``lo..hi``;
* :func:`Num` ``(lo, hi)``: an ``int`` or ``float`` in ``lo..hi`` (drawing positions);
* :func:`Text` ``(max_len)``: a string of at most ``max_len`` characters;
* :func:`Items` ``(item, lo, hi)``: a list of ``lo..hi`` items.

The game schemas live next to each game's data (``moneynb/games/<game>/schema.py``); the save
file's in :mod:`moneynb.core.save`. Source: DESIGN.md ("Everything a user loads is validated
first"); the bounds are reconstructions, documented in each schema.
"""

from __future__ import annotations

import reprlib
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, WrapValidator
from pydantic_core import PydanticCustomError

from .errors import DataFileError

#: longest player name, in characters (a person never needs more; the log repeats names)
MAX_NAME = 40
#: longest free text in a data file (a card's text, a space's caption), in characters
MAX_TEXT = 400
#: longest short label in a data file (an id, a name, a colour), in characters
MAX_LABEL = 60
#: most copies of one card, and most cards in one deck (a real deck has a few dozen)
MAX_COUNT = 300
#: most entries in one list of a data file (spaces, cards, routes)
MAX_ITEMS = 1000

_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlong = 40
_short.maxlist = 4
_short.maxdict = 4


class Schema(BaseModel):
    """Base of every schema: unknown fields are refused (a typo such as ``cuont`` is caught),
    and types are strict (``"5"`` is not 5, ``2.0`` is not 2, ``true`` is not 1). A field
    whose default is ``None`` is optional (TOML has no null: absent means not given)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def explained(message: str, **ctx: Any) -> WrapValidator:
    """A validator that reports any failure of the wrapped type as ``message`` (which says
    what is allowed) instead of pydantic's separate type and range messages."""

    def wrap(value: Any, handler):
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError("not_allowed", message, ctx) from None

    return WrapValidator(wrap)


def Int(lo: int, hi: int, unit: str = "") -> Any:  # noqa: N802 - reads as a type
    """An ``int`` from ``lo`` to ``hi`` inclusive (``unit`` e.g. "dollars" for messages)."""
    what = f"a whole number of {unit}" if unit else "a whole number"
    return Annotated[
        int,
        Field(strict=True, ge=lo, le=hi),
        explained(f"must be {what} from {lo:,} to {hi:,}"),
    ]


def Num(lo: float, hi: float) -> Any:  # noqa: N802
    """A number (``int`` or ``float``, not a bool) from ``lo`` to ``hi`` inclusive."""
    return Annotated[
        int | float,
        Field(ge=lo, le=hi, allow_inf_nan=False),
        explained(f"must be a number from {lo:g} to {hi:g}"),
    ]


def Text(max_len: int = MAX_TEXT, min_len: int = 0) -> Any:  # noqa: N802
    """A string of ``min_len`` to ``max_len`` characters."""
    return Annotated[
        str,
        Field(strict=True, min_length=min_len, max_length=max_len),
        explained(f"must be text of {min_len} to {max_len} characters"),
    ]


def Colour() -> Any:  # noqa: N802
    """A colour as ``#rrggbb`` hex (what the boards hand to plotly; anything else, a colour
    name or text with markup, would make the board fail when drawn)."""
    return Annotated[
        str,
        Field(strict=True, pattern=r"^#[0-9a-fA-F]{6}$"),
        explained("must be a colour written #rrggbb (six hex digits)"),
    ]


def Items(item: Any, lo: int = 0, hi: int = MAX_ITEMS) -> Any:  # noqa: N802
    """A list of ``lo`` to ``hi`` items of type ``item`` (each item checked by its own type)."""
    return Annotated[list[item], Field(min_length=lo, max_length=hi)]


def _where(loc: tuple) -> str:
    """``("card", 3, "count")`` -> ``"card[3].count"``."""
    out = ""
    for part in loc:
        if part == "[key]":
            out += " (a key)"
        elif isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(the whole file)"


def describe_errors(e: ValidationError, limit: int = 3) -> tuple[str, str]:
    """``(first field, message)`` for a pydantic error: up to ``limit`` problems, each as
    ``field = value: what is allowed``."""
    errs = e.errors()
    parts = []
    for err in errs[:limit]:
        where = _where(err["loc"])
        if err["type"] == "missing":
            parts.append(f"{where}: missing (it is required)")
        elif err["type"] == "extra_forbidden":
            parts.append(f"{where}: not a known field (remove it or check its spelling)")
        else:
            parts.append(f"{where} = {_short.repr(err['input'])}: {err['msg']}")
    more = f" (and {len(errs) - limit} more)" if len(errs) > limit else ""
    return _where(errs[0]["loc"]) if errs else "", "; ".join(parts) + more


def validate(schema: type[Schema], data: Any, where: str) -> None:
    """Check ``data`` (a parsed file) against ``schema``; ``data`` itself is not changed.

    Raises:
        DataFileError: the first problems found, naming ``where`` (the file), the field and
            what is allowed.
    """
    try:
        schema.model_validate(data)
    except ValidationError as e:
        field, message = describe_errors(e)
        raise DataFileError(f"data file {where}: {message}", file=where, field=field) from None
