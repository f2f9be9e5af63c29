"""Loading a game's data file (TOML) shipped next to its rules.

Boards, decks and amounts are data (DESIGN.md): a house rule is a changed data file, passed as
the game option ``data_file`` (a path) or edited in place.
"""

from __future__ import annotations

import copy
import functools
import tomllib
from importlib import resources
from pathlib import Path


def load_toml(package: str, filename: str, override: str | None = None) -> dict:
    """Read ``filename`` from ``package`` (or the file at ``override`` if given).

    Returns a fresh copy each call (parsed once per process for the shipped files; a file
    given by ``override`` is read every time, so edits to it take effect).

    Raises:
        ValueError: the file is missing or not valid TOML (message names the file).
    """
    if not override:
        return copy.deepcopy(_load_shipped(package, filename))
    return _parse(package, filename, override)


@functools.lru_cache(maxsize=64)
def _load_shipped(package: str, filename: str) -> dict:
    return _parse(package, filename, None)


def _parse(package: str, filename: str, override: str | None) -> dict:
    try:
        if override:
            text = Path(override).read_text(encoding="utf-8")
            where = override
        else:
            text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
            where = f"{package}/{filename}"
    except OSError as e:
        raise ValueError(f"cannot read data file: {e}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"data file {where} is not valid TOML: {e}") from None


def require(cond: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``cond`` (for validating data files)."""
    if not cond:
        raise ValueError(message)
