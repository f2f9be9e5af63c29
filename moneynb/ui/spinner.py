"""``SpinnerWidget``: a spinner of labelled, coloured segments (an anywidget).

:meth:`SpinnerWidget.spin` turns the wheel so the pointer (at the top) stops on the segment
the engine already chose: the widget only shows the result, all chance is the game's. In the
page: ``.moneynb-spinner`` with ``data-result`` holding the result's label.
"""

from __future__ import annotations

import anywidget
import traitlets

_ESM = r"""
// the ink of a segment's label: white or near-black, whichever reads better on its colour
function inkOn(color) {
  const m = /^#([0-9a-f]{6})$/i.exec(color || "");
  if (!m) return "#111";
  const lin = [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  return 1.05 / (lum + 0.05) >= (lum + 0.05) / 0.05 ? "#ffffff" : "#111111";
}
function render({ model, el }) {
  const style = document.createElement("style");
  style.textContent = `
    .moneynb-spinner { position:relative; width:170px; height:200px; font-family:sans-serif; }
    .moneynb-spinner-wheel { position:absolute; top:18px; left:5px; width:160px; height:160px;
      border-radius:50%; border:3px solid var(--jp-ui-font-color1, #333); box-sizing:border-box;
      transition: transform 1.2s cubic-bezier(.2,.8,.25,1); }
    .moneynb-spinner-pointer { position:absolute; top:6px; left:77px; width:0; height:0;
      border-left:8px solid transparent; border-right:8px solid transparent;
      border-top:18px solid var(--jp-ui-font-color0, #111); z-index:2; }
    .moneynb-spinner-label { position:absolute; font-size:11px; font-weight:bold;
      transform:translate(-50%,-50%); white-space:nowrap;
      transition: transform 1.2s cubic-bezier(.2,.8,.25,1); }
    .moneynb-spinner-result { position:absolute; bottom:0; width:100%; text-align:center;
      font-size:13px; }`;
  el.appendChild(style);
  const box = document.createElement("div"); box.className = "moneynb-spinner";
  const wheel = document.createElement("div"); wheel.className = "moneynb-spinner-wheel";
  const ptr = document.createElement("div"); ptr.className = "moneynb-spinner-pointer";
  const res = document.createElement("div"); res.className = "moneynb-spinner-result";
  box.append(wheel, ptr, res); el.appendChild(box);
  let turns = 0;
  function segs() { return model.get("segments"); }
  function drawWheel() {
    const s = segs(); const n = Math.max(1, s.length); const a = 360 / n;
    wheel.style.background = "conic-gradient(" + s.map((g, i) =>
      `${g.color || "#ccc"} ${i * a}deg ${(i + 1) * a}deg`).join(",") + ")";
    wheel.innerHTML = "";
    s.forEach((g, i) => {
      const mid = (i + 0.5) * a * Math.PI / 180;
      const l = document.createElement("span"); l.className = "moneynb-spinner-label";
      l.style.left = (77 + 52 * Math.sin(mid)) + "px";
      l.style.top = (77 - 52 * Math.cos(mid)) + "px";
      l.style.color = g.ink || inkOn(g.color || "#cccccc");
      l.textContent = g.label; wheel.appendChild(l);
    });
  }
  function showResult(animate) {
    const s = segs(); const r = model.get("result");
    if (r < 0 || r >= s.length) { res.textContent = ""; box.dataset.result = ""; return; }
    const a = 360 / s.length;
    turns += animate ? 3 : 0;
    const angle = turns * 360 - (r + 0.5) * a;
    wheel.style.transition = animate ? "" : "none";
    wheel.style.transform = `rotate(${angle}deg)`;
    // the labels turn back by the wheel's angle (same timing), so they stay upright: a 6
    // never reads as a 9 and CARD is never upside down
    for (const l of wheel.children) {
      l.style.transition = animate ? "" : "none";
      l.style.transform = `translate(-50%,-50%) rotate(${-angle}deg)`;
    }
    showText();
  }
  function showText() {  // the result, and whose spin it is, as the log names them
    const s = segs(); const r = model.get("result");
    if (r < 0 || r >= s.length) return;
    const who = model.get("owner") || "";
    box.dataset.result = s[r].label;
    box.dataset.owner = who;
    res.textContent = who ? who + " spun " + s[r].label : s[r].label;
  }
  drawWheel(); showResult(false);
  model.on("change:segments", () => { drawWheel(); showResult(false); });
  model.on("change:spins", () => showResult(true));
  model.on("change:owner", showText);
}
export default { render };
"""


class SpinnerWidget(anywidget.AnyWidget):
    """A spinner wheel.

    Attributes (synced): ``segments`` (list of ``{"label": str, "color": css}``, clockwise from
    the top; a label is drawn in ``"ink"`` if given, else white or near-black, whichever
    contrasts more with a ``#rrggbb`` colour), ``result`` (index of the segment shown under the pointer, -1 for none),
    ``spins`` (each :meth:`spin` adds one and plays the spin), ``owner`` (the name of the
    player who spun, shown under the wheel as "Ann spun 6"; "" for none).
    """

    _esm = _ESM
    segments = traitlets.List([]).tag(sync=True)
    result = traitlets.Int(-1).tag(sync=True)
    spins = traitlets.Int(0).tag(sync=True)
    owner = traitlets.Unicode("").tag(sync=True)

    def __init__(self, segments=(), **kwargs):
        if segments:
            kwargs.setdefault(
                "segments", [s if isinstance(s, dict) else {"label": str(s)} for s in segments]
            )
        kwargs.setdefault("_dom_classes", ("moneynb-spinner-widget",))
        super().__init__(**kwargs)

    def spin(self, index: int, animate: bool = True, owner: str = "") -> None:
        """Turn the wheel to segment ``index`` (the engine's result); ``owner`` is the name
        of the player who spun (from the event), "" for none.

        Raises:
            IndexError: ``index`` is not a segment.
        """
        if not 0 <= index < len(self.segments):
            raise IndexError(f"segment {index} does not exist (0..{len(self.segments) - 1})")
        with self.hold_sync():
            self.result, self.owner = index, owner
            if animate:
                self.spins += 1

    @property
    def label(self) -> str | None:
        """Label of the segment shown, or None."""
        return self.segments[self.result]["label"] if self.result >= 0 else None

    def __repr__(self) -> str:
        return f"SpinnerWidget(result={self.label!r})"
