"""The optional compiled engine (issue 40): with ``MONEYNB_COMPILED=1`` the build compiles
``build_backend.moneynb_build.MODULES`` with Cython; otherwise a pure-Python package. Every
other setting is in ``pyproject.toml``; see ``build_backend/moneynb_build.py`` and docs/speed.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "build_backend"))
from moneynb_build import DIRECTIVES, MODULES, wanted  # noqa: E402

MANIFEST = "moneynb/compiled.json"


class build_compiled(build_ext):
    """``build_ext`` on every core, then ``moneynb/compiled.json``: each compiled source's
    SHA-256."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self):
        super().run()
        manifest = {m: hashlib.sha256((ROOT / m).read_bytes()).hexdigest() for m in MODULES}
        out = ROOT / MANIFEST if self.inplace else Path(self.build_lib) / MANIFEST
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(manifest, indent=1) + "\n")


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

setup(ext_modules=ext_modules, cmdclass={"build_ext": build_compiled} if ext_modules else {})
