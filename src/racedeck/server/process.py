"""``racedeck serve`` in a child process on a free loopback port: for tests and benchmarks
that need a real server (a restart after SIGKILL, a browser, a load run)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

__all__ = ["ServerProcess", "free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """A ``racedeck serve`` child on 127.0.0.1 over the database ``db``.

    ``start()`` waits until the lobby answers; ``kill()`` sends SIGKILL (nothing is flushed on
    the way out: the database must already hold every accepted action); ``stop()`` ends it
    gently. ``extra`` are more command-line options (``["--bot-delay", "0"]``). Its output
    goes to ``log`` (by default next to a SQLite file, or nowhere for a database URL).
    """

    def __init__(
        self,
        db: str | Path,
        port: int | None = None,
        extra: list[str] | None = None,
        log: Path | None = None,
    ) -> None:
        self.db = str(db)
        self.port = port or free_port()
        self.extra = list(extra or [])
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = log
        if log is None and "://" not in self.db:
            self.log_path = Path(self.db).with_suffix(".log")

    @property
    def url(self) -> str:
        """The base URL, ``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the server and wait until ``/api/games`` answers."""
        src = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        command = [
            sys.executable,
            "-c",
            "from racedeck.cli.app import main; main()",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db,
            *self.extra,
        ]
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"racedeck serve exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2) as res:
                    if res.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"racedeck serve did not answer on {self.url} within {timeout} s")

    def kill(self) -> None:
        """SIGKILL the server and wait for it to be gone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """End the server (SIGTERM, then SIGKILL after 10 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
