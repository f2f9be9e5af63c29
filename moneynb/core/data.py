"""Loading a game's data file (TOML) shipped next to its rules.

Boards, decks and amounts are data (DESIGN.md): a house rule is a changed data file, passed as
the game option ``data_file`` (a path) or edited in place.
"""

from __future__ import annotations

import copy
import functools
import os
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


_LOADED: dict = {}


def load_cached(loader, *paths: str | None):
    """``loader(*paths)``, remembered per loader, paths and the files' modification times, so
    that starting many games reads and checks the data files once (an edited house-rule file
    is read again). The result is shared between games: treat it as read-only.

    Raises:
        whatever ``loader`` raises (ValueError for a bad file); failures are not remembered.
    """
    stamps = []
    for path in paths:
        try:
            stamps.append(os.stat(path).st_mtime_ns if path else None)
        except OSError:
            stamps.append(None)  # the loader reports the missing file
    key = (loader, paths, tuple(stamps))
    if key not in _LOADED:
        if len(_LOADED) >= 64:
            _LOADED.clear()
        _LOADED[key] = loader(*paths)
    return _LOADED[key]


@functools.lru_cache(maxsize=64)
def _load_shipped(package: str, filename: str) -> dict:
    return _parse(package, filename, None)


def _parse(package: str, filename: str, override: str | None) -> dict:
    try:
        if override:
            text = _read_small_file(Path(override))
            where = override
        else:
            text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
            where = f"{package}/{filename}"
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read data file: {e}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"data file {where} is not valid TOML: {e}") from None


#: largest house-rule data file read, in bytes (the shipped ones are a few kB)
MAX_DATA_FILE_BYTES = 1_000_000


def _read_small_file(path: Path) -> str:
    """UTF-8 text of the regular ``.toml`` file ``path``. Refused with ValueError: any other
    name (a save file is only data, yet it names its data files: a tampered one must not make
    moneynb open ``/etc/passwd``), a device, FIFO or directory (``/dev/zero`` would hang or
    fill memory), a file over :data:`MAX_DATA_FILE_BYTES`."""
    if path.suffix.lower() != ".toml":
        raise ValueError(f"cannot read data file: {path} is not a .toml file")
    if path.exists() and not path.is_file():
        raise ValueError(f"cannot read data file: {path} is not a regular file")
    with path.open("rb") as f:
        raw = f.read(MAX_DATA_FILE_BYTES + 1)
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise ValueError(
            f"cannot read data file: {path} is larger than {MAX_DATA_FILE_BYTES:,} bytes"
        )
    return raw.decode("utf-8")


def require(cond: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``cond`` (for validating data files)."""
    if not cond:
        raise ValueError(message)
