"""Packaging: the license metadata and Binder's pinned versions (issue 18, "Also")."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]


def _lock_module():
    spec = importlib.util.spec_from_file_location("binder_lock", REPO / "binder" / "lock.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_license_is_an_spdx_expression():
    """setuptools (>= 77) warned that ``license = {text = ...}`` is deprecated."""
    doc = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert doc["project"]["license"] == "MIT"
    (setuptools,) = [r for r in map(Requirement, doc["build-system"]["requires"])
                     if r.name == "setuptools"]  # fmt: skip
    assert not setuptools.specifier.contains("76.9"), "SPDX license needs setuptools>=77"


def test_binder_installs_exact_versions_of_everything_the_app_needs():
    lines = [
        x for x in (REPO / "binder" / "requirements.txt").read_text().splitlines()
        if x and not x.startswith("#")
    ]  # fmt: skip
    pins = {}
    for line in lines:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([0-9][^\s;]*)", line)
        assert m, f"not an exact pin: {line!r}"
        pins[canonicalize_name(m.group(1))] = m.group(2)
    # every distribution moneynb[app] needs here is pinned (the lock's own walk)
    needed = {canonicalize_name(n) for n in _lock_module().closure()}
    assert needed <= set(pins), f"not pinned: {sorted(needed - set(pins))}"
    for front_end in ("jupyterlab", "voila", "ipywidgets", "plotly", "anywidget"):
        assert front_end in pins
    post = (REPO / "binder" / "postBuild").read_text()
    assert "--no-deps" in post and "pip install" in post
    runtime = (REPO / "binder" / "runtime.txt").read_text().strip()
    head = (REPO / "binder" / "requirements.txt").read_text().splitlines()[0]
    assert f"Python {runtime.split('-')[1]}" in head, (runtime, head)
