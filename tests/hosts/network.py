"""Hosts for the multi-host tests: network namespaces (``ip netns``, as root), each with
a link to this machine, where PostgreSQL and Redis are reached through a forwarder at
the link's address as if they ran on a host of their own.  Web servers and workers are
started inside them (``ip netns exec``)."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import Started, Worker
from tests.ops.test_gunicorn_attacks import Server


def usable() -> str:
    """Why these tests cannot run here ("" when they can)."""
    if os.geteuid() != 0:
        return "needs root (ip netns)"
    if shutil.which("ip") is None:
        return "needs iproute2 (ip netns)"
    return ""


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


@dataclass
class Host:
    """A namespace: ``ip`` is its own address, ``gateway`` this machine's end of its link
    (where the database and Redis answer)."""

    ns: str
    ip: str
    gateway: str

    def argv(self, *command: str) -> list[str]:
        return ["ip", "netns", "exec", self.ns, *command]


class Forwarder:
    """TCP from ``listen`` to ``target``, a thread per direction and connection."""

    def __init__(self, listen: tuple[str, int], target: tuple[str, int]) -> None:
        self.target = target
        self.server = socket.create_server(listen, reuse_port=False)
        self.server.settimeout(0.5)
        self.open = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.open:
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.open = False
        self.server.close()


_SERIALS = itertools.count()


class Network:
    """``count`` hosts, each linked to this machine by a veth pair of its own, with
    PostgreSQL (5432) and Redis (6379) forwarded to their gateway address."""

    def __init__(self, count: int) -> None:
        # Names and addresses of their own for each network of this process: a namespace
        # the last test's teardown is still taking down never clashes with the next one's.
        serial = next(_SERIALS)
        tag = os.getpid() % 1000 * 10 + serial % 10
        net = 200 + (os.getpid() + serial) % 50
        self.hosts: list[Host] = []
        self.forwarders: list[Forwarder] = []
        self._links: list[str] = []
        try:
            self._build(count, tag, net)
        except BaseException:
            self.close()  # a half-built network would be left behind for the next run
            raise

    def _build(self, count: int, tag: int, net: int) -> None:
        for i in range(1, count + 1):
            host = Host(f"goref-{tag}-h{i}", f"10.{net}.{i}.2", f"10.{net}.{i}.1")
            outside, inside = f"gr{tag}o{i}", f"gr{tag}i{i}"
            _ip("netns", "add", host.ns)
            self.hosts.append(host)
            _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            self._links.append(outside)
            _ip("link", "set", inside, "netns", host.ns)
            _ip("addr", "add", f"{host.gateway}/24", "dev", outside)
            _ip("link", "set", outside, "up")
            _ip("-n", host.ns, "addr", "add", f"{host.ip}/24", "dev", inside)
            _ip("-n", host.ns, "link", "set", inside, "up")
            _ip("-n", host.ns, "link", "set", "lo", "up")
            for port in (5432, 6379):
                self.forwarders.append(Forwarder((host.gateway, port), ("127.0.0.1", port)))

    def close(self) -> None:
        for f in self.forwarders:
            f.close()
        for link in self._links:
            subprocess.run(["ip", "link", "del", link], capture_output=True, timeout=30)
        for host in self.hosts:
            subprocess.run(["ip", "netns", "del", host.ns], capture_output=True, timeout=30)


def on_host(url: str, host: Host) -> str:
    """``url`` (PostgreSQL or Redis on 127.0.0.1) as ``host`` reaches it: at its gateway."""
    return url.replace("127.0.0.1", host.gateway).replace("localhost", host.gateway)


class HostServer(Server):
    """gunicorn as ``make serve`` starts it, inside ``host``, on its port 8000."""

    def __init__(self, host: Host, env: dict[str, str], log: Path) -> None:
        self.port = 8000
        self.url = f"http://{host.ip}:{self.port}"
        env = {**env, "HOST": "0.0.0.0", "PORT": str(self.port), "WEB_CONCURRENCY": "1"}
        argv = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"]
        Started.__init__(self, host.argv(*argv), env, log)


class HostWorker(Worker):
    """A Celery worker inside ``host`` (``scoring_delay``: slowed per game, as in
    tests/games/slow_worker.py; ``beat``: with the sweeps on their schedule)."""

    def __init__(
        self,
        host: Host,
        env: dict[str, str],
        log: Path,
        *,
        scoring_delay: float = 0.0,
        beat_schedule: Path | None = None,
    ) -> None:
        self.hostname = f"{host.ns}-{time.monotonic_ns()}@%h"
        beat = ["-B", "-s", str(beat_schedule)] if beat_schedule else []
        command = ["tests.games.slow_worker", str(scoring_delay)] if scoring_delay else ["celery"]
        argv = [
            sys.executable,
            "-m",
            *command,
            "-A",
            "config",
            "worker",
            "--loglevel=INFO",
            "--concurrency=2",
            "--without-mingle",
            "--without-gossip",
            f"--hostname={self.hostname}",
            *beat,
        ]
        Started.__init__(self, host.argv(*argv), env, log)
