"""Import-time savings for the front end (``import moneynb.ui``).

plotly's widget imports ``plotly.io``, which imports nbformat, which imports jsonschema, whose
format checkers import ``rfc3987_syntax`` when it is installed; that package compiles an
Earley grammar (Lark) at import: about 2-5 s on a busy 2-core machine, most of
``import moneynb.ui`` (measured with ``python -X importtime -c "import moneynb.ui"``), for a
checker of the JSON-schema "iri" formats that nothing in a game calls.

:func:`defer_rfc3987_syntax` puts a stand-in module in its place before jsonschema is
imported: jsonschema takes the stand-in's ``is_valid_syntax``, which imports the real package
(and compiles the grammar) on its first call, and any other use of the module (an attribute
read, an import after this one) gets the real package. Nothing changes but the moment the
grammar is compiled. Importing this module installs it (``moneynb.ui`` imports it before
plotly).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

_NAME = "rfc3987_syntax"


def _real():
    mod = sys.modules.get(_NAME)
    if mod is None or getattr(mod, "_moneynb_stand_in", False):
        sys.modules.pop(_NAME, None)
        mod = importlib.import_module(_NAME)
    return mod


def defer_rfc3987_syntax() -> bool:
    """Install the stand-in (see the module docstring) unless jsonschema or the package is
    already imported or the package is not installed; True if it was installed."""
    if _NAME in sys.modules or "jsonschema" in sys.modules:
        return False
    try:
        if importlib.util.find_spec(_NAME) is None:
            return False
    except (ImportError, ValueError):
        return False
    stand_in = types.ModuleType(_NAME, "moneynb's stand-in: imports rfc3987_syntax when used")
    stand_in._moneynb_stand_in = True

    def is_valid_syntax(*args, **kwargs):
        return _real().is_valid_syntax(*args, **kwargs)

    stand_in.is_valid_syntax = is_valid_syntax

    def __getattr__(name: str):
        if name.startswith("__"):  # the import machinery asks for __path__ and such
            raise AttributeError(name)
        return getattr(_real(), name)

    stand_in.__getattr__ = __getattr__
    sys.modules[_NAME] = stand_in
    return True


defer_rfc3987_syntax()
