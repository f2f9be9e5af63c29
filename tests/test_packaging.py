"""Packaging: the license metadata and Binder's pinned versions (issue 18, "Also")."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
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


def test_one_lock_for_binder_and_the_tests():
    """Issue 24: Binder's requirements are the app's share of the one lock the test command
    installs under (same lines, same versions), and the test command uses it."""
    lock = _lock_module()
    constraints = lock.read(REPO / "binder" / "constraints.txt")
    binder = lock.read(REPO / "binder" / "requirements.txt")
    assert binder, "binder/requirements.txt pins nothing"
    differ = {n: (v, constraints.get(n)) for n, v in binder.items() if constraints.get(n) != v}
    assert not differ, f"Binder pins that are not the lock's: {differ}"
    for front_end in ("jupyterlab", "voila", "ipywidgets", "plotly", "anywidget"):
        assert front_end in binder
    script = (REPO / "scripts" / "test-all.sh").read_text()
    assert '-c binder/constraints.txt -e ".[test]"' in script
    post = (REPO / "binder" / "postBuild").read_text()
    assert "--no-deps" in post and "pip install" in post
    runtime = (REPO / "binder" / "runtime.txt").read_text().strip()
    for name in ("requirements.txt", "constraints.txt"):
        head = (REPO / "binder" / name).read_text().splitlines()[0]
        assert f"Python {runtime.split('-')[1]}" in head, (name, runtime, head)


@pytest.mark.parametrize(
    "extras, name", [(("test",), "constraints.txt"), (("app",), "requirements.txt")]
)
def test_the_lock_pins_everything_this_environment_needs(extras, name):
    """Every distribution ``moneynb[extras]`` needs here is pinned, at the version installed
    here: the test environment was installed under the lock (``scripts/test-all.sh``), so a
    green run tested what Binder serves. Compared with this environment, never with the index."""
    lock = _lock_module()
    pins = lock.read(REPO / "binder" / name)
    needed = {canonicalize_name(n): v for n, v in lock.closure(extras=extras).items()}
    missing = sorted(set(needed) - set(pins))
    assert not missing, (
        f"not pinned in binder/{name}: {missing}: a dependency changed; "
        "upgrade the lock deliberately (python binder/lock.py, see its docstring)"
    )
    other = {n: (v, pins[n]) for n, v in needed.items() if pins[n] != v}
    assert not other, (
        f"installed here vs binder/{name}: {other}; install with "
        "`pip install -c binder/constraints.txt -e .[test]` (scripts/test-all.sh does)"
    )


def test_pip_check_is_clean_for_the_locked_distributions():
    """``pip check`` in the test environment: no locked distribution has a broken or missing
    requirement (lines about distributions outside the lock, e.g. the machine's own, are not
    the lock's business)."""
    lock = _lock_module()
    locked = set(lock.read(REPO / "binder" / "constraints.txt")) | {"moneynb"}
    out = subprocess.run(
        [sys.executable, "-m", "pip", "check"], capture_output=True, text=True, check=False
    ).stdout
    broken = [
        line for line in out.splitlines()
        if line.split(" ")[0] and canonicalize_name(line.split(" ")[0]) in locked
    ]  # fmt: skip
    assert not broken, "\n".join(broken)


def test_read_refuses_a_line_that_is_not_an_exact_pin(tmp_path):
    lock = _lock_module()
    bad = tmp_path / "r.txt"
    for line in ("ipython>=8", "ipython", "ipython==8.1 ; python_version<'3.12'"):
        bad.write_text(f"# head\n{line}\n")
        with pytest.raises(ValueError, match="not an exact pin"):
            lock.read(bad)
    bad.write_text("# head\nIPython==9.1.0\n")
    assert lock.read(bad) == {"ipython": "9.1.0"}


@pytest.mark.parametrize("call", ["play('moolah', players=['Ann', 'bot:greedy'])", "replay('x')"])
def test_without_the_front_end_play_and_replay_say_which_extra_to_install(call):
    """Issue 24: with the bare install (``pip install -e .``: no ipywidgets) ``play`` and
    ``replay`` said only ``No module named 'ipywidgets'``. A fresh interpreter where the front
    end's modules cannot be imported (as in a bare install) gets the extra to install."""
    code = (
        "import sys\n"
        "for m in ('ipywidgets', 'plotly', 'anywidget'): sys.modules[m] = None\n"
        "import moneynb\n"
        f"try:\n    moneynb.{call}\nexcept ModuleNotFoundError as e:\n    print('ERR', e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    ).stdout
    assert out.startswith("ERR "), out
    assert "ipywidgets" in out and '".[ui]"' in out and '".[app]"' in out, out


def _links_module():
    spec = importlib.util.spec_from_file_location("binder_links", REPO / "binder" / "links.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_binder_link_names_the_one_repository():
    """Issue 24: the links pointed at a repository named nowhere else. They are written from
    ``[project.urls] Repository`` (``python binder/links.py``) and checked here."""
    links = _links_module()
    repo = links.repository(REPO)
    found = sum(len(links.LINK.findall(p.read_text())) for p in links.files(REPO) if p.exists())
    assert found >= 10, "the Binder links went missing"
    assert links.stale(REPO) == {}, f"links not to {repo}"


def test_binder_links_are_rewritten_from_the_repository_setting(tmp_path):
    links = _links_module()
    for name in ("README.md", "pyproject.toml"):
        (tmp_path / name).write_text((REPO / name).read_text())
    (tmp_path / "pyproject.toml").write_text(
        (REPO / "pyproject.toml")
        .read_text()
        .replace(
            f'Repository = "https://github.com/{links.repository(REPO)}"',
            'Repository = "https://github.com/a-school/moneynb-fork"',
        )
    )
    assert links.repository(tmp_path) == "a-school/moneynb-fork"
    assert "README.md" in links.stale(tmp_path)
    links.ROOT = tmp_path
    assert links.main([]) == 0
    assert links.stale(tmp_path) == {}
    assert "gh/a-school/moneynb-fork/HEAD" in (tmp_path / "README.md").read_text()
