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


def test_the_build_installs_the_plotly_the_package_runs_with():
    """Issue 41: the build copies its plotly's widget module into the install (``setup.py``),
    named by plotly's version and digest; a kernel with another plotly names another file,
    which no server has, and its pages get the code through the kernel. So the build's plotly
    (``[build-system] requires``), the extras' and the lock's are one exact version, and
    ``setup.py`` installs the file for wheels and editable installs alike."""
    doc = tomllib.loads((REPO / "pyproject.toml").read_text())
    pins = {"build-system": doc["build-system"]["requires"]}
    pins.update(doc["project"]["optional-dependencies"])
    plotly = {
        where: str(r.specifier)
        for where, reqs in pins.items()
        for r in map(Requirement, reqs)
        if r.name == "plotly"
    }
    assert {"build-system", "ui", "render"} <= plotly.keys(), plotly
    lock = _lock_module().read(REPO / "binder" / "constraints.txt")
    assert set(plotly.values()) == {f"=={lock['plotly']}"}, (plotly, lock["plotly"])
    setup = (REPO / "setup.py").read_text()
    assert "data_files=plotly_data_files()" in setup and "def has_data(" in setup
    assert "prune build" in (REPO / "MANIFEST.in").read_text()  # not in an sdist


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


def test_every_pin_of_the_lock_admits_every_supported_python():
    """Issue 39, case 1: the lock pinned ``soupsieve==4.1.3`` (Requires-Python >= 3.11.5), so
    the test command's install failed on Debian 12's Python 3.11.2 though the README says 3.11+.
    Every pin's ``Requires-Python``, read from the distribution installed here at that very
    version (no index asked), must admit the first release of every supported Python (3.11.0 to
    the newest classifier)."""
    lock = _lock_module()
    pythons = lock.supported_pythons(REPO / "pyproject.toml")
    assert pythons[0] == "3.11.0" and len(pythons) >= 2, pythons
    pins = lock.read(REPO / "binder" / "constraints.txt")
    from importlib import metadata

    installed = {n: metadata.distribution(n).version for n in pins}
    assert installed == pins, "install under the lock first (scripts/test-all.sh does)"
    bad = lock.unsupported(pins, pythons)
    assert not bad, f"pins that leave out a Python between {pythons[0]} and {pythons[-1]}: {bad}"


def test_the_readme_names_the_supported_pythons():
    """The README's Python line and ``binder/runtime.txt`` agree with ``requires-python`` and
    the classifiers (the range the lock is checked against)."""
    lock = _lock_module()
    pythons = lock.supported_pythons(REPO / "pyproject.toml")
    first, last = (".".join(v.split(".")[:2]) for v in (pythons[0], pythons[-1]))
    assert f"Python {first} to {last}" in (REPO / "README.md").read_text()
    runtime = (REPO / "binder" / "runtime.txt").read_text().strip()
    assert runtime.removeprefix("python-") in [".".join(v.split(".")[:2]) for v in pythons]


def test_lock_refuses_a_pin_that_leaves_out_a_supported_python(monkeypatch, tmp_path):
    """``python binder/lock.py`` writes no lock that a supported Python cannot install."""
    lock = _lock_module()

    class Dist:
        def __init__(self, spec):
            self.metadata = {"Requires-Python": spec}

    specs = {"soupsieve": ">=3.11.5", "six": ">=2.7, !=3.0.*", "old": "<3.14", "any": None}
    monkeypatch.setattr(lock.metadata, "distribution", lambda n: Dist(specs[n]))
    pythons = ["3.11.0", "3.12.0", "3.13.0", "3.14.0"]
    assert lock.unsupported(dict.fromkeys(specs, "1"), pythons) == {
        "soupsieve": ">=3.11.5",
        "old": "<3.14",
    }
    py = tmp_path / "pyproject.toml"
    py.write_text('[project]\nrequires-python = ">=3.11"\nclassifiers = []\n')
    with pytest.raises(ValueError, match="classifier"):
        lock.supported_pythons(py)
    py.write_text('[project]\nrequires-python = "~=3.11"\n')
    with pytest.raises(ValueError, match="floor"):
        lock.supported_pythons(py)


@pytest.mark.network
def test_the_lock_resolves_on_the_oldest_and_newest_supported_python(tmp_path):
    """Issue 39, case 1, against the index itself (PyPI's JSON API): every pin of the lock has a
    wheel whose tags and ``Requires-Python`` fit Python 3.11.0 and the newest supported Python,
    and no pin is a yanked release (``soupsieve`` 3.0 and 3.0.1 were yanked for 3.11 < 3.11.5). Asks PyPI: runs where ``MONEYNB_NETWORK_TESTS=1`` (CI sets it,
    ``.ci/run``)."""
    lock = _lock_module()
    pythons = lock.supported_pythons(REPO / "pyproject.toml")
    problems = lock.resolve([pythons[0], pythons[-1]], REPO / "binder" / "constraints.txt")
    assert not problems, problems
    old = tmp_path / "old.txt"  # the pins of the lock before issue 39
    old.write_text("# before\nsoupsieve==4.1.3\nnumpy==2.4.6\n")
    assert lock.resolve([pythons[0], pythons[-1]], old) == {
        "soupsieve==4.1.3": "no wheel for Python 3.11.0 (Requires-Python ['>=3.11.5'])"
    }


def _install_lines() -> list[tuple[str, str]]:
    """``(file, line)`` of every ``pip install`` the README, docs/ and notebooks tell a reader
    to run, and every one the package's own messages give."""
    import re

    places = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    places += sorted((REPO / "notebooks").glob("*.ipynb"))
    places += sorted((REPO / "moneynb").rglob("*.py")) + sorted((REPO / "benchmarks").glob("*.py"))
    found = []
    for path in places:
        for m in re.finditer(r"pip install[^`\n]*", path.read_text()):
            found.append((path.relative_to(REPO).as_posix(), m.group(0)))
    return found


def test_every_install_line_works_from_a_clone():
    """Issue 39, case 2: docs/env.md said ``pip install "moneynb[rl]"`` / ``"moneynb[train]"``,
    which no package index has. An install of moneynb itself is ``pip install -e ".[extra]"``
    from a clone, with an extra that ``pyproject.toml`` defines."""
    import re

    extras = set(tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"])  # fmt: skip
    lines = _install_lines()
    assert len(lines) > 10
    wrong = [(f, line) for f, line in lines if re.search(r"moneynb\[", line)]
    assert not wrong, wrong
    named = {e for _, line in lines for e in re.findall(r'-e \\?["\']\.\[([a-z]+)\]', line)}
    assert {"rl", "train", "render", "app"} <= named and named <= extras, (named, extras)


def test_the_readme_layout_names_every_part_of_the_package():
    """Issue 39, case 2: the README's Layout section left out ``store/``, ``tables.py``,
    ``coach/`` and ``env/``."""
    text = (REPO / "README.md").read_text()
    layout = text[text.index("## Layout") :].split("\n## ")[0]
    parts = [p.name for p in (REPO / "moneynb").iterdir()
             if p.name != "__init__.py" and not p.name.startswith((".", "__"))
             and (p.suffix == ".py" or (p / "__init__.py").exists())]  # fmt: skip
    assert len(parts) >= 10
    missing = [p for p in parts if f"moneynb/{p}" not in layout]
    assert not missing, missing
