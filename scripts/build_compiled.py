"""Build the optional compiled engine: the same Python sources, compiled by Cython.

Run: ``pip install cython && python scripts/build_compiled.py [--into DIR] [--clean] [--pgo]``.
(An install compiles the same modules the same way: ``MONEYNB_COMPILED=1 pip install .``, or
``MONEYNB_COMPILED=pgo`` for ``--pgo``; see ``build_backend/moneynb_build.py``.)

Cython (from PyPI) compiles the engine's hot modules (:data:`MODULES`: the core protocol, the
five games' rules and the bots), unchanged, into extension modules placed beside their ``.py``
files; Python imports an extension module before the source of the same name, so the engine
then runs compiled, and removing them (``--clean``) gives back the pure-Python engine, which is
always the reference (nothing is written differently for the compiler). ``--into DIR``
copies the ``moneynb`` package to ``DIR`` first and builds there (the working tree is left
pure Python; run with ``PYTHONPATH=DIR``), as ``benchmarks/bench_speed.py --compiled`` does.

A compiled module is built from one version of its source: after editing a source, build
again (or ``--clean``). ``moneynb/compiled.json`` records each source's SHA-256 at build time;
``tests/test_compiled.py`` fails while a compiled module is older than its source, and runs
the golden games and the engine tests on the compiled build when there is one. Source:
issue 40 ("an optional compiled build of the core").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "build_backend"))
# the modules compiled (relative to the directory that holds ``moneynb``) and Cython's settings:
# the same as ``MONEYNB_COMPILED=1 pip install .`` (build_backend/moneynb_build.py)
from moneynb_build import (  # noqa: E402
    DIRECTIVES,
    MODULES,
    PGO_GENERATE,
    PGO_TRAINING,
    PGO_USE,
)

MANIFEST = "moneynb/compiled.json"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_files(base: Path) -> list[Path]:
    """The extension modules built beside the sources under ``base``."""
    return sorted(p for m in MODULES for p in (base / m).parent.glob(Path(m).stem + ".*.so"))


def clean(base: Path) -> None:
    """Remove the extension modules, their C files and the manifest under ``base``."""
    for p in compiled_files(base):
        p.unlink()
    for m in MODULES:
        (base / m).with_suffix(".c").unlink(missing_ok=True)
    (base / MANIFEST).unlink(missing_ok=True)


def _compile(base: Path, tmp: str, jobs: int, flags: tuple = ([], [])) -> None:
    """One ``build_ext --inplace --force`` of :data:`MODULES` under ``base``, objects in
    ``tmp``, with ``flags`` (extra compile and link arguments) after ``-g0``.

    Raises:
        SystemExit: the build failed.
    """
    compile_args, link_args = flags
    setup = (
        "import sys\n"
        "from setuptools import Extension, setup\n"
        "from Cython.Build import cythonize\n"
        f"mods = {list(MODULES)!r}\n"
        "exts = [Extension(m[:-3].replace('/', '.'), [m]) for m in mods]\n"
        f"directives = {DIRECTIVES!r}\n"
        "level = directives.pop('language_level')\n"
        "for e in exts:  # -g0: no debug information, a quicker build\n"
        f"    e.extra_compile_args = ['-g0', *{list(compile_args)!r}]\n"
        f"    e.extra_link_args = {list(link_args)!r}\n"
        "setup(ext_modules=cythonize(exts, language_level=level, quiet=True,\n"
        "      compiler_directives=directives),\n"
        f"      script_args=['build_ext', '--inplace', '--force', '-j', '{jobs}',\n"
        "                   '--build-temp', sys.argv[1]])\n"
    )
    script = Path(tmp) / "setup_compiled.py"
    script.write_text(setup)
    res = subprocess.run([sys.executable, str(script), tmp], cwd=base)
    if res.returncode:
        sys.exit(f"the build failed (exit status {res.returncode})")


def build(base: Path, jobs: int = 2, pgo: bool = False) -> None:
    """Compile :data:`MODULES` under ``base`` in place and write the manifest. ``pgo``: a
    profile-guided build (gcc): compiled instrumented, the training run
    (``moneynb_build.PGO_TRAINING``) played on it, compiled again from what it recorded, as
    ``MONEYNB_COMPILED=pgo pip install .`` does.

    Raises:
        SystemExit: Cython is not installed, or the build (or the training run) failed.
    """
    try:
        import Cython  # noqa: F401
    except ImportError:
        sys.exit("Cython is needed: pip install cython")
    with tempfile.TemporaryDirectory(prefix="moneynb-build-") as tmp:
        if pgo:
            _compile(base, tmp, jobs, PGO_GENERATE)
            env = {**os.environ, "PYTHONPATH": str(base)}
            res = subprocess.run([sys.executable, "-P", "-c", PGO_TRAINING], env=env, cwd=tmp)
            if res.returncode:
                sys.exit(f"the training run failed (exit status {res.returncode})")
        _compile(base, tmp, jobs, PGO_USE if pgo else ([], []))
    for m in MODULES:
        (base / m).with_suffix(".c").unlink(missing_ok=True)
    manifest = {m: sha256(base / m) for m in MODULES}
    (base / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"compiled {len(compiled_files(base))} modules under {base}" + (" (pgo)" * pgo))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--into", help="copy moneynb to this directory and build there")
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    ap.add_argument("--jobs", type=int, default=2, help="modules compiled at once")
    ap.add_argument(
        "--pgo", action="store_true", help="profile-guided (gcc): about twice the build time"
    )
    args = ap.parse_args()
    base = ROOT
    if args.into:
        base = Path(args.into).resolve()
        base.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(base / "moneynb", ignore_errors=True)
        shutil.copytree(
            ROOT / "moneynb", base / "moneynb", ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    clean(base)
    if not args.clean:
        build(base, args.jobs, args.pgo)


if __name__ == "__main__":
    main()
