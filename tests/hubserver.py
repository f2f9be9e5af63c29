"""A real JupyterHub for the tests (issue 35): ``jupyterhub`` from PyPI with
``configurable-http-proxy`` from npm (``.ci/run`` installs it), configured by the example
``docs/jupyterhub_config.py`` plus test settings: free loopback ports, a DummyAuthenticator
with a password, SimpleLocalProcessSpawner (every user's server runs as this system user), an
admin service for the test, and the moneynb service on a test database. Started in a temporary
folder and stopped by process id (the hub stops its proxy and the service)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "jupyterhub_config.py"
PASSWORD = "class-test-password"
INSTALL_HELP = (
    "JupyterHub's proxy was not found: npm install -g configurable-http-proxy (and pip "
    "install jupyterhub); .ci/run does both"
)

TEST_CONFIG = """
import os
c = get_config()
load_subconfig({example!r})
# test settings on top of the example
c.JupyterHub.bind_url = "http://127.0.0.1:{public}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy}"
c.JupyterHub.db_url = "sqlite:///{folder}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/cookie_secret"
c.ConfigurableHTTPProxy.pid_file = "{folder}/proxy.pid"
c.JupyterHub.pid_file = "{folder}/hub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allowed_users = set({users!r})
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{folder}/home/{{username}}"
c.Spawner.default_url = "/api"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.args = ["--ServerApp.open_browser=False"] + (["--allow-root"] if os.geteuid() == 0 else [])
c.JupyterHub.cleanup_servers = True
# the moneynb service: a free port, the test database
service = c.JupyterHub.services[0]
service["url"] = "http://127.0.0.1:{service}"
service["environment"]["MONEYNB_SERVICE_STORE"] = {store!r}
service["environment"]["PYTHONPATH"] = {pythonpath!r}
c.Spawner.environment["MONEYNB_SERVICE_URL"] = "http://127.0.0.1:{service}/services/moneynb/"
c.Spawner.environment["PYTHONPATH"] = {pythonpath!r}
# a lean user server for the test (Lab, Voila and language servers not loaded: only the time
# to start changes; the server's environment, which its kernels inherit, is the hub's)
c.Spawner.environment["JUPYTER_CONFIG_DIR"] = "{folder}/jupyter_config"
# an admin service for the test itself (makes users' servers and tokens)
c.JupyterHub.services.append({{"name": "test-admin", "api_token": {admin_token!r}}})
c.JupyterHub.load_roles.append({{"name": "test-admin", "services": ["test-admin"],
    "scopes": ["admin:users", "admin:servers", "admin:server_state", "tokens", "list:users",
               "read:users", "admin:groups"]}})
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hub:
    """A running JupyterHub: :attr:`url` (public), :attr:`api` (``.../hub/api``),
    :attr:`service_url` (the moneynb service), :meth:`request` (as the test's admin),
    :meth:`token` (a new token of a user), :meth:`spawn` (a user's server)."""

    def __init__(self, store: str, users: list[str], folder: Path):
        self.folder = folder
        self.store = store
        self.users = users
        self.ports = {k: free_port() for k in ("public", "hub", "proxy", "service")}
        self.url = f"http://127.0.0.1:{self.ports['public']}"
        self.api = f"{self.url}/hub/api"
        self.service_url = f"http://127.0.0.1:{self.ports['service']}/services/moneynb/"
        self.admin_token = os.urandom(16).hex()
        pythonpath = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
        lean = folder / "jupyter_config"
        lean.mkdir()
        off = ["jupyterlab", "voila.server_extension", "jupyter_lsp", "jupyter_server_terminals",
               "notebook_shim", "nbclassic"]  # fmt: skip
        (lean / "jupyter_server_config.json").write_text(
            json.dumps({"ServerApp": {"jpserver_extensions": dict.fromkeys(off, False)}})
        )
        self.config = folder / "jupyterhub_config.py"
        self.config.write_text(
            TEST_CONFIG.format(
                example=str(EXAMPLE),
                folder=folder,
                password=PASSWORD,
                users=users,
                store=store,
                pythonpath=pythonpath,
                admin_token=self.admin_token,
                **self.ports,
            )  # fmt: skip
        )
        self.proc: subprocess.Popen | None = None
        self.log = folder / "hub.log"
        self.servers: list[int] = []  # process ids of the user servers spawned

    def start(self, timeout: float = 120) -> None:
        env = dict(os.environ)
        env.pop("MONEYNB_STORE", None)
        env.pop("JUPYTERHUB_API_TOKEN", None)
        cmd = [sys.executable, "-m", "jupyterhub", "-f", str(self.config), "--no-ssl"]
        self.proc = subprocess.Popen(
            cmd, cwd=self.folder, env=env, stdout=open(self.log, "wb"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterHub exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(OSError, urllib.error.URLError, ValueError):
                if self.request("GET", "/")["version"] and self._service_up():
                    return
            time.sleep(0.2)
        raise RuntimeError(f"JupyterHub did not start: {self.log.read_text()[-3000:]}")

    def _service_up(self) -> bool:
        try:
            urllib.request.urlopen(self.service_url + "api/methods", timeout=2)
        except urllib.error.HTTPError:
            return True
        except OSError:
            return False
        return True

    def request(self, method: str, path: str, body=None, token: str | None = None):
        """The hub's REST API as the test's admin (or ``token``); returns the JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.api + path, data=data, method=method)
        req.add_header("Authorization", f"token {token or self.admin_token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=60) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def token(self, user: str, scopes: list[str]) -> str:
        """A new API token of ``user`` with ``scopes`` (made through the hub's REST API)."""
        return self.request("POST", f"/users/{user}/tokens", {"scopes": scopes,
                            "note": "test"})["token"]  # fmt: skip

    def spawn(self, user: str, timeout: float = 180) -> dict:
        """Start ``user``'s single-user server and wait until it runs; returns the
        environment its process (and so every kernel it starts) has."""
        with contextlib.suppress(urllib.error.HTTPError):
            self.request("POST", f"/users/{user}/server")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            model = self.request("GET", f"/users/{user}")
            server = model.get("servers", {}).get("")
            if server and server.get("ready"):
                pid = server["state"]["pid"]
                self.servers.append(pid)
                raw = Path(f"/proc/{pid}/environ").read_bytes()
                return dict(kv.split("=", 1) for kv in raw.decode().split("\0") if "=" in kv)
            time.sleep(0.25)
        raise RuntimeError(f"{user}'s server did not start: {self.log.read_text()[-3000:]}")

    def service_pid(self) -> int | None:
        """The moneynb service's process id (a child of the hub)."""
        import psutil

        for child in psutil.Process(self.proc.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if "moneynb.service" in " ".join(child.cmdline()):
                    return child.pid
        return None

    def stop(self) -> None:
        """Stop the hub by its process id (it stops the servers, the service and the proxy),
        then anything of its process group still running."""
        if self.proc is None or self.proc.poll() is not None:
            return
        for pid in self.servers:  # the servers first: the hub then has nothing to wait for
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def jupyterhub(store: str, users: list[str]):
    """A started :class:`Hub` whose moneynb service owns ``store`` until the block ends.

    Raises:
        RuntimeError: JupyterHub or its proxy is not installed (with how to install them).
    """
    if shutil.which("configurable-http-proxy") is None:
        raise RuntimeError(INSTALL_HELP)
    folder = Path(tempfile.mkdtemp(prefix="moneynb-hub-"))
    hub = Hub(store, users, folder)
    try:
        hub.start()
        yield hub
    finally:
        hub.stop()
        shutil.rmtree(folder, ignore_errors=True)
