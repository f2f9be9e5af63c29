"""Reproduce a JupyterLab reload that never brings the widgets back (issue 41; a script,
not a test): play a game's notebook in Lab as ``scripts/playthrough.py`` does (its first
cells, Run All, then N clicked moves with a double-click at move 10), save, reload, and
report what the outputs show, the page's console errors, the page's kernel websockets (kernel
id and client session), Lab's kernel connections (``handleComms``) and the widget messages
after the reload (``request_states`` / ``update_states`` of ipywidgets' control comm, with
their times in seconds from the reload and their sizes).

Usage::

    python benchmarks/lab_reload_repro.py GAME [MOVES=19] [TRIES=1]     # BUSY=K: K busy loops

Each try uses a new browser profile and a new notebook on one Lab server. Seen at load
15-26 (issue 41's notes): 3 of 10 tries ended with EVERY widget output of the notebook
reading "Error displaying widget: model not found" although the kernel was the same and had
answered ``request_states`` with all 549 widget states (584 kB) within 2.6 s.

It also prints ipywidgets' control-comm timer (the 4 s ``CONTROL_COMM_TIMEOUT``; note that it
is never cleared, so "fired" alone does not mean the fallback ran: a ``comm_info_request``
frame does), how many per-widget ``request_state`` replies answered their request (the
fallback), the page's widget manager (restored, models, the shown views' models present) and
moneynb's mend (``window.moneynbWidgetMend``). Env: ``FORCE=1`` makes the control-comm timer
fire at 1 ms (the fallback, deterministically: it works, 275 of 275 replies matched);
``THROTTLE=N`` slows the page's thread N times from the reload on (Chromium's CPU
throttling, a busier page); ``NOMEND=1`` keeps moneynb's mend out (before/after);
``STARVE=MS`` stretches the 100 ms sleeps of ``get_model``'s poll to MS ms, which reproduces
the failure at any load without the mend: the cause is that race (a view's poll gives up after its
last sleep, which outlasted the restore, while the manager already reads "restored"), see
docs/ui.md "Why a Lab reload under load read model not found" and
``moneynb.ui.saves.LAB_WIDGET_MEND_JS`` (the mend).
"""

# ruff: noqa: E402, B023  (a script: paths set first; the closures live for one try)

import json
import random
import re
import sys
import tempfile
import time

REPO = __import__("pathlib").Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "tests" / "browser"))
import playthrough as pt
from conftest import CHROMIUM_ARGS, find_chromium, open_and_run
from playwright.sync_api import sync_playwright
from servers import jupyter_server, patience

game = sys.argv[1]
moves = int(sys.argv[2]) if len(sys.argv) > 2 else 19
tries = int(sys.argv[3]) if len(sys.argv) > 3 else 1
import signal

signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
sys.path.insert(0, str(REPO / "benchmarks"))
import os

from bench_class_load import busy

#: logs ipywidgets' control-comm timer (the 4000 ms one whose function says "did not
#: respond"): set/fired, in ms from the page's start; FORCE=1 makes it fire at 1 ms (the
#: fallback path of every reload, deterministically); STARVE=MS stretches the 100 ms sleeps of
#: ipywidgets' ``get_model`` poll to MS (what a main thread busy for MS does to them)
TIMER_JS = """(() => {
  const force = @FORCE@, starve = @STARVE@; const orig = window.setTimeout;
  const t = window.__ctlTimer = {set: [], fired: []};
  window.setTimeout = function (fn, ms, ...rest) {
    if (ms === 4000 && typeof fn === 'function' && /did not respond/.test(String(fn))) {
      t.set.push(Math.round(performance.now()));
      const wrapped = function () { t.fired.push(Math.round(performance.now()));
                                    return fn.apply(this, arguments); };
      return orig.call(this, wrapped, force ? 1 : ms, ...rest);
    }
    if (starve && ms === 100 && /get_model/.test(new Error().stack)) {
      t.starved = (t.starved || 0) + 1; return orig.call(this, fn, +starve, ...rest); }
    return orig.call(this, fn, ms, ...rest);
  };
})();"""

#: the notebook's widget manager, found through an output's WidgetRenderer (its
#: ``_manager`` promise): restored or not, its model count, its kernel connection
MANAGER_JS = """async () => {
  const nb = window.jupyterapp.shell.currentWidget; const seen = new Set(); let r = null;
  const walk = (w) => { if (!w || seen.has(w) || r) return; seen.add(w);
    if ('_rerenderMimeModel' in w && w._manager) { r = w; return; }
    for (const c of (w.widgets || w._widgets || [])) walk(c);
    if (w.layout && w.layout.widgets) for (const c of w.layout.widgets) walk(c); };
  walk(nb.content);
  if (!r) return 'no widget renderer';
  const m = await r._manager.promise; const k = m.kernel; const ids = [];
  for (const cell of nb.content.widgets) {
    const outs = cell.model.outputs; if (!outs) continue;
    for (let i = 0; i < outs.length; i++) {
      const v = outs.get(i).data['application/vnd.jupyter.widget-view+json'];
      if (v) ids.push(v.model_id); } }
  return {restored: m._restoredStatus, models: Object.keys(m._models).length,
          shownModelsInManager: ids.filter(i => i in m._models).length + ' of ' + ids.length,
          inProgress: m._kernelRestoreInProgress,
          kernel: k && {id: k.id.slice(0, 8), cid: k.clientId.slice(0, 8),
                        handleComms: k.handleComms, disposed: k.isDisposed,
                        comms: k._comms && k._comms.size}};
}"""

with (
    busy(int(os.environ.get("BUSY", "0"))),
    sync_playwright() as p,
    jupyter_server("lab", timeout=120) as server,
):
    base, root = server
    for t in range(tries):
        ctx = p.chromium.launch_persistent_context(
            tempfile.mkdtemp(),
            executable_path=find_chromium(),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1024, "height": 700},
        )
        page = ctx.new_page()
        page.set_default_timeout(patience(60_000))
        page.on("dialog", lambda d: d.accept())
        log = []
        page.on("console", lambda m: log.append((round(time.monotonic(), 1), m.type, m.text[:300])))
        wss = []
        frames = []
        asked = set()  # msg_ids of the request_state messages the page sent
        replies = {}
        T = {"t0": time.monotonic()}

        def parse(payload):
            import struct

            if isinstance(payload, str):
                try:
                    m = json.loads(payload)
                except Exception:
                    return None
                return (
                    m.get("channel"),
                    m.get("header", {}).get("msg_type"),
                    m.get("content", {}),
                    len(payload),
                    m.get("header", {}),
                    m.get("parent_header", {}),
                )
            n = struct.unpack("<Q", payload[:8])[0]
            offs = struct.unpack("<" + "Q" * n, payload[8 : 8 + 8 * n])
            parts = [payload[offs[i] : offs[i + 1]] for i in range(n - 1)]
            try:
                ch = parts[0].decode()
                hdr = json.loads(parts[1])
                content = (
                    json.loads(parts[4]) if len(parts[4]) < 2_000_000 else {"big": len(parts[4])}
                )
            except Exception:
                return None
            return ch, hdr.get("msg_type"), content, len(payload), hdr, json.loads(parts[2])

        def note(direction, payload):
            r = parse(payload)
            if not r:
                return
            ch, mt, content, size, hdr, parent = r
            d0 = content.get("data") if isinstance(content.get("data"), dict) else {}
            if mt == "comm_msg" and d0.get("method") == "request_state":
                asked.add(hdr.get("msg_id"))
            if mt == "comm_msg" and d0.get("method") == "update" and direction == "recv":
                key = "update answering request_state" if parent.get("msg_id") in asked else None
                if key:
                    replies[key] = replies.get(key, 0) + 1
            if mt in (
                "comm_open",
                "comm_msg",
                "comm_close",
                "comm_info_request",
                "comm_info_reply",
                "kernel_info_request",
                "kernel_info_reply",
            ):
                d = content.get("data", {}) if isinstance(content.get("data"), dict) else {}
                info = d.get("method") or (
                    content.get("target_name")
                    if mt != "comm_info_reply"
                    else len(content.get("comms", {}))
                )
                if mt == "comm_msg" and d.get("method") in ("update", "echo_update"):
                    return
                frames.append((round(time.monotonic() - T["t0"], 2), direction, mt, info, size))

        def on_ws(ws):
            wss.append(ws.url)
            ws.on("framesent", lambda p: note("sent", p))
            ws.on("framereceived", lambda p: note("recv", p))

        page.on("websocket", on_ws)
        page.add_init_script(
            TIMER_JS.replace("@FORCE@", json.dumps(os.environ.get("FORCE", ""))).replace(
                "@STARVE@", json.dumps(os.environ.get("STARVE", ""))
            )
        )
        nbp = f"notebooks/_play_{game}_{t}.ipynb"
        pt._lab_notebook(game, root / nbp)
        open_and_run(page, server, nbp, timeout_s=180)
        sel = ".jp-Notebook .moneynb-view"
        page.wait_for_function(
            "(sel) => document.querySelector(sel + ' .js-plotly-plot .scatterlayer .trace')",
            arg=sel,
            timeout=patience(240_000),
        )
        rng = random.Random(f"{game}-lab")
        view = page.locator(sel)
        for k in range(1, moves + 1):
            look = page.evaluate(pt.LOOK_JS, sel)
            if look["over"]:
                print("over at", k)
                break
            if not (look["buttonsInSight"] and look["boardInSight"]):
                view.evaluate(
                    "v => (v.querySelector('.moneynb-board-row') || v).scrollIntoView({block: 'start'})"
                )
            b = pt._pick(view, rng)
            if k == 10:
                b.dblclick()
            else:
                b.click()
            pt._wait_turn(page, sel, look, patience)
            if k == 10:
                time.sleep(1.5)
        print("moves done", k, flush=True)
        nmodels = None
        t0 = time.monotonic()
        mark = len(log)
        fmark = len(frames)
        page.keyboard.press("Control+s")
        page.wait_for_function(
            "() => !document.querySelector('.jp-mod-dirty')", timeout=patience(30_000)
        )
        if os.environ.get("NOMEND"):  # the mend's own guard: it then installs nothing
            page.add_init_script("window.moneynbWidgetMend = {disabled: true};")
        if os.environ.get("THROTTLE"):  # the page's thread N times slower from the reload on
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": float(os.environ["THROTTLE"])})
        T["t0"] = time.monotonic()
        page.reload()
        page.wait_for_selector(".jp-Notebook .jp-CodeCell")
        page.evaluate(
            "() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].pop().scrollIntoView({block: 'start'})"
        )
        try:
            page.wait_for_function(
                """(sel) => document.querySelector(sel + ' .js-plotly-plot .scatterlayer .trace')
                || [...document.querySelectorAll('.jp-OutputArea-output')].some(o => /^\\s*Error displaying widget/.test(o.innerText))""",
                arg=sel,
                timeout=patience(240_000),
            )
        except Exception as e:
            print("neither drawn nor not-found:", e)
        drawn = page.evaluate(
            "(sel) => !!document.querySelector(sel + ' .js-plotly-plot .scatterlayer .trace')", sel
        )
        text = page.evaluate(
            "() => [...document.querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText.slice(0,80).replace(/\\s+/g,' '))"
        )
        print(f"load {os.getloadavg()[0]:.1f}")
        print(f"try {t}: after reload {time.monotonic() - t0:.1f}s drawn={drawn}")
        for x in text:
            print("   output:", x)
        print(
            "   websockets:",
            [
                re.sub(r".*/api/kernels/([\w-]{8})[^?]*\??(.*)", r"\1 \2", u)[:60]
                for u in wss
                if "/api/kernels/" in u
            ],
        )
        diag = page.evaluate("""() => { const app = window.jupyterapp; const km = app.serviceManager.kernels;
          const conns = [...(km._kernelConnections||[])].map(k => ({id: k.id.slice(0,8), handleComms: k.handleComms, disposed: k.isDisposed, status: k.connectionStatus, cid: k.clientId.slice(0,8)}));
          const nb = app.shell.currentWidget; const s = nb && nb.sessionContext && nb.sessionContext.session; const sk = s && s.kernel;
          return {conns, nbKernel: sk && {id: sk.id.slice(0,8), handleComms: sk.handleComms, cid: sk.clientId.slice(0,8), disposed: sk.isDisposed}}; }""")
        print("   diag:", diag)
        print("   widget manager:", page.evaluate(MANAGER_JS))
        for m in log[mark:]:
            if (m[1] in ("error", "warning") or "widget" in m[2].lower()) and not m[2].startswith(
                "Plugin "
            ):
                print("   console", m)
        counts = {}
        for f in frames[fmark:]:
            key = (
                f[1:4]
                if f[2] != "comm_msg"
                or f[3] in ("request_states", "update_states", "request_state")
                else None
            )
            if f[2] == "comm_open" or (f[2] == "comm_msg" and f[3] in ("request_state",)):
                counts[(f[1], f[2], f[3])] = counts.get((f[1], f[2], f[3]), 0) + 1
                continue
            print("   frame", f)
        print("   counted:", counts)
        print("   update replies to request_state:", replies, "of", len(asked), "asked")
        print("   control-comm timer:", page.evaluate("() => window.__ctlTimer || null"))
        print("   moneynb mend:", page.evaluate("() => window.moneynbWidgetMend || null"))
        page.screenshot(path=f"/tmp/lab_reload_repro-{game}-{t}.png")
        ctx.close()
