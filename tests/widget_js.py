"""Run an anywidget's own page code (its ``_esm``) in Node.js against a small stand-in DOM.

Kernel-side tests use it to check what a widget draws without a browser: :func:`draw` takes
the widget's synced state after each step (``states``), hands the first to ``render`` and each
later one to the model as changes (firing ``change:<name>`` handlers, as the page does), and
returns the element tree after the last one as nested dicts ``{"tag", "class", "text",
"style", "data", "children"}``.

Raises:
    RuntimeError: Node.js is missing or the page code failed (its message attached).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

_PRELUDE = r"""
class El {
  constructor(tag) { this.tagName = tag; this.style = {}; this.dataset = {};
    this.children = []; this.className = ""; this._text = ""; }
  append(...c) { this.children.push(...c); }
  appendChild(c) { this.children.push(c); return c; }
  set innerHTML(v) { this.children = []; this._text = String(v); }
  get innerHTML() { return this._text; }
  set textContent(v) { this.children = []; this._text = String(v); }
  get textContent() { return this._text + this.children.map((c) => c.textContent).join(""); }
  set title(v) { this._title = v; }
  get title() { return this._title; }
  addEventListener() {}
  setAttribute(k, v) { this.dataset["attr:" + k] = String(v); }
}
globalThis.document = { createElement: (t) => new El(t) };
function dump(e) {
  return { tag: e.tagName, class: e.className, text: e._text, style: e.style, data: e.dataset,
           children: e.children.map(dump) };
}
"""

_MAIN = r"""
const states = JSON.parse(process.argv[2]);
const state = { ...states[0] };
const handlers = {};
const model = { get: (k) => state[k], on: (ev, f) => { (handlers[ev] ||= []).push(f); },
                set() {}, save_changes() {}, send() {} };
const el = document.createElement("div");
widget.render({ model, el });
for (const next of states.slice(1)) {
  const changed = Object.keys(next).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(state[k]));
  for (const k of changed) state[k] = next[k];
  for (const k of changed) for (const f of handlers["change:" + k] || []) f();
}
console.log(JSON.stringify(dump(el)));
"""


def state(widget) -> dict:
    """The widget's synced traits (public ones) as the page's model holds them."""
    out = {}
    for k in widget.keys:
        if not k.startswith("_"):
            try:
                out[k] = json.loads(json.dumps(getattr(widget, k)))
            except TypeError:  # a child widget (layout, style): not drawn by the page code
                pass
    return out


def draw(widget, states: list[dict]) -> dict:
    """The element tree ``widget``'s page code draws after ``states`` (see the module doc)."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise RuntimeError("Node.js is needed to run a widget's page code (apt-get install nodejs)")
    src = widget._esm.replace("export default", "const widget =")
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "w.mjs"
        f.write_text(_PRELUDE + src + _MAIN, encoding="utf-8")
        out = subprocess.run(
            [node, str(f), json.dumps(states)], capture_output=True, text=True, timeout=60
        )
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout)


def find(tree: dict, cls: str) -> list[dict]:
    """Every element of ``tree`` whose class list holds ``cls``."""
    hits = [tree] if cls in tree["class"].split() else []
    for c in tree["children"]:
        hits += find(c, cls)
    return hits
