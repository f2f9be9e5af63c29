"""The lock: the exact versions both Binder and the test command install.

Usage (from the repository root, in an environment where ``moneynb[test]`` is installed and the
tests passed)::

    python binder/lock.py            # rewrite binder/constraints.txt and binder/requirements.txt
    python binder/lock.py --check    # exit 1 if either file is not what this environment writes
    python binder/lock.py --resolve  # exit 1 unless the lock installs on the oldest and newest
                                     # supported Python (asks PyPI)

To upgrade the lock deliberately (a commit of its own)::

    python -m pip install --upgrade -e ".[test]"   # today's index, no constraints
    bash scripts/test-all.sh                          # green? then:
    python binder/lock.py && git commit binder/ -m "Lock: upgrade"

It walks the requirements of ``moneynb[test]`` (which includes ``moneynb[app]``) as the installed
distributions declare them for this Python and platform, and pins each one to the version
installed here (``name==version``). Two files come out of that one walk:

* ``binder/constraints.txt``: every distribution of ``moneynb[test]``. ``scripts/test-all.sh``
  installs with ``pip install -c binder/constraints.txt -e ".[test]"``, so the tests run on
  exactly these versions, whatever the package index offers on the day.
* ``binder/requirements.txt``: the part of the same lock that ``moneynb[app]`` needs (JupyterLab,
  Voila and everything under them). repo2docker installs it by itself; ``binder/postBuild``
  then installs moneynb with ``--no-deps``. The versions are the same lines as in
  ``constraints.txt``: what Binder serves is what the tests ran on.

``runtime.txt`` picks the Python minor version the lock was made with (the headers say which).

The lock must install on every Python the project supports (issue 39: ``soupsieve==4.1.3``
needs Python >= 3.11.5 and the lock failed on Debian 12's 3.11.2): from the first release of the
``requires-python`` floor (3.11.0) to the newest ``Programming Language :: Python :: 3.x``
classifier of ``pyproject.toml``. A pin whose ``Requires-Python`` leaves out one of them is
refused; install an older release of it (``pip install "name<version"``) and run this again.

Raises (exit 1): a required distribution is not installed here, or one installed here does not
admit every supported Python.
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

HERE = Path(__file__).resolve().parent
#: the whole lock (the test command's constraints)
CONSTRAINTS = HERE / "constraints.txt"
#: the app's share of the lock (what repo2docker installs)
LOCK = HERE / "requirements.txt"
ROOT = "moneynb"
#: (extras, file) pairs written from one walk each
FILES = ((("test",), CONSTRAINTS), (("app",), LOCK))


def supported_pythons(pyproject: Path = HERE.parent / "pyproject.toml") -> list[str]:
    """The first release of every Python minor version the project supports, oldest first
    (``["3.11.0", ..., "3.14.0"]``): from the ``requires-python`` floor (``>=3.11``) to the
    newest ``Programming Language :: Python :: 3.x`` classifier.

    Raises:
        ValueError: ``requires-python`` is not a ``>=3.x`` floor, or no classifier names a
            Python at or above it.
    """
    project = tomllib.loads(pyproject.read_text())["project"]
    floor = re.fullmatch(r">=\s*3\.(\d+)", project.get("requires-python", "").strip())
    minors = [
        int(m.group(1))
        for c in project.get("classifiers", [])
        if (m := re.fullmatch(r"Programming Language :: Python :: 3\.(\d+)", c))
    ]
    if floor is None:
        raise ValueError(
            f"requires-python is not a '>=3.x' floor: {project.get('requires-python')!r}"
        )
    low = int(floor.group(1))
    if not minors or max(minors) < low:
        raise ValueError(
            "no 'Programming Language :: Python :: 3.x' classifier at or above the floor"
        )
    return [f"3.{m}.0" for m in range(low, max(minors) + 1)]


def unsupported(pins: dict[str, str], pythons: list[str]) -> dict[str, str]:
    """``{pin: its Requires-Python}`` for the pins whose installed distribution leaves out one
    of ``pythons`` (read from the installed metadata: no index is asked)."""
    bad = {}
    for name in pins:
        spec = metadata.distribution(name).metadata.get("Requires-Python") or ""
        if not all(SpecifierSet(spec).contains(v, prereleases=True) for v in pythons):
            bad[name] = spec
    return bad


def resolve(
    pythons: list[str], lock: Path = CONSTRAINTS, index: str = "https://pypi.org/pypi"
) -> dict[str, str]:
    """Ask the package index whether every pin of ``lock`` installs on each of ``pythons``
    (``"3.11.0"``): the release is not yanked, and one of its wheels admits that Python in its
    ``Requires-Python`` and fits its tags on this platform (PyPI's JSON API, one request per
    pin, about half a minute). Returns ``{"name==version": what is wrong}``, ``{}`` when every pin
    installs on every one of ``pythons``.

    Raises:
        OSError: the index cannot be reached.
    """
    import json
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    from packaging import tags
    from packaging.utils import parse_wheel_filename

    platforms = list(tags.platform_tags())
    accepted = {}
    for version in pythons:
        major_minor = tuple(int(x) for x in version.split(".")[:2])
        accepted[version] = set(tags.cpython_tags(major_minor, platforms=platforms)) | set(
            tags.compatible_tags(major_minor, platforms=platforms)
        )

    def files(pin):
        url = f"{index}/{pin[0]}/json"
        for attempt in range(3):
            try:
                with urllib.request.urlopen(url, timeout=60) as answer:
                    return json.load(answer)["releases"].get(pin[1], [])
            except OSError:
                if attempt == 2:
                    raise
        return []

    pins = list(read(lock).items())
    with ThreadPoolExecutor(8) as pool:
        found = dict(zip(pins, pool.map(files, pins), strict=True))
    problems = {}
    for (name, version), entries in found.items():
        wheels = [f for f in entries if f["filename"].endswith(".whl")]
        wrong = [] if entries else ["no such release on the index"]
        if any(f.get("yanked") for f in entries):
            wrong.append("yanked")
        for py in pythons:
            fits = [
                f
                for f in wheels
                if SpecifierSet(f.get("requires_python") or "").contains(py, prereleases=True)
                and parse_wheel_filename(f["filename"])[3] & accepted[py]
            ]
            if entries and not fits:
                spec = {f.get("requires_python") for f in entries} - {None}
                wrong.append(f"no wheel for Python {py} (Requires-Python {sorted(spec) or 'any'})")
        if wrong:
            problems[f"{name}=={version}"] = "; ".join(wrong)
    return problems


def closure(root: str = ROOT, extras=("app",)) -> dict[str, str]:
    """``{distribution name: installed version}`` for everything ``root[extras]`` needs here
    (``root`` itself left out), walking the installed distributions' declared requirements with
    their markers evaluated for this Python and platform.

    Raises:
        metadata.PackageNotFoundError: a needed distribution is not installed.
    """
    todo = [(root, frozenset(extras))]
    done: dict[str, set] = {}
    pins: dict[str, str] = {}
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if key in done and wanted <= done[key]:
            continue
        done.setdefault(key, set()).update(wanted)
        dist = metadata.distribution(name)
        if key != canonicalize_name(root):
            pins[dist.metadata["Name"]] = dist.version
        for text in dist.requires or []:
            req = Requirement(text)
            envs = [{"extra": e} for e in sorted(done[key])] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                todo.append((req.name, frozenset(req.extras)))
    return dict(sorted(pins.items(), key=lambda kv: canonicalize_name(kv[0])))


def read(path: Path) -> dict[str, str]:
    """``{canonical name: version}`` of a lock file's ``name==version`` lines.

    Raises:
        ValueError: a line that is neither a comment nor an exact pin.
    """
    pins = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        if not sep or not version.strip() or any(c in version for c in " ;<>=!~,"):
            raise ValueError(f"{path.name}: not an exact pin: {line!r}")
        pins[canonicalize_name(name)] = version.strip()
    return pins


def render(pins: dict[str, str], extras) -> str:
    """The text of one lock file (a header naming the Python it was made with, then pins)."""
    py = ".".join(platform.python_version_tuple()[:2])
    head = (
        f"# Exact versions: moneynb[{','.join(extras)}] on Python {py} ({sys.platform}).\n"
        "# Generated by `python binder/lock.py` from the environment the tests passed in\n"
        "# (see that file to upgrade); do not edit by hand.\n"
    )
    return head + "".join(f"{name}=={version}\n" for name, version in pins.items())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    ap.add_argument(
        "--resolve",
        action="store_true",
        help="ask the index whether the lock installs on the oldest and newest supported Python",
    )
    args = ap.parse_args(argv)
    if args.resolve:
        pythons = supported_pythons()
        problems = resolve([pythons[0], pythons[-1]])
        for pin, said in problems.items():
            print(f"{pin}: {said}", file=sys.stderr)
        if not problems:
            print(f"the lock installs on Python {pythons[0]} and {pythons[-1]}")
        return 1 if problems else 0
    try:
        walks = {path: (closure(extras=extras), extras) for extras, path in FILES}
    except metadata.PackageNotFoundError as e:
        print(f"not installed here: {e}; install moneynb[test] first", file=sys.stderr)
        return 1
    pythons = supported_pythons()
    bad = unsupported(walks[CONSTRAINTS][0], pythons)
    if bad:
        print(
            f"not installable on every supported Python ({pythons[0]} to {pythons[-1]}): "
            + "; ".join(f"{n} (Requires-Python {s})" for n, s in bad.items())
            + ': install an older release of each (pip install "name<version") and lock again',
            file=sys.stderr,
        )
        return 1
    texts = {path: render(pins, extras) for path, (pins, extras) in walks.items()}
    if args.check:
        stale = [p.name for p, t in texts.items() if not p.exists() or p.read_text() != t]
        print(f"differs: {', '.join(stale)}" if stale else "the lock is up to date")
        return 1 if stale else 0
    for path, text in texts.items():
        path.write_text(text)
        print(f"wrote {path} ({text.count('==')} pins)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
