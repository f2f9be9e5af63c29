"""Keep a kernel's messages under the Jupyter server's IOPub rate limit (issue 41).

The Jupyter server (JupyterLab, Notebook, a hub's single-user server, Voila) drops a kernel's
IOPub messages while the kernel sends more than ``ServerApp.iopub_msg_rate_limit`` (1,000 a
second by default) averaged over ``rate_limit_window`` (3 s), counted since the kernel was last
idle (``jupyter_server/services/kernels/connection/channels.py``, ``_limit_rate``). It drops
widget messages too, silently for a widget: the page then keeps an old label or an old board
for good, as every later message is a change on top of one it never got. A view sends about
15 messages a move, so code that plays moves in a loop with a view shown (a "play on" button,
a notebook cell that plays a game out, a table catching up) crossed the limit after about 150
moves in 3 s: seen as a Lab page whose board and labels stopped at the middle of a burst while
the kernel had played on (the server's log: "IOPub message rate exceeded").

:func:`pace` is called before each redraw of a view. It counts every message the kernel's
session has made (``Session.message_count``: IOPub, shell replies and status messages, so it
counts more than the server does) and, when they come faster than :data:`RATE` a second
beyond a burst of :data:`BURST`, waits until they do not. A token bucket: in any window of
``W`` seconds the kernel sends at most ``BURST + RATE * W`` messages plus one redraw's (about
1,850 in the server's 3 s window, under its 3,000: the margin is for a busy server that reads
a backlog of the kernel's messages at once). A person clicking never waits: a click's
15 messages are far below the bucket. Outside a kernel (plain Python, tests) it does nothing.

Source: reconstruction (jupyter_server 2.x's limits; its defaults are the ones used here).
"""

from __future__ import annotations

import time

#: messages a second a kernel may send on average (the server allows 1,000)
RATE = 300.0
#: messages a kernel may send at once beyond :data:`RATE` (a page's first draw, a burst)
BURST = 900.0


class _Bucket:
    """The kernel's token bucket: ``tokens`` messages may be sent now without waiting."""

    def __init__(self) -> None:
        self.tokens = BURST
        self.at = time.monotonic()
        self.count: int | None = None
        self.waited_s = 0.0


_BUCKET = _Bucket()


def _session():
    """The running kernel's ``jupyter_client.Session``, or None outside a kernel."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    kernel = getattr(get_ipython(), "kernel", None)
    return getattr(kernel, "session", None)


def pace() -> float:
    """Wait, if needed, so that this kernel's messages stay under :data:`RATE` a second
    beyond a burst of :data:`BURST`; returns the seconds waited (0.0 almost always).

    Call it before sending a batch of widget messages (a view's redraw). It reads how many
    messages the kernel's session has made since the last call; outside a kernel it returns
    0.0 at once. Never raises."""
    session = _session()
    count = getattr(session, "message_count", None)
    if not isinstance(count, int):
        return 0.0
    b = _BUCKET
    now = time.monotonic()
    sent = 0 if b.count is None else max(0, count - b.count)
    b.count = count
    b.tokens = min(BURST, b.tokens + (now - b.at) * RATE) - sent
    b.at = now
    if b.tokens >= 0:
        return 0.0
    wait = -b.tokens / RATE
    time.sleep(wait)
    b.tokens, b.at = 0.0, time.monotonic()
    b.waited_s += wait
    return wait
