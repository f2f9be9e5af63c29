"""``DiceWidget``: dice with real faces, drawn in the page (an anywidget).

Colours: the theme's (JupyterLab's and Voila's ``--jp-...`` CSS variables, light or dark),
unless a die names its own ``color``/``ink``. Faces: an ``int`` 1-6 is drawn with pips; any other value (7, 11, 8, ...) as text on the
face, or the die's ``label`` (words: Money Moves' task die reads "Receive from the left", not
its code "RE-L"). Each new roll (:meth:`DiceWidget.show`) plays a short
tumble animation. In the page every die is ``div.moneynb-die`` with ``data-face`` holding its
value, inside ``.moneynb-dice``.
"""

from __future__ import annotations

import anywidget
import traitlets

_ESM = r"""
const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
              6: [0, 2, 3, 5, 6, 8]};
function face(el, d) {
  el.innerHTML = "";
  el.dataset.face = String(d.face);
  el.title = d.title || "";
  const v = d.face;
  if (d.pips !== false && Number.isInteger(v) && v >= 1 && v <= 6) {
    el.classList.add("moneynb-die-pips");
    for (let i = 0; i < 9; i++) {
      const c = document.createElement("span");
      if (PIPS[v].includes(i)) c.className = "moneynb-pip";
      el.appendChild(c);
    }
  } else {
    el.classList.remove("moneynb-die-pips");
    const t = document.createElement("span");
    t.className = "moneynb-die-text";
    // words on the face (a die whose faces are names: "Receive from the right"), else its value
    const words = d.label || String(v);
    t.textContent = words;
    el.classList.toggle("moneynb-die-words", words.length > 4);
    if (words.length > 2 && words.length <= 4) t.style.fontSize = "15px";
    el.appendChild(t);
  }
  if (d.color) el.style.background = d.color;
  if (d.ink) el.style.color = d.ink;
}
function render({ model, el }) {
  el.classList.add("moneynb-dice");
  const style = document.createElement("style");
  style.textContent = `
    .moneynb-dice { display:flex; gap:12px; align-items:center; padding:6px; }
    .moneynb-die { width:58px; height:58px; border-radius:10px;
      border:2px solid var(--jp-ui-font-color2, #333);
      background:var(--jp-layout-color1, #fff); color:var(--jp-ui-font-color0, #1a1a1a);
      box-shadow:2px 3px 4px rgba(0,0,0,.25); display:grid;
      grid-template-columns:repeat(3,1fr); grid-template-rows:repeat(3,1fr); padding:5px;
      box-sizing:border-box; font-family:sans-serif; }
    .moneynb-die:not(.moneynb-die-pips) { display:flex; align-items:center;
      justify-content:center; }
    .moneynb-die-text { font-weight:bold; font-size:20px; }
    .moneynb-die.moneynb-die-words { width:auto; min-width:58px; max-width:96px; }
    .moneynb-die-words .moneynb-die-text { font-size:12px; line-height:1.15;
      text-align:center; overflow-wrap:normal; }
    .moneynb-pip::after { content:""; display:block; width:10px; height:10px;
      border-radius:50%; background:currentColor; margin:auto; margin-top:2px; }
    .moneynb-die.moneynb-rolling { animation: moneynb-tumble .45s ease-out; }
    @keyframes moneynb-tumble { 0% {transform:rotate(0) scale(.6)}
      60% {transform:rotate(300deg) scale(1.1)} 100% {transform:rotate(360deg) scale(1)} }
    .moneynb-dice-caption { font-size:12px; max-width:160px;
      color:var(--jp-content-font-color1, #1a1a1a); }`;
  el.appendChild(style);
  const row = document.createElement("div");
  row.style.display = "flex"; row.style.gap = "12px"; row.style.alignItems = "center";
  el.appendChild(row);
  const caption = document.createElement("div");
  caption.className = "moneynb-dice-caption";
  el.appendChild(caption);
  function draw(animate) {
    row.innerHTML = "";
    for (const d of model.get("dice")) {
      const box = document.createElement("div");
      box.className = "moneynb-die";
      face(box, d);
      if (animate) box.classList.add("moneynb-rolling");
      row.appendChild(box);
    }
    caption.textContent = model.get("caption");
  }
  draw(false);
  model.on("change:rolls", () => draw(true));
  model.on("change:dice", () => draw(false));
  model.on("change:caption", () => { caption.textContent = model.get("caption"); });
}
export default { render };
"""


class DiceWidget(anywidget.AnyWidget):
    """Dice shown with their faces.

    Attributes (synced to the page):
        dice: list of ``{"face": value, "title": str, "pips": bool, "color": css, "ink": css,
            "label": str}`` (only ``face`` is required; ints 1-6 get pips unless ``pips`` is
            False; ``label``: the words written on the face instead of its value, the die
            then wider, up to 96 px, with 12 px words on up to three lines; the page's
            ``data-face`` is the value either way).
        rolls: counts :meth:`show` calls; each change plays the roll animation.
        caption: text under the dice ("Ann rolled 3 on the money die and Receive from
            the left on the task die.").
        owner: the name of the player who rolled ("" for none), in the page as the
            caption's ``data-owner``.
    """

    _esm = _ESM
    dice = traitlets.List([]).tag(sync=True)
    rolls = traitlets.Int(0).tag(sync=True)
    caption = traitlets.Unicode("").tag(sync=True)
    owner = traitlets.Unicode("").tag(sync=True)

    def __init__(self, faces=(), **kwargs):
        # state given to the constructor travels in the widget's first message to the page
        if faces:
            kwargs.setdefault("dice", [self._die(f) for f in faces])
        kwargs.setdefault("_dom_classes", ("moneynb-dice-widget",))
        super().__init__(**kwargs)

    @staticmethod
    def _die(face) -> dict:
        return dict(face) if isinstance(face, dict) else {"face": face}

    def show(self, faces, caption: str = "", animate: bool = True, owner: str = "") -> None:
        """Show a new roll: ``faces`` is a list of face values or die dicts; ``owner`` the
        name of the player who rolled (from the event), "" for none."""
        with self.hold_sync():
            self.dice = [self._die(f) for f in faces]
            self.caption, self.owner = caption, owner
            if animate:
                self.rolls += 1

    @property
    def faces(self) -> list:
        """The face values shown."""
        return [d.get("face") for d in self.dice]

    def __repr__(self) -> str:
        return f"DiceWidget(faces={self.faces!r})"
