"""A real PostgreSQL server for the tests (issue 25): Debian's ``postgresql`` package,
``initdb`` + ``pg_ctl`` on a temporary folder and a free 127.0.0.1 port, stopped by its process
id. ``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` user
(``runuser -u postgres --``) on a folder that user owns. ``.ci/run`` installs the package."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

INSTALL_HELP = (
    "PostgreSQL's server programs (initdb, pg_ctl) were not found under "
    "/usr/lib/postgresql/*/bin. Install them: sudo apt-get install -y postgresql"
)


def pg_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/<v>/bin`` holding ``initdb``, or None."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """A running server: :attr:`port`, :meth:`new_database` -> a ``postgresql://`` URL,
    :meth:`stop` / :meth:`start` (the same data folder and port: a restart)."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.tmp = Path(tempfile.mkdtemp(prefix="moneynb-pg-"))
        self.data = self.tmp / "data"
        self.port = _free_port()
        self.pid: int | None = None
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.tmp, "postgres", "postgres")
        self._run([str(bindir / "initdb"), "-D", str(self.data), "-A", "trust", "-U",
                   "moneynb", "--no-sync", "-E", "UTF8"])  # fmt: skip

    def _run(self, cmd: list[str], **kw) -> subprocess.CompletedProcess:
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, timeout=120, **kw)

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        opts = (f"-p {self.port} -k {self.tmp} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c max_connections=100")  # fmt: skip
        self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l",
                   str(self.tmp / "server.log"), "-w", "-t", "60", "start"])  # fmt: skip
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        """Stop the server by its process id (fast shutdown) and wait for it to exit."""
        if self.pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGINT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        self.pid = None

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://moneynb@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


@contextlib.contextmanager
def postgres_server():
    """A started :class:`PgServer` until the block ends.

    Raises:
        RuntimeError: PostgreSQL is not installed (with how to install it).
    """
    bindir = pg_bin()
    if bindir is None:
        raise RuntimeError(INSTALL_HELP)
    server = PgServer(bindir)
    try:
        server.start()
        yield server
    finally:
        server.close()
