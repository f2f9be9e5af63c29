"""Who is at this browser: the owner of the games it starts (issue 25).

Under JupyterHub the owner is the hub user (``JUPYTERHUB_USER``: "hub:ann"). Otherwise it is
the browser's: :class:`BrowserIdentity`, a hidden anywidget, keeps a random id (128 bits, 32
hex digits) in the browser's ``localStorage`` and sends it to the kernel ("browser:<id>"), so
each Voila visitor and each JupyterLab browser is one owner and a reloaded page is the same
owner again. A browser that refuses ``localStorage`` gets an id for that page only.

The kernel remembers the last owner a widget reported (:func:`current_owner`); views and the
launcher wait for it (:meth:`BrowserIdentity.on_owner`) before offering unfinished games, so
a visitor is never offered another's.
"""

from __future__ import annotations

from collections.abc import Callable

import anywidget
import traitlets

from ..store.identity import browser_owner, local_owner

__all__ = ["BrowserIdentity", "current_owner", "when_owner"]

#: the owner the kernel last heard from a browser (see BrowserIdentity)
_state: dict[str, str | None] = {"owner": None}
#: callbacks waiting for the first owner this kernel hears of (see :func:`when_owner`)
_waiting: list[Callable[[str], None]] = []


def when_owner(callback: Callable[[str], None]) -> None:
    """Call ``callback(owner)`` as soon as this kernel knows who it works for: now when it
    does (:func:`current_owner`), else when any :class:`BrowserIdentity` reports (issue 36: a
    lesson result posted in Voila, where every cell runs before the page has said who it is)."""
    owner = current_owner()
    if owner:
        callback(owner)
    else:
        _waiting.append(callback)


def current_owner() -> str | None:
    """The hub user ("hub:<user>"), else the browser owner last reported to this kernel, else
    None (not known yet: a :class:`BrowserIdentity` has not been drawn)."""
    return local_owner() or _state["owner"]


_ESM = """
function randomId() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
function render({ model, el }) {
  el.style.display = "none";
  let id = null;
  try {
    id = window.localStorage.getItem("moneynb-owner");
    if (!/^[0-9a-f]{32}$/.test(id || "")) {
      id = randomId();
      window.localStorage.setItem("moneynb-owner", id);
    }
  } catch (e) {
    id = id && /^[0-9a-f]{32}$/.test(id) ? id : randomId();  // no storage: this page only
  }
  if (model.get("browser_id") !== id) {
    model.set("browser_id", id);
    model.save_changes();
  }
}
export default { render };
"""


class BrowserIdentity(anywidget.AnyWidget):
    """A hidden widget that tells the kernel which browser it is drawn in (see the module
    docstring). Put it among a view's children; :meth:`on_owner` calls back once the owner
    is known (at once under JupyterHub, or when this kernel already heard from a browser).

    Traits: ``browser_id`` (32 hex digits, set by the page; anything else is ignored).
    CSS class: ``moneynb-identity``.
    """

    _esm = _ESM
    browser_id = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_class("moneynb-identity")
        self._callbacks: list[Callable[[str], None]] = []
        self.observe(self._reported, "browser_id")

    @property
    def owner(self) -> str | None:
        """This widget's owner: the hub user, or the browser that drew it (None until it
        reported)."""
        hub = local_owner()
        if hub:
            return hub
        try:
            return browser_owner(self.browser_id)
        except ValueError:
            return None

    def on_owner(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(owner)`` once the owner is known (now, if it already is)."""
        owner = self.owner or current_owner()
        if owner:
            callback(owner)
        else:
            self._callbacks.append(callback)

    def _reported(self, _change=None) -> None:
        owner = self.owner
        if owner is None:
            return
        if not local_owner():
            _state["owner"] = owner
        waiting, self._callbacks = self._callbacks, []
        waiting += _waiting
        _waiting.clear()
        for cb in waiting:
            cb(owner)
