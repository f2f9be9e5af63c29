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
