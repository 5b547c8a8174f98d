"""A throwaway PostgreSQL server for the tests, and a fresh database per test.

``RACEDECK_TEST_POSTGRES`` may name a server to use (``postgresql://user@host:port/db``; a
role that may create databases). Otherwise the first test that needs one starts a server of
Debian's ``postgresql`` package (``make test`` installs it) in a temporary folder, on a free
loopback port, and the session stops it and removes the folder at the end. As root, the
server runs as the ``postgres`` user (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from racedeck.server.process import free_port

ENV = "RACEDECK_TEST_POSTGRES"


def _binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        raise RuntimeError(
            f"no PostgreSQL server: install Debian's postgresql package (make test does) or "
            f"set {ENV} to a server's URL"
        )
    return Path(found[-1]).parent


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["su", "postgres", "-s", "/bin/sh", "-c", subprocess.list2cmdline(command)]


@contextmanager
def throwaway_server() -> Iterator[str]:
    """Start a PostgreSQL server in a temporary folder; yield its URL; stop it at the end."""
    bin_dir = _binaries()
    folder = Path(tempfile.mkdtemp(prefix="racedeck-pg-"))
    data, sockets, log = folder / "data", folder / "sockets", folder / "server.log"
    data.mkdir()
    sockets.mkdir()
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in (folder, data, sockets):
            os.chown(path, user.pw_uid, user.pw_gid)
    port = free_port()
    ctl = str(bin_dir / "pg_ctl")
    try:
        subprocess.run(
            _as_server_user(
                [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
            ),
            check=True,
            capture_output=True,
        )
        options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_server_user([ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "start"]),
            check=True,
            capture_output=True,
        )
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                _as_server_user([ctl, "-D", str(data), "-m", "fast", "-w", "stop"]),
                check=False,
                capture_output=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(server: str) -> Iterator[str]:
    """A new, empty database on ``server``; yield its URL; drop it at the end."""
    name = "racedeck_test_" + secrets.token_hex(6)
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _slash, _db = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
