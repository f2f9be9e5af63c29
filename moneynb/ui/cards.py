"""``CardWidget``: the last card drawn (title and text), as an anywidget with a flip.

In the page the card is ``div.moneynb-card`` with ``data-title``; title ``.moneynb-card-title``
and text ``.moneynb-card-text``.
"""

from __future__ import annotations

import anywidget
import traitlets

_ESM = r"""
function render({ model, el }) {
  const style = document.createElement("style");
  style.textContent = `
    .moneynb-card { width:190px; min-height:110px; border-radius:10px; border:2px solid #333;
      padding:8px 10px; box-sizing:border-box; font-family:sans-serif;
      box-shadow:2px 3px 5px rgba(0,0,0,.25); background:#fffdf5; color:#1a1a1a; }
    .moneynb-card-kind { font-size:11px; text-transform:uppercase; letter-spacing:1px;
      color:#555; }
    .moneynb-card-title { font-weight:bold; font-size:16px; margin:3px 0 6px; }
    .moneynb-card-text { font-size:13px; }
    .moneynb-card-empty { color:#555; border-style:dashed; background:#fafafa; }
    .moneynb-card.moneynb-flip { animation: moneynb-flip .4s ease-out; }
    @keyframes moneynb-flip { 0% {transform:rotateY(90deg)} 100% {transform:rotateY(0)} }`;
  el.appendChild(style);
  const card = document.createElement("div");
  el.appendChild(card);
  function draw(animate) {
    const title = model.get("title");
    card.className = "moneynb-card" + (title ? "" : " moneynb-card-empty")
      + (animate ? " moneynb-flip" : "");
    card.dataset.title = title;
    card.style.background = model.get("color") || "";
    card.innerHTML = "";
    const k = document.createElement("div"); k.className = "moneynb-card-kind";
    k.textContent = model.get("kind"); card.appendChild(k);
    const t = document.createElement("div"); t.className = "moneynb-card-title";
    t.textContent = title || "(no card yet)"; card.appendChild(t);
    const x = document.createElement("div"); x.className = "moneynb-card-text";
    x.textContent = model.get("text"); card.appendChild(x);
  }
  draw(false);
  model.on("change:draws", () => draw(true));
  model.on("change:title", () => draw(false));
  model.on("change:text", () => draw(false));
}
export default { render };
"""


class CardWidget(anywidget.AnyWidget):
    """One card face up.

    Attributes (synced): ``title``, ``text``, ``kind`` (small caption above the title, e.g.
    "Task card"), ``color`` (CSS background), ``draws`` (each :meth:`show` adds one and plays
    the flip).
    """

    _esm = _ESM
    title = traitlets.Unicode("").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    kind = traitlets.Unicode("").tag(sync=True)
    color = traitlets.Unicode("").tag(sync=True)
    draws = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs):
        kwargs.setdefault("_dom_classes", ("moneynb-card-widget",))
        super().__init__(**kwargs)

    def show(
        self,
        title: str,
        text: str = "",
        kind: str | None = None,
        color: str | None = None,
        animate: bool = True,
    ) -> None:
        """Show a newly drawn card."""
        with self.hold_sync():
            self.title, self.text = title, text
            if kind is not None:
                self.kind = kind
            if color is not None:
                self.color = color
            if animate:
                self.draws += 1

    def __repr__(self) -> str:
        return f"CardWidget(title={self.title!r})"
