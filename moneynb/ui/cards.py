"""``CardWidget``: the last card drawn (title and text), as an anywidget with a flip.

Colours: the card's tint (``color``) under near-black text in a light theme; in a dark one
(``body[data-jp-theme-light=false]``, JupyterLab Dark, Voila ``?theme=dark``) a little of the
tint over the theme's panel colour, under the theme's text. In the page the card is
``div.moneynb-card`` with ``data-title``; title ``.moneynb-card-title``
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
      box-shadow:2px 3px 5px rgba(0,0,0,.25); background:var(--moneynb-card-tint, #fffdf5);
      color:#1a1a1a; }
    .moneynb-card-kind { font-size:11px; text-transform:uppercase; letter-spacing:1px;
      color:#555; }
    /* a dark theme: the card's tint over the theme's panel colour, the theme's text */
    body[data-jp-theme-light="false"] .moneynb-card {
      background:color-mix(in srgb, var(--moneynb-card-tint, #fffdf5) 14%,
        var(--jp-layout-color1, #212121));
      color:var(--jp-ui-font-color0, #fff); border-color:var(--jp-ui-font-color2, #9e9e9e); }
    body[data-jp-theme-light="false"] .moneynb-card-kind,
    body[data-jp-theme-light="false"] .moneynb-card-empty {
      color:var(--jp-ui-font-color1, #e0e0e0); }
    .moneynb-card-title { font-weight:bold; font-size:16px; margin:3px 0 6px; }
    .moneynb-card-text { font-size:13px; }
    .moneynb-card-owner { font-size:12px; font-style:italic; margin-top:6px; }
    .moneynb-card-empty { color:#555; border-style:dashed; --moneynb-card-tint:#fafafa; }
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
    // the tint the kernel chose, as a CSS variable: the light theme shows it as it is, a
    // dark theme mixes a little of it into its own panel colour (issue 30, case 6)
    const tint = model.get("color");
    card.style.cssText = tint && title ? "--moneynb-card-tint:" + tint : "";
    card.innerHTML = "";
    const k = document.createElement("div"); k.className = "moneynb-card-kind";
    k.textContent = model.get("kind"); card.appendChild(k);
    const t = document.createElement("div"); t.className = "moneynb-card-title";
    t.textContent = title || "(no card yet)"; card.appendChild(t);
    const x = document.createElement("div"); x.className = "moneynb-card-text";
    x.textContent = model.get("text"); card.appendChild(x);
    const who = model.get("owner") || "";
    card.dataset.owner = who;
    if (title && who) {  // whose card it is, as the log names them (issue 30, case 3)
      const o = document.createElement("div"); o.className = "moneynb-card-owner";
      o.textContent = "Drawn for " + who; card.appendChild(o);
    }
  }
  draw(false);
  model.on("change:draws", () => draw(true));
  model.on("change:title", () => draw(false));
  model.on("change:text", () => draw(false));
  model.on("change:owner", () => draw(false));
}
export default { render };
"""


class CardWidget(anywidget.AnyWidget):
    """One card face up.

    Attributes (synced): ``title``, ``text``, ``kind`` (small caption above the title, e.g.
    "Task card"), ``color`` (CSS background), ``owner`` (the player the card was drawn for,
    shown as "Drawn for Ann"; "" for none), ``draws`` (each :meth:`show` adds one and plays
    the flip).
    """

    _esm = _ESM
    title = traitlets.Unicode("").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    kind = traitlets.Unicode("").tag(sync=True)
    color = traitlets.Unicode("").tag(sync=True)
    owner = traitlets.Unicode("").tag(sync=True)
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
        owner: str = "",
    ) -> None:
        """Show a newly drawn card; ``owner`` is the name of the player it was drawn for
        (from the event that drew it), "" for none."""
        with self.hold_sync():
            self.title, self.text, self.owner = title, text, owner
            if kind is not None:
                self.kind = kind
            if color is not None:
                self.color = color
            if animate:
                self.draws += 1

    def __repr__(self) -> str:
        return f"CardWidget(title={self.title!r})"
