"""A fake cudaperf service (http.server in a background thread) implementing the HTTP contract,
with fault injection, and helpers shared by the tests.

What a candidate "does" is written in its source as markers:
  SPEEDUP=<x>     correct, that speedup (default 1.5 when no other marker is present)
  COMPILE_ERROR   compile_error          WRONG   wrong_answer          HACK   hack_suspected
  NOREWARD        a result without a reward (the service's "usage" verdict)
  TASK_ERROR      task_error: the task failed, not the candidate (no reward, tier null, as the service says it)
  POLL=<n>        the job needs n GET /v1/jobs/{id} before it is done (even with wait_s > 0)
"""
from __future__ import annotations

import json
import math
import os
import re
import threading
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional
from unittest import mock

from cudaperf.extract import extract_code

TASKS = ("reduction/dot_f64", "scan/prefix_sum")
TASK = TASKS[0]
GATES = {"hack_suspected": -10.0, "compile_error": -7.0, "runtime_error": -6.0, "wrong_answer": -5.0}


def fake_result(task: str, source: str) -> Dict[str, Any]:
    """The RESULT the fake service returns for a candidate (deterministic)."""
    if "NOREWARD" in source:
        return {"verdict": "usage", "message": f"no such task {task}", "final": True}
    if "TASK_ERROR" in source:
        msg = f"task error in {task} (a defect of the task, not the candidate's: no verdict, no reward): shapes changed"
        return {"verdict": "task_error", "tier": None, "error": msg, "message": msg, "final": True, "speedup": None,
                "configs": [], "notes": ["no reward: verdict task_error has no reward tier"],
                "feedback": f"verdict: task_error (the task itself failed, not your code)\n{msg}"}
    for marker, verdict in (("COMPILE_ERROR", "compile_error"), ("WRONG", "wrong_answer"), ("HACK", "hack_suspected")):
        if marker in source:
            gate = GATES[verdict]
            return {"verdict": verdict, "message": f"{verdict} on {task}", "final": True, "speedup": None,
                    "reward": {"total": gate, "gate": gate, "speed": 0.0, "structure": 0.0, "rank": 0.0,
                               "tier": verdict}, "configs": [], "feedback": f"FEEDBACK {verdict}"}
    m = re.search(r"SPEEDUP=([0-9.]+)", source)
    s = float(m.group(1)) if m else 1.5
    gate = 0.1 if s >= 1 else 0.0
    speed, structure, rank = math.log(s), 0.02, 0.01
    return {"verdict": "ok", "message": "", "final": True, "speedup": s,
            "reward": {"total": gate + speed + structure + rank, "gate": gate, "speed": speed, "structure": structure,
                       "rank": rank, "tier": "correct_faster" if s >= 1 else "correct_slower"},
            "configs": [{"config": "large", "perf": True}], "feedback": f"FEEDBACK ok speedup {s:g}"}


def source(marker: str = "") -> str:
    """A candidate .cu file carrying a marker."""
    return f'// {marker}\nextern "C" void run(const double* x, double* y, int n, cudaStream_t s) {{}}\n'


def answer(src: str, tag: str = "cuda", before: str = "Here is my kernel.\n") -> str:
    """A model response with `src` in a fenced block."""
    return f"{before}```{tag}\n{src}```\nIt should be fast.\n"


class FakeService:
    def __init__(self, tasks=TASKS, max_source_bytes: int = 4096):
        self.tasks = set(tasks)
        self.max_source_bytes = max_source_bytes
        self.log: List[tuple] = []          # (method, path, body)
        self.faults: List[tuple] = []       # (path prefix, status, headers): applied once each, in order
        self.always: Optional[tuple] = None  # (status, headers) for every request
        self.jobs: Dict[str, dict] = {}
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                service._handle(self, "GET")

            def do_POST(self):
                service._handle(self, "POST")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def calls(self, method: Optional[str] = None, path: Optional[str] = None) -> List[tuple]:
        with self.lock:
            return [c for c in self.log if (method is None or c[0] == method) and (path is None or c[1].startswith(path))]

    # ------------------------------------------------------------------ handling

    def _reply(self, h, status: int, body: Any, headers: Optional[dict] = None):
        data = json.dumps(body).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(data)

    def _handle(self, h, method: str):
        raw = h.rfile.read(int(h.headers.get("Content-Length") or 0)) if method == "POST" else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        with self.lock:
            self.log.append((method, h.path, body))
            fault = self.always
            if fault is None:
                for k, f in enumerate(self.faults):
                    if h.path.startswith(f[0]):
                        fault = self.faults.pop(k)[1:]
                        break
        if fault is not None:
            status, headers = fault
            if status == "close":
                h.close_connection = True
                return
            return self._reply(h, status, {"error": f"injected {status}"}, headers)
        if method == "GET" and h.path == "/healthz":
            return self._reply(h, 200, {"ok": True})
        if method == "GET" and h.path.startswith("/v1/jobs/"):
            return self._get_job(h, h.path[len("/v1/jobs/"):])
        if method == "POST" and h.path == "/v1/evaluate":
            return self._evaluate(h, body)
        if method == "POST" and h.path == "/v1/openrlhf":
            return self._openrlhf(h, body)
        return self._reply(h, 404, {"error": "no such endpoint"})

    def _get_job(self, h, jid: str):
        with self.lock:
            job = self.jobs.get(jid)
            if job is None:
                return self._reply(h, 404, {"error": "no such job"})
            if job["polls_left"] > 0:
                job["polls_left"] -= 1
            done = job["polls_left"] == 0
            self._reply(h, 200, {"id": jid, "state": "done" if done else "running", "result": job["result"] if done else None})

    def _evaluate(self, h, body):
        if not isinstance(body, dict):
            return self._reply(h, 400, {"error": "the body is not a JSON object"})
        reqs = body.get("requests")
        if not isinstance(reqs, list):
            return self._reply(h, 400, {"error": "'requests' must be an array of {task, source, options}"})
        for i, r in enumerate(reqs):
            if not isinstance(r, dict) or not isinstance(r.get("task"), str) or not isinstance(r.get("source"), str):
                return self._reply(h, 400, {"error": f"requests[{i}]: needs string fields 'task' and 'source'"})
            if r["task"] not in self.tasks:
                return self._reply(h, 400, {"error": f"requests[{i}]: unknown task '{r['task']}'"})
            n = len(r["source"].encode())
            if n > self.max_source_bytes:
                return self._reply(h, 400, {"error": f"requests[{i}]: source of {n} bytes is over the "
                                                     f"{self.max_source_bytes} byte limit"})
        wait = float(body.get("wait_s") or 0)
        out = []
        with self.lock:
            for r in reqs:
                jid = uuid.uuid4().hex
                m = re.search(r"POLL=(\d+)", r["source"])
                polls = int(m.group(1)) if m else (0 if wait > 0 else 1)
                self.jobs[jid] = {"polls_left": polls, "result": fake_result(r["task"], r["source"]), "request": r}
                done = polls == 0
                out.append({"id": jid, "state": "done" if done else "queued",
                            "result": self.jobs[jid]["result"] if done else None})
        self._reply(h, 200, {"jobs": out})

    def _openrlhf(self, h, body):
        if not isinstance(body, dict):
            return self._reply(h, 400, {"error": "the body is not a JSON object"})
        q, p, labels = body.get("query", []), body.get("prompts", []), body.get("labels", [])
        if len(q) != len(labels) or (p and len(p) != len(q)):
            return self._reply(h, 400, {"error": "'query' and 'labels' must be arrays of the same length"})
        rewards, correct, task_error = [], [], []
        for k, (text, label) in enumerate(zip(q, labels)):
            code = extract_code(text, p[k] if p else None)
            r = fake_result(label, code) if code is not None else None
            rewards.append(r["reward"]["total"] if r and "reward" in r else -10.0)  # as the service: no reward, the lowest
            correct.append(1.0 if r and r["verdict"] == "ok" else 0.0)
            task_error.append(1.0 if r and r["verdict"] == "task_error" else 0.0)
        self._reply(h, 200, {"rewards": rewards, "scores": correct,
                             "extra_logs": {"correct": correct, "task_error": task_error}})


class ServiceTestCase(unittest.TestCase):
    """Starts one fake service per test and points CUDAPERF_URL at it."""

    def setUp(self):
        self.service = FakeService()
        self.addCleanup(self.service.stop)
        env = mock.patch.dict(os.environ, {"CUDAPERF_URL": self.service.url})
        env.start()
        self.addCleanup(env.stop)
        for var in ("CUDAPERF_MISSING_REWARD", "CUDAPERF_TRAJECTORY", "CUDAPERF_DISCOUNT", "CUDAPERF_OPENRLHF_MODE"):
            os.environ.pop(var, None)

    def expected(self, src: str, task: str = TASK) -> float:
        return fake_result(task, src)["reward"]["total"]
