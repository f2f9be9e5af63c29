"""Two things ``pyproject.toml`` cannot say:

* The optional compiled engine (issue 40): with ``MONEYNB_COMPILED=1`` the build compiles
  ``build_backend.moneynb_build.MODULES`` with Cython; otherwise a pure-Python package (see
  ``build_backend/moneynb_build.py`` and docs/speed.md).
* plotly's widget module as a data file (issue 41): copied from the build environment's plotly
  (``[build-system] requires``: the plotly moneynb runs with) to
  ``{prefix}/share/jupyter/labextensions/moneynb/static/<key>.js``, where JupyterLab and Voila
  serve it (``moneynb/ui/static.py``, docs/ui.md). A wheel and an editable install both get it.
  Without plotly in the build environment (``--no-build-isolation``) the build leaves it out,
  with a warning: the pages then get plotly's code through the kernel.

Every other setting is in ``pyproject.toml``.
"""

from __future__ import annotations

import hashlib
import json
import os
import runpy
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "build_backend"))
from moneynb_build import (  # noqa: E402
    DIRECTIVES,
    MODULES,
    PGO_GENERATE,
    PGO_TRAINING,
    PGO_USE,
    pgo_wanted,
    wanted,
)

MANIFEST = "moneynb/compiled.json"
#: where the build puts plotly's widget module before it goes into the wheel's data
STATIC_BUILD = "build/moneynb-static"


def plotly_data_files() -> list[tuple[str, list[str]]]:
    """``data_files`` holding plotly's widget module and its license
    (``moneynb.ui.static.write_bundle``, ``write_license``, run from its file: moneynb's own
    dependencies are not in the build environment), or ``[]`` without plotly."""
    static = runpy.run_path(str(ROOT / "moneynb" / "ui" / "static.py"))
    try:
        path = static["write_bundle"](ROOT / STATIC_BUILD)
    except ImportError:
        warnings.warn(
            "plotly is not in the build environment: plotly's widget code is not installed "
            "as a file; pages will get it through the kernel (moneynb/ui/static.py)",
            stacklevel=1,
        )
        return []
    files = [path, static["write_license"](ROOT / STATIC_BUILD)]
    return [(static["INSTALL_DIR"], [f.relative_to(ROOT).as_posix() for f in files if f])]


class EditableDataDistribution(Distribution):
    """setuptools' ``editable_wheel`` installs a category of files when the distribution
    answers ``has_<category>()``: ``has_data`` for data files, a name the distribution does
    not define (it has ``has_data_files``), so an editable install (``pip install -e .``)
    silently left every data file out (setuptools 84.2.1, ``editable_wheel._run_install``).
    A wheel's ``install`` asks ``has_data_files`` and is not changed."""

    def has_data(self) -> bool:
        return self.has_data_files()


class build_compiled(build_ext):
    """``build_ext`` on every core, then ``moneynb/compiled.json``: each compiled source's
    SHA-256. Profile-guided when asked (``MONEYNB_COMPILED=pgo``) and the compiler is gcc:
    built instrumented, :data:`PGO_TRAINING` played on that build, built again from what it
    recorded."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def _flags(self, compile_args: list, link_args: list) -> None:
        for ext in self.extensions:
            ext.extra_compile_args = ["-g0", *compile_args]
            ext.extra_link_args = list(link_args)

    def _train(self) -> None:
        """:data:`PGO_TRAINING` played on the instrumented build: a copy of the package's
        sources and data with the modules just built put beside them (a wheel's, an in-place
        and an editable build's alike: an editable build's ``build_lib`` holds no sources),
        pip's build environment (on ``PYTHONPATH``) after it.

        Raises:
            subprocess.CalledProcessError: the training run failed.
        """
        with tempfile.TemporaryDirectory(prefix="moneynb-pgo-") as tmp:
            ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
            shutil.copytree(ROOT / "moneynb", Path(tmp) / "moneynb", ignore=ignore)
            for ext in self.extensions:
                shutil.copy2(
                    self.get_ext_fullpath(ext.name), Path(tmp, self.get_ext_filename(ext.name))
                )
            path = os.pathsep.join(p for p in (tmp, os.environ.get("PYTHONPATH")) if p)
            env = {**os.environ, "PYTHONPATH": path}
            subprocess.run([sys.executable, "-P", "-c", PGO_TRAINING], env=env, cwd=tmp, check=True)

    def run(self):
        if pgo_wanted() and _gcc():
            self.force = True  # every module compiled in each pass
            for old in Path(self.build_temp).rglob("*.gcda"):  # counts of an earlier build
                old.unlink()
            self._flags(*PGO_GENERATE)
            compiler = self.compiler  # (run() replaces the name by the compiler it made)
            super().run()
            self._train()
            self._flags(*PGO_USE)
            self.compiler = compiler
        super().run()
        manifest = {m: hashlib.sha256((ROOT / m).read_bytes()).hexdigest() for m in MODULES}
        out = ROOT / MANIFEST if self.inplace else Path(self.build_lib) / MANIFEST
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(manifest, indent=1) + "\n")


def _gcc() -> bool:
    """True when extensions are compiled by gcc (the profile-guided build needs it)."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    try:
        out = subprocess.run([*cc.split()[:1], "--version"], capture_output=True, text=True)
    except OSError:
        return False
    return out.returncode == 0 and "Free Software Foundation" in out.stdout


ext_modules = []
if wanted():
    from Cython.Build import cythonize  # pip put it in the build environment (moneynb_build)
    from setuptools import Extension

    posix = os.name == "posix"  # gcc or clang
    directives = {k: v for k, v in DIRECTIVES.items() if k != "language_level"}
    ext_modules = cythonize(
        [
            # no debug information (-g0): a quicker build and a smaller wheel
            Extension(m[:-3].replace("/", "."), [m], extra_compile_args=["-g0"] * posix)
            for m in MODULES
        ],
        language_level=DIRECTIVES["language_level"],
        compiler_directives=directives,
        build_dir="build/cython",  # the generated C stays out of the sources
        quiet=True,
    )

setup(
    ext_modules=ext_modules,
    cmdclass={"build_ext": build_compiled} if ext_modules else {},
    data_files=plotly_data_files(),
    distclass=EditableDataDistribution,
)
