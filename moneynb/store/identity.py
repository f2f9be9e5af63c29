"""Who owns a game, and who is a teacher (issue 25). No Jupyter here: the browser identity
widget is :mod:`moneynb.ui.identity`.

Owner strings:

- ``"hub:<user>"``: the JupyterHub user (``JUPYTERHUB_USER``, set by the hub in every user
  server and kernel);
- ``"browser:<32 hex digits>"``: a random id a browser keeps in its ``localStorage`` (each
  Voila visitor and each JupyterLab browser is one owner; see :mod:`moneynb.ui.identity`).

Teachers are set by configuration when the server starts: ``MONEYNB_TEACHERS`` (hub user names,
separated by commas or spaces), or ``MONEYNB_TEACHER_PASSCODE`` (a passcode a teacher types
into a password box, never into a cell; compared in constant time, and rate-limited:
:mod:`moneynb.store.limits`). The store's "list everyone's games" is
``Store.list_games(owner=None)``; a view must ask :func:`is_teacher` before offering it.
"""

from __future__ import annotations

import hmac
import os
import re

#: longest owner string stored
MAX_OWNER = 200
_BROWSER = re.compile(r"^[0-9a-f]{32}$")


def local_owner() -> str | None:
    """``"hub:<user>"`` when this kernel runs under JupyterHub (``JUPYTERHUB_USER``), else
    None (the owner is then the browser's: :mod:`moneynb.ui.identity`)."""
    user = os.environ.get("JUPYTERHUB_USER", "").strip()
    return f"hub:{user}"[:MAX_OWNER] if user else None


def browser_owner(browser_id: str) -> str:
    """``"browser:<id>"`` for the random id a browser sent.

    Raises:
        ValueError: ``browser_id`` is not 32 lowercase hex digits (what the widget makes).
    """
    if not isinstance(browser_id, str) or not _BROWSER.match(browser_id):
        raise ValueError(f"a browser id is 32 hex digits, got {browser_id!r:.60}")
    return f"browser:{browser_id}"


def teachers() -> frozenset[str]:
    """The hub user names in ``MONEYNB_TEACHERS`` (commas or spaces between names)."""
    raw = os.environ.get("MONEYNB_TEACHERS", "")
    return frozenset(n for n in re.split(r"[,\s]+", raw) if n)


def is_teacher(owner: str | None) -> bool:
    """True when ``owner`` is ``"hub:<user>"`` with ``user`` in ``MONEYNB_TEACHERS``."""
    return bool(owner) and owner.startswith("hub:") and owner[4:] in teachers()


def teacher_passcode_ok(code: str, owner: str | None = None, store=None) -> bool:
    """True when ``code`` equals ``MONEYNB_TEACHER_PASSCODE`` (set when the server starts;
    unset or empty: no passcode opens the teacher's view). Constant-time comparison.

    Tries are rate-limited per ``owner`` and per server (the ledger of ``store``, None: the
    default store; :func:`moneynb.store.limits.check_try`): after a few wrong passcodes each
    next try waits longer, and a try made too early is refused without being compared.

    Raises:
        TooManyTries: too many wrong passcodes by ``owner`` or on this server: wait the
            seconds it says (the passcode was not compared).
    """
    expected = os.environ.get("MONEYNB_TEACHER_PASSCODE", "")
    if not expected or not isinstance(code, str) or not code:
        return False
    from . import limits

    limits.check_try("passcode", owner, store)
    if hmac.compare_digest(code.encode(), expected.encode()):
        limits.right_try("passcode", owner, store)
        return True
    limits.wrong_try("passcode", owner, store)
    return False
