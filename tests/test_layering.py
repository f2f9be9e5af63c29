"""The package's layers, from its source (issue 30, section 9): the engine (``moneynb.core``,
``moneynb.games``) and the Coach (``moneynb.coach``) sit below the views.

Every ``import`` of every module (those inside functions too) is read with :mod:`ast`, relative
imports resolved, and followed through the package: what a module reaches is everything its
imports reach. The engine reaches no Coach, no view (``moneynb.ui``, ``moneynb.teach``) and
no widget or plotting library; the Coach reaches no view and no widget or plotting library.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import moneynb

ROOT = Path(moneynb.__file__).parent
#: libraries of the Jupyter side: the engine and the Coach reach none of them
WIDGET_LIBS = ("ipywidgets", "plotly", "IPython", "anywidget", "ipykernel", "voila")
VIEWS = ("moneynb.ui", "moneynb.teach")
#: the facade (``moneynb/__init__.py``): not followed, see :func:`reach`
TOP = "moneynb"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in ROOT.rglob("*.py")}


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@cache
def imports_of(module: str) -> frozenset[str]:
    """Absolute names ``module`` imports (``from a import b`` gives ``a`` and ``a.b``)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return frozenset(out)


def reach(module: str) -> set[str]:
    """Every name ``module`` imports, directly or through modules of the package it imports
    (a package's ``__init__`` counts for each of its modules imported). The top package
    (:data:`TOP`) is not followed: it is the facade that joins every layer for the user
    (``moneynb.play`` imports the views inside the function), and a module of the engine may
    call ``moneynb.new_game``."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        m = todo.pop()
        for name in imports_of(m):
            if name in seen:
                continue
            seen.add(name)
            parts = name.split(".")
            for k in range(1, len(parts) + 1):  # the packages on the way are imported too
                part = ".".join(parts[:k])
                if part in MODULES and part != TOP and part not in seen | {module}:
                    seen.add(part)
                    todo.append(part)
            if name in MODULES and name != TOP:
                todo.append(name)
    return seen


def _bad(module: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(n for n in reach(module) if any(_within(n, f) for f in forbidden))


ENGINE = sorted(m for m in MODULES if _within(m, "moneynb.core") or _within(m, "moneynb.games"))
COACH = sorted(m for m in MODULES if _within(m, "moneynb.coach"))


def test_the_walk_finds_imports_inside_functions():
    """The walk can fail: the views reach widgets, a function-level import is seen."""
    assert _bad("moneynb.ui.view", WIDGET_LIBS)
    assert "moneynb.coach" in reach("moneynb.ui.view")  # imported inside _refresh_coach
    assert "moneynb.coach" in reach("moneynb.ui.replay")
    assert len(ENGINE) > 10 and len(COACH) >= 8


@pytest.mark.parametrize("module", ENGINE)
def test_the_engine_reaches_no_coach_view_or_widget(module):
    bad = _bad(module, ("moneynb.coach", *VIEWS, *WIDGET_LIBS))
    assert not bad, f"{module} reaches {bad}"


@pytest.mark.parametrize("module", COACH)
def test_the_coach_reaches_no_view_or_widget(module):
    bad = _bad(module, (*VIEWS, *WIDGET_LIBS))
    assert not bad, f"{module} reaches {bad}"


def test_one_coach_module_per_game():
    games = sorted(p.name for p in (ROOT / "games").iterdir() if (p / "rules.py").exists())
    assert games and all(f"moneynb.coach.{g}" in MODULES for g in games)
    assert "moneynb.ui.coach" not in MODULES  # the Coach is not filed with the views


# ----- issue 39, case 9: no import runs back up ------------------------------------------------
BELOW_THE_FACE = sorted(
    m
    for m in MODULES
    if any(_within(m, p) for p in ("moneynb.analysis", "moneynb.env", "moneynb.coach"))
)


@pytest.mark.parametrize("module", BELOW_THE_FACE)
def test_analysis_env_and_coach_import_the_core_not_the_package_face(module):
    """``moneynb/analysis/*`` (and the env) called ``moneynb.new_game``/``simulate``: the
    package face, which joins every layer (the views included). They import the core, the
    registry and the bots directly."""
    assert TOP not in imports_of(module), f"{module} imports the package face `moneynb`"
    if not _within(module, "moneynb.env"):  # the env's board picture: see below
        assert not _bad(module, VIEWS), f"{module} reaches {_bad(module, VIEWS)}"


def test_the_env_reaches_the_views_only_for_the_board_picture():
    """Not done (issue 39, case 9, listed in the closing note): ``env/render.py`` (rgb_array)
    and ``env/aec.py`` (render_mode="human") still draw the board through
    ``moneynb.ui.boards``, whose figure code is woven into the board widgets; moving it below
    the views is left. What the env reaches of the views is exactly that."""
    for module in ("moneynb.env.render", "moneynb.env.aec"):
        assert "moneynb.ui.boards" in imports_of(module)
    for module in ("moneynb.env.actions", "moneynb.env.observe"):
        assert not _bad(module, VIEWS)


def _module_level_imports(module: str) -> set[str]:
    """Modules of the package ``module`` imports when it is imported (not inside functions
    or ``if TYPE_CHECKING:``), as absolute names."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.parse(path.read_text(), str(path)).body:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            mod = ".".join(base + [node.module]) if node.level else node.module
            out.add(mod)
    return {m for m in out if m in MODULES}


def test_core_modules_import_each_other_without_a_circle():
    """``core/game.py`` and ``core/save.py`` imported each other at module level (the size
    limits): the limits live in ``core/limits.py`` now, and no two core modules import each
    other when loaded."""
    core = [m for m in MODULES if _within(m, "moneynb.core")]
    edges = {m: _module_level_imports(m) & set(core) for m in core}
    assert "moneynb.core.limits" in edges["moneynb.core.save"]
    circles = sorted((a, b) for a in core for b in edges[a] if a < b and a in edges.get(b, ()))
    assert circles == []


def test_analysis_env_and_coach_at_work_load_no_view_or_widget():
    """In a fresh interpreter: every module of moneynb.analysis, moneynb.env and moneynb.coach
    imported, a simulation, an env game and the Coach's numbers of a decision: no
    ``moneynb.ui`` and no ``ipywidgets`` module is loaded."""
    import subprocess
    import sys

    code = """
import importlib, pkgutil, sys
import moneynb.analysis, moneynb.coach, moneynb.env
for pkg in (moneynb.analysis, moneynb.env, moneynb.coach):
    for m in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(m.name)
from moneynb.analysis.montecarlo import simulate
simulate("moolah", ["greedy", "random"], n_games=2, seed=1, progress=False)
env = moneynb.env.make("moolah", players=2)
env.reset(seed=1)
policy = moneynb.env.BotPolicy("greedy", seed=1)
for _ in range(20):
    env.step(policy(env))
from moneynb.coach import coach
from moneynb.core.registry import game_class
g = game_class("moolah")(["A", "B"], 1)
assert coach(g) is not None
print(sorted(m for m in sys.modules if m.startswith(("moneynb.ui", "ipywidgets"))))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent
    ).stdout
    assert out.strip().splitlines()[-1] == "[]", out
