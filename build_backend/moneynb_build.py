"""moneynb's build backend: setuptools', plus Cython when the compiled engine is asked for.

``pip install .`` builds the pure-Python package, as before. ``MONEYNB_COMPILED=1 pip install .``
(or ``pip install . -C compiled=1``) has pip fetch Cython from PyPI into the build environment
and compile :data:`MODULES` (the core protocol, the bots, the five games' rules) from their
unchanged ``.py`` sources; the wheel then holds both the sources and the extension modules
(Python imports an extension before the source of the same name) and ``moneynb/compiled.json``,
the SHA-256 of each source compiled (``tests/test_compiled.py`` checks it). Nothing is written
differently for the compiler: the pure-Python package is the reference and the fallback.
Source: issue 40 ("an optional compiled build of the core ... built by pip from PyPI only").
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (the PEP 517 hooks not redefined here)

#: the environment variable that asks for the compiled engine ("1"; unset, "" or "0": pure)
ENV = "MONEYNB_COMPILED"

#: the Cython that compiles it (from PyPI, into pip's isolated build environment)
CYTHON = "cython>=3.0,<4"

#: the modules compiled, relative to the project's root
MODULES = (
    "moneynb/core/game.py",
    "moneynb/core/decision.py",
    "moneynb/core/ledger.py",
    "moneynb/core/chance.py",
    "moneynb/core/outcomes.py",
    "moneynb/bots/__init__.py",
    "moneynb/games/easy_money/rules.py",
    "moneynb/games/moolah/rules.py",
    "moneynb/games/money_card/rules.py",
    "moneynb/games/money_moves/rules.py",
    "moneynb/games/money_run/rules.py",
)

#: Cython's settings: the compiled code behaves as the source does. ``binding`` keeps
#: functions introspectable (signatures, docstrings); ``annotation_typing=False`` reads no
#: type hint as a C type or a type check (a ``seat: int`` given ``True`` behaves as in Python)
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}

#: where ``pip install -C compiled=1`` is read
SETTING = "compiled"

#: the value of the setting (or of :data:`ENV`) that asks for a profile-guided build: the
#: modules compiled once instrumented (gcc's ``-fprofile-generate``), :data:`PGO_TRAINING`
#: played on them, then compiled again with the branch and call counts it recorded
#: (``-fprofile-use``). The same C code, laid out for the paths the games take; gcc only (any
#: other compiler: the plain build). About twice the build time
PGO = "pgo"

#: what the training run imports besides the standard library (the data files' schemas),
#: fetched by pip from PyPI into the build environment with Cython: pyproject's own bound
PGO_REQUIRES = ("pydantic>=2.6",)

#: the C compiler's and linker's extra flags of the two profile-guided passes
PGO_GENERATE = (["-fprofile-generate", "-fprofile-update=single"], ["-fprofile-generate"])
PGO_USE = (["-fprofile-use", "-fprofile-correction", "-Wno-missing-profile"], [])

#: the training run of a profile-guided build (run with the instrumented build first on the
#: path): every game, greedy bots and a random one, on the runners' trusted path and through
#: ``apply`` (what ``simulate``, ``play_out``, the views and the env run)
PGO_TRAINING = """
import moneynb
from moneynb.bots import make_bot
seats = {"easy_money": 4, "moolah": 3, "money_card": 3, "money_moves": 3, "money_run": 2}
for game, n in seats.items():
    for seed in range(40 if game in ("money_moves", "money_run") else 12):
        g = moneynb.new_game(game, players=[f"p{i}" for i in range(n)], seed=seed)
        kinds = ["greedy"] * n if seed % 4 else ["random"] + ["greedy"] * (n - 1)
        bots = [make_bot(k, seed=10 * seed + j) for j, k in enumerate(kinds)]
        step = g.apply if seed % 5 == 1 else g.advance
        while g.pending is not None:
            step(bots[g.pending.player].choose(g))
import moneynb.core.game as engine
assert engine.__file__.endswith(".so"), engine.__file__
"""


def setting(config_settings: dict | None = None) -> str:
    """The build asked for: ``-C compiled=...``, else ``MONEYNB_COMPILED``, stripped ("" when
    neither is given)."""
    value = (config_settings or {}).get(SETTING)
    if value is None:
        value = os.environ.get(ENV, "")
    return str(value).strip()


def wanted(config_settings: dict | None = None) -> bool:
    """True when this build is asked to compile: ``-C compiled=1`` or ``MONEYNB_COMPILED=1``
    (or ``pgo``, :data:`PGO`)."""
    return setting(config_settings) not in ("", "0")


def pgo_wanted(config_settings: dict | None = None) -> bool:
    """True when the compiled build is asked to be profile-guided (:data:`PGO`):
    ``-C compiled=pgo`` or ``MONEYNB_COMPILED=pgo``."""
    return setting(config_settings).lower() == PGO


def _pass_on(config_settings: dict | None) -> dict | None:
    """Hand ``-C compiled=1`` to ``setup.py`` (which reads :data:`ENV`) and leave it out of
    setuptools' own settings."""
    if config_settings and SETTING in config_settings:
        os.environ[ENV] = (
            PGO if pgo_wanted(config_settings) else "1" if wanted(config_settings) else "0"
        )
        config_settings = {k: v for k, v in config_settings.items() if k != SETTING}
    return config_settings or None


def _extra_requires(config_settings: dict | None) -> list[str]:
    """What the build needs besides setuptools: Cython when compiling, and what the
    profile-guided build's training run imports."""
    if not wanted(config_settings):
        return []
    return [CYTHON, *PGO_REQUIRES] if pgo_wanted(config_settings) else [CYTHON]


@contextmanager
def _pure_setup():
    """``setup.py`` run without compiling: setuptools runs it to ask what the build needs,
    before Cython is in the build environment."""
    old = os.environ.get(ENV)
    os.environ[ENV] = "0"
    try:
        yield
    finally:
        if old is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = old


def get_requires_for_build_wheel(config_settings=None):
    extra = _extra_requires(config_settings)
    config_settings = _pass_on(config_settings)
    with _pure_setup():
        return _setuptools.get_requires_for_build_wheel(config_settings) + extra


def get_requires_for_build_editable(config_settings=None):
    extra = _extra_requires(config_settings)
    config_settings = _pass_on(config_settings)
    with _pure_setup():
        return _setuptools.get_requires_for_build_editable(config_settings) + extra


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _setuptools.build_wheel(wheel_directory, _pass_on(config_settings), metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _setuptools.build_editable(
        wheel_directory, _pass_on(config_settings), metadata_directory
    )
