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
    registry and the bots directly, and reach no view (the env draws its board pictures with
    :mod:`moneynb.figures`)."""
    assert TOP not in imports_of(module), f"{module} imports the package face `moneynb`"
    assert not _bad(module, VIEWS), f"{module} reaches {_bad(module, VIEWS)}"


#: the widget libraries: the board figures (``moneynb.figures``) are plotly only
WIDGETS = ("ipywidgets", "anywidget", "traitlets", "ipykernel", "voila")
FIGURES = sorted(m for m in MODULES if _within(m, "moneynb.figures"))


@pytest.mark.parametrize("module", FIGURES + ["moneynb.env.render", "moneynb.env.aec"])
def test_the_board_figures_and_the_env_pictures_reach_no_view_or_widget(module):
    """Issue 39, case 9: the plotly figure of a board lives below the views
    (``moneynb.figures``), used by the board widgets, the replay, the env and the handouts;
    it reaches no ``moneynb.ui``/``moneynb.teach`` and no widget library (every import,
    those inside functions too)."""
    assert len(FIGURES) >= 7
    bad = _bad(module, (*VIEWS, *WIDGETS))
    assert not bad, f"{module} reaches {bad}"


def test_the_board_widgets_draw_with_the_figures():
    """Each game's board widget extends the game's drawing: one figure code for both."""
    from moneynb.figures import FIGURES as DRAWINGS
    from moneynb.figures import drawing_class
    from moneynb.ui.boards import BOARDS, board_class

    assert sorted(DRAWINGS) == sorted(BOARDS)
    for name in BOARDS:
        assert issubclass(board_class(name), drawing_class(name)), name
        assert drawing_class(name).__module__ == f"moneynb.figures.{name}"


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
    imported, a simulation, an env game of each game with its board figure (what
    ``render_mode="rgb_array"`` draws, :func:`moneynb.env.render.board_figure`) and the
    Coach's numbers of a decision: no ``moneynb.ui`` and no ``ipywidgets`` or ``anywidget``
    module is loaded (issue 39, case 9: drawing the board loaded the views' package)."""
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
from moneynb.env.render import board_figure
for name in ("money_moves", "moolah", "easy_money", "money_card", "money_run"):
    env = moneynb.env.make(name, players=2)
    env.reset(seed=1)
    policy = moneynb.env.BotPolicy("greedy", seed=1)
    for _ in range(20):
        if env.unwrapped.game.over:
            break
        env.step(policy(env))
    fig = board_figure(env.unwrapped.game)
    assert type(fig).__name__ == "Figure" and len(fig.data) >= 3, (name, len(fig.data))
from moneynb.coach import coach
from moneynb.core.registry import game_class
g = game_class("moolah")(["A", "B"], 1)
assert coach(g) is not None
print(sorted(m for m in sys.modules if m.startswith(("moneynb.ui", "ipywidgets", "anywidget"))))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT.parent)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().splitlines()[-1] == "[]", run.stdout
