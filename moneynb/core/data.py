"""Loading a game's data file (TOML) shipped next to its rules.

Boards, decks and amounts are data (DESIGN.md): a house rule is a changed data file, passed as
the game option ``data_file`` (a path) or edited in place. Each file is checked against its
schema (:mod:`moneynb.core.schema`, ``moneynb/games/<game>/schema.py``) as it is read, before
any game object is built; every problem is a :class:`~moneynb.core.errors.DataFileError`.
"""

from __future__ import annotations

import copy
import functools
import inspect
import os
import tomllib
from importlib import resources
from pathlib import Path

from .errors import DataFileError
from .schema import Schema, validate


def load_toml(
    package: str, filename: str, override: str | None = None, schema: type[Schema] | None = None
) -> dict:
    """Read ``filename`` from ``package`` (or the file at ``override`` if given) and check it
    against ``schema`` (a :class:`~moneynb.core.schema.Schema` subclass) when one is given.

    Returns a fresh copy each call (parsed once per process for the shipped files; a file
    given by ``override`` is read every time, so edits to it take effect).

    Raises:
        DataFileError: (a ``ValueError``) the file is missing, unreadable, not valid TOML, or
            breaks the schema; the message names the file, the field and what is allowed.
    """
    if not override:
        return copy.deepcopy(_load_shipped(package, filename, schema))
    return _parse(package, filename, override, schema)


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
def _load_shipped(package: str, filename: str, schema: type[Schema] | None) -> dict:
    return _parse(package, filename, None, schema)


def _parse(
    package: str, filename: str, override: str | None, schema: type[Schema] | None = None
) -> dict:
    where = override or f"{package}/{filename}"
    try:
        if override:
            text = _read_small_file(Path(override))
            where = override
        else:
            text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise DataFileError(f"cannot read data file: {e}", file=where) from None
    text = text.removeprefix(BOM)  # an editor's UTF-8 byte-order mark: not part of the TOML
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError) as e:  # TOMLDecodeError, or an int of 5,000 digits
        raise DataFileError(f"data file {where} is not valid TOML: {e}", file=where) from None
    if schema is not None:
        validate(schema, data, where)
    return data


#: a UTF-8 byte-order mark, as text (some Windows editors start every file with one): accepted
#: and dropped at the start of a data file and of a save file, as bytes or text alike
BOM = "\ufeff"

#: largest house-rule data file read, in bytes (the shipped ones are a few kB)
MAX_DATA_FILE_BYTES = 1_000_000


def _read_small_file(path: Path) -> str:
    """UTF-8 text of the regular ``.toml`` file ``path``. Refused with ValueError: any other
    name (a save file is only data, yet it names its data files: a tampered one must not make
    moneynb open ``/etc/passwd``), a device, FIFO or directory (``/dev/zero`` would hang or
    fill memory), a file over :data:`MAX_DATA_FILE_BYTES`."""
    if path.suffix.lower() != ".toml":
        raise DataFileError(f"cannot read data file: {path} is not a .toml file", file=str(path))
    if path.exists() and not path.is_file():
        raise DataFileError(f"cannot read data file: {path} is not a regular file", file=str(path))
    with path.open("rb") as f:
        raw = f.read(MAX_DATA_FILE_BYTES + 1)
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise DataFileError(
            f"cannot read data file: {path} is larger than {MAX_DATA_FILE_BYTES:,} bytes",
            file=str(path),
        )
    return raw.decode("utf-8")


def names_files(files: dict[str, str]):
    """Decorator for a loader: a :class:`DataFileError` from :func:`require` that names a
    shipped file's name (``"cards.toml: ..."``) is re-raised naming the house-rule file
    actually given, if any. ``files``: ``{shipped file name: the loader's parameter holding
    the house-rule path}``."""

    def deco(fn):
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except DataFileError as e:
                param = files.get(e.file)
                path = sig.bind(*args, **kwargs).arguments.get(param) if param else None
                if not path:
                    raise
                rest = str(e).split(":", 1)[1].strip()
                raise DataFileError(
                    f"data file {path} ({e.file}): {rest}", file=str(path), field=e.field
                ) from None

        return wrapper

    return deco


def require(cond: bool, message: str) -> None:
    """Raise :class:`DataFileError` ``(message)`` unless ``cond``: a data file's consistency
    check beyond its schema (a card naming a space the board lacks, a loop avoiding the Bank).
    ``message`` starts with the file's name ("cards.toml: ...")."""
    if not cond:
        raise DataFileError(message, file=message.split(":", 1)[0])
