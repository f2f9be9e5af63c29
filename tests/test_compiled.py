"""The optional compiled engine (``scripts/build_compiled.py``) is the pure-Python one, built.

Every test of the engine runs on whichever build is imported: CI runs the golden games and
the engine tests again on a compiled copy (``.ci/run``). Here: a compiled module is never
older than its source (else an edit would silently not run).
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path

import pytest

import moneynb

BASE = Path(moneynb.__file__).resolve().parent.parent


def _modules() -> tuple:
    import runpy

    script = Path(__file__).resolve().parent.parent / "scripts" / "build_compiled.py"
    return runpy.run_path(str(script))["MODULES"]


@pytest.mark.parametrize("source", _modules())
def test_a_compiled_module_is_built_from_its_source(source):
    name = source[:-3].replace("/", ".").removesuffix(".__init__")
    module = importlib.import_module(name)
    built = sorted((BASE / source).parent.glob(Path(source).stem + ".*.so"))
    if not built:  # the pure-Python engine: the source itself runs
        assert Path(module.__file__).resolve() == (BASE / source).resolve()
        return
    assert Path(module.__file__).suffix == ".so"
    manifest = BASE / "moneynb" / "compiled.json"
    assert manifest.is_file(), "compiled modules without moneynb/compiled.json: build again"
    recorded = json.loads(manifest.read_text()).get(source)
    now = hashlib.sha256((BASE / source).read_bytes()).hexdigest()
    assert recorded == now, (
        f"{source} changed since it was compiled: python scripts/build_compiled.py "
        "(or --clean for the pure-Python engine)"
    )
