"""Starts and stops a `cudaperf serve` for the RL scripts and tests (loopback only)."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import List, Optional

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    """`cudaperf serve` on a free loopback port; `url`, `health()`, `stop()`; a context manager."""

    def __init__(self, binary: str, workdir: Path, *, cpu_test_mode: bool = False, workers: int = 0,
                 time_budget_s: float = 0.05, extra: Optional[List[str]] = None, port: Optional[int] = None):
        workdir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"serve-{self.port}.log"
        argv = [binary, "serve", "--port", str(self.port), "--store", str(workdir / f"jobs-{self.port}.sqlite"),
                "--root", str(REPO / "data/tasks"), "--config", str(REPO / "config/reward.toml"),
                "--model", str(REPO / "data/models/ranker.json"), "--time-budget", str(time_budget_s)]
        if workers:
            argv += ["--workers", str(workers)]
        if cpu_test_mode:
            argv.append("--cpu-test-mode")
        argv += list(extra or [])
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=open(self.log, "w"))
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"cudaperf serve exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                self.health()
                break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"cudaperf serve did not answer: {self.log.read_text()[-2000:]}")
                time.sleep(0.2)

    def health(self) -> dict:
        with urllib.request.urlopen(self.url + "/healthz", timeout=5) as r:
            return json.loads(r.read())

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self) -> "Service":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def find_binary(arg: Optional[str] = None) -> str:
    for cand in (arg, os.environ.get("CUDAPERF_BIN"), REPO / "build/release/cudaperf", REPO / "build/ci/cudaperf"):
        if cand and Path(cand).is_file():
            return str(cand)
    raise SystemExit("cudaperf binary not found: pass it, or set CUDAPERF_BIN")
