"""The optional compiled engine is the pure-Python one, built (issue 40).

``MONEYNB_COMPILED=1 pip install .`` (the build backend ``build_backend/moneynb_build.py``)
or ``python scripts/build_compiled.py [--into DIR]`` compiles the modules of
:data:`MODULES` with Cython from their unchanged sources. The same tests run on whichever
build is imported: to test the compiled one, run the golden games, the engine tests and this
file with it first on the path (docs/speed.md, "The optional compiled engine"). Here: a
compiled module is never older than its source (else an edit would silently not run), a
compiled build is whole, and, when the imported build is compiled, it plays the same games
as the pure-Python sources beside it.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import moneynb

BASE = Path(moneynb.__file__).resolve().parent.parent
REPO = Path(__file__).resolve().parent.parent
BACKEND = runpy.run_path(str(REPO / "build_backend" / "moneynb_build.py"))
MODULES = BACKEND["MODULES"]


def _module_name(source: str) -> str:
    return source[:-3].replace("/", ".").removesuffix(".__init__")


def _built(source: str) -> list[Path]:
    return sorted((BASE / source).parent.glob(Path(source).stem + ".*.so"))


COMPILED = [m for m in MODULES if _built(m)]


@pytest.mark.parametrize("source", MODULES)
def test_a_compiled_module_is_built_from_its_source(source):
    module = importlib.import_module(_module_name(source))
    if not _built(source):  # the pure-Python engine: the source itself runs
        assert Path(module.__file__).resolve() == (BASE / source).resolve()
        return
    assert Path(module.__file__).suffix == ".so"
    manifest = BASE / "moneynb" / "compiled.json"
    assert manifest.is_file(), "compiled modules without moneynb/compiled.json: build again"
    recorded = json.loads(manifest.read_text()).get(source)
    now = hashlib.sha256((BASE / source).read_bytes()).hexdigest()
    assert recorded == now, (
        f"{source} changed since it was compiled: python scripts/build_compiled.py "
        "(or --clean for the pure-Python engine)"
    )


def test_a_compiled_build_is_whole():
    """Either every module of MODULES is compiled or none is (a half build is a stale one)."""
    assert COMPILED in ([], list(MODULES)), f"only {COMPILED} are compiled"


def test_the_build_backend_compiles_only_when_asked(monkeypatch):
    """``MONEYNB_COMPILED`` or ``-C compiled=...`` asks; unset, empty or 0 is the pure build;
    the setting given to pip wins over the environment."""
    wanted = BACKEND["wanted"]
    monkeypatch.delenv("MONEYNB_COMPILED", raising=False)
    assert not wanted() and not wanted({}) and wanted({"compiled": "1"})
    for value, expected in (("1", True), ("yes", True), ("0", False), ("", False)):
        monkeypatch.setenv("MONEYNB_COMPILED", value)
        assert wanted() is expected, value
    monkeypatch.setenv("MONEYNB_COMPILED", "1")
    assert not wanted({"compiled": "0"})


def test_the_build_backend_asks_for_a_profile_guided_build_by_pgo(monkeypatch):
    """``MONEYNB_COMPILED=pgo`` (or ``-C compiled=pgo``) is a compiled build, profile-guided:
    pip then fetches what its training run imports with Cython; ``-C compiled=pgo`` reaches
    ``setup.py`` as ``MONEYNB_COMPILED=pgo``; any other value is not profile-guided."""
    wanted, pgo = BACKEND["wanted"], BACKEND["pgo_wanted"]
    extra = BACKEND["_extra_requires"]
    monkeypatch.delenv("MONEYNB_COMPILED", raising=False)
    assert wanted({"compiled": "pgo"}) and pgo({"compiled": "PGO "}) and not pgo({"compiled": "1"})
    assert extra({"compiled": "1"}) == [BACKEND["CYTHON"]]
    assert extra({"compiled": "pgo"}) == [BACKEND["CYTHON"], *BACKEND["PGO_REQUIRES"]]
    assert extra({}) == [] and not pgo()
    monkeypatch.setenv("MONEYNB_COMPILED", "pgo")
    assert wanted() and pgo() and not pgo({"compiled": "1"})
    assert BACKEND["_pass_on"]({"compiled": "pgo", "other": "x"}) == {"other": "x"}
    assert os.environ["MONEYNB_COMPILED"] == "pgo"


#: each game played by greedy bots through ``Game.advance`` (the runners' trusted path):
#: the actions and the final state as JSON, printed by whichever build runs it
_PLAY = """
import json, moneynb
from moneynb.bots import make_bot
seats = {"easy_money": 4, "moolah": 3, "money_card": 3, "money_moves": 3, "money_run": 2}
out = {}
for game, n in seats.items():
    for seed in (0, 1):
        g = moneynb.new_game(game, players=[f"p{i}" for i in range(n)], seed=seed)
        bots = [make_bot("greedy", seed=10 * seed + k) for k in range(n)]
        while g.pending is not None:
            g.advance(bots[g.pending.player].choose(g))
        out[f"{game}/{seed}"] = [g.actions, g.to_json(), g.scores()]
import moneynb.core.game as engine
print(json.dumps({"engine": engine.__file__, "games": out}, default=repr))
"""


@pytest.mark.skipif(not COMPILED, reason="the imported moneynb is the pure-Python build")
def test_the_compiled_build_plays_as_the_pure_sources(tmp_path):
    """Ten greedy games (two per game) on the trusted path: the compiled build and a
    pure-Python copy of the same sources (the ``.py`` files beside the compiled modules) make
    the same actions and end in the same state."""
    pure = tmp_path / "pure"
    shutil.copytree(
        BASE / "moneynb", pure / "moneynb", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    results = {}
    for name, path in (("compiled", BASE), ("pure", pure)):
        run = subprocess.run(
            [sys.executable, "-P", "-c", _PLAY],  # -P: PYTHONPATH first, not the directory
            env={**env, "PYTHONPATH": str(path)},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        results[name] = json.loads(run.stdout)
    assert results["compiled"]["engine"].endswith(".so"), results["compiled"]["engine"]
    assert results["pure"]["engine"].endswith(".py"), results["pure"]["engine"]
    compiled, pure = results["compiled"]["games"], results["pure"]["games"]
    assert compiled.keys() == pure.keys() and len(pure) == 10
    for key in pure:
        assert compiled[key] == pure[key], key
