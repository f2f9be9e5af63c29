"""A view's messages stay under the Jupyter server's IOPub rate limit (issue 41).

The server drops a kernel's messages beyond ``iopub_msg_rate_limit`` (1,000 a second over
3 s): a page whose widget messages were dropped keeps an old board and old labels for good.
These tests run a real kernel (ipykernel through ``jupyter_client``), play moves in a loop with
a view shown, and count the kernel's IOPub messages in every window by the times the kernel
stamped on them. The pace is lowered for the test (the same code, smaller numbers) so that a
short game crosses it at any load."""

from __future__ import annotations

import os
import queue
from datetime import timedelta
from pathlib import Path

import pytest

import moneynb.ui.pace as pace

REPO = Path(__file__).resolve().parents[1]

#: the test's pace: messages a second, and the burst beyond it
RATE, BURST = 50, 50

PLAY_IN_A_LOOP = f"""
import moneynb, moneynb.ui.pace as pace
from moneynb.bots import make_bot
from IPython.display import display
pace.RATE, pace.BURST = {RATE}.0, {BURST}.0
pace._BUCKET.__init__()
v = moneynb.play("money_moves", players=["Ann", "bot:greedy"], seed=5, autosave=False)
display(v)
bot = make_bot("greedy", seed=1)
for _ in range(40):
    d = v.game.decision
    if d is None:
        break
    v.submit(bot.choose(v.game))
print("moves", len(v.game.actions), "waited", round(pace._BUCKET.waited_s, 2))
"""


def test_outside_a_kernel_pace_never_waits():
    """Plain Python (no kernel, no server): nothing to keep under a limit."""
    assert pace._session() is None
    assert pace.pace() == 0.0


@pytest.fixture
def kernel():
    """A real ipykernel with this repository first on its path; shut down after the test."""
    from jupyter_client.manager import start_new_kernel

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    km, kc = start_new_kernel(kernel_name="python3", env=env)
    try:
        yield kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _run(kc, code: str, timeout: float = 600) -> list[dict]:
    """Execute ``code``; returns every IOPub message of that execution, up to its idle."""
    msg_id = kc.execute(code)
    got = []
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no idle within {timeout} s; got {len(got)} messages") from None
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        got.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return got


def test_a_loop_of_moves_with_a_view_shown_stays_under_the_pace(kernel):
    """Forty moves played in one cell with a view shown: in any window of 1 s the kernel sends
    at most ``BURST + RATE`` messages beyond one redraw (counted as the server counts them:
    not status, comm_open or execute_input). Fails without ``pace()`` in the view (the moves'
    ~15 messages each come at once)."""
    msgs = _run(kernel, PLAY_IN_A_LOOP)
    out = "".join(m["content"].get("text", "") for m in msgs if m["msg_type"] == "stream")
    errors = [m["content"] for m in msgs if m["msg_type"] == "error"]
    assert not errors, errors
    assert out.startswith("moves "), out
    # what the server counts (``_limit_rate``): every IOPub message but these
    skipped = {"status", "comm_open", "execute_input"}
    counted = sorted(m["header"]["date"] for m in msgs if m["msg_type"] not in skipped)
    assert len(counted) > BURST + RATE + 100, f"too few messages to test: {len(counted)}"
    worst, j = 0, 0
    for i, t in enumerate(counted):  # the most messages in a window of 1 s ending at t
        while counted[j] < t - timedelta(seconds=1):
            j += 1
        worst = max(worst, i - j + 1)
    one_redraw = 60  # a move's messages are sent after the pace has let them go
    assert worst <= BURST + RATE + one_redraw, (
        f"{worst} messages within 1 s (pace {RATE}/s, burst {BURST}); {out.strip()}"
    )
