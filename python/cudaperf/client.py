"""HTTP client for the cudaperf reward service (`cudaperf serve`).

Standard library only. One `Client` spreads requests over several service URLs: each call starts
at the next URL (round robin), fails over to another URL on a connection error or a 5xx, waits
as long as a 429's Retry-After asks (for that URL only), and never retries a 400. Jobs are polled
on the URL that accepted them; a job that URL no longer knows (404, or the URL stays down) is
submitted again.

Errors: every failure is a `CudaperfError` (subclasses `CudaperfBadRequest` for 400s,
`CudaperfTimeout` when `timeout_s` runs out, `CudaperfUnavailable` when the retries run out, `CudaperfNoGpu`
when a service without a GPU refuses to score).
"""
from __future__ import annotations

import asyncio
import email.utils
import functools
import itertools
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional, Union

__all__ = [
    "Client",
    "AsyncClient",
    "CudaperfError",
    "CudaperfBadRequest",
    "CudaperfTimeout",
    "CudaperfUnavailable",
    "CudaperfNoGpu",
    "DEFAULT_WAIT_S",
]

DEFAULT_WAIT_S = 30.0
_HTTP_SLACK_S = 30.0  # socket timeout beyond the server-side wait
_POLL_MIN_S, _POLL_MAX_S = 0.25, 5.0

Urls = Union[str, Sequence[str]]


class CudaperfError(Exception):
    """A request to the cudaperf service failed. `status` is the HTTP status when there was one."""

    def __init__(self, message: str, *, status: Optional[int] = None, url: Optional[str] = None, body: Any = None):
        super().__init__(message)
        self.status = status
        self.url = url
        self.body = body


class CudaperfBadRequest(CudaperfError):
    """HTTP 400: the service rejected the input (unknown task, malformed body, oversized source). Never retried."""


class CudaperfNoGpu(CudaperfError):
    """HTTP 409 "no_gpu": the service has no GPU and was not started with --cpu-test-mode, so it refuses
    to score (its results would not be rewards). Never retried."""


class CudaperfTimeout(CudaperfError):
    """`timeout_s` ran out before every result was final."""


class CudaperfUnavailable(CudaperfError):
    """Every attempt failed (connection errors, 5xx, or repeated 404s while polling)."""


def _split_urls(urls: Urls) -> list[str]:
    items = urls.split(",") if isinstance(urls, str) else list(urls)
    out = [u.strip().rstrip("/") for u in items if u and u.strip()]
    if not out:
        raise ValueError("cudaperf: at least one service URL is needed")
    return out


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Seconds to wait from a Retry-After header: delta-seconds (a float is accepted too) or an HTTP date."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _error_message(body: Any, fallback: str) -> str:
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        return body["error"]
    if isinstance(body, str) and body.strip():
        return body.strip()[:500]
    return fallback


class _Attempt:
    """The outcome of one HTTP exchange: a JSON reply, or the reason it failed."""

    __slots__ = ("status", "body", "retry_after", "error")

    def __init__(self, status: Optional[int], body: Any = None, retry_after: Optional[float] = None, error: str = ""):
        self.status, self.body, self.retry_after, self.error = status, body, retry_after, error


class Client:
    """Synchronous client. Thread-safe; share one instance between threads.

    urls: one URL, a comma-separated string of URLs, or a list of URLs.
    timeout_s: the whole budget of one `evaluate` call (submission, waiting and polling).
    retries: how many times one HTTP request is tried again after a connection error or a 5xx
        (each retry goes to another URL when there is one). 429s do not use up retries: they are
        retried after their Retry-After for as long as `timeout_s` allows.
    backoff_s: base of the exponential backoff (with jitter) after a failure.
    max_batch: `evaluate` submits at most this many requests per POST.
    """

    def __init__(self, urls: Urls, timeout_s: float = 600, retries: int = 4, backoff_s: float = 0.5,
                 max_batch: int = 256):
        self.urls = _split_urls(urls)
        self.timeout_s = float(timeout_s)
        self.retries = max(0, int(retries))
        self.backoff_s = max(0.0, float(backoff_s))
        self.max_batch = max(1, int(max_batch))
        self._next = itertools.count(random.randrange(len(self.urls)))
        # Environment proxies are ignored: the service is an internal endpoint.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def __repr__(self) -> str:
        return f"Client({self.urls!r}, timeout_s={self.timeout_s}, retries={self.retries})"

    # ------------------------------------------------------------------ transport

    def _exchange(self, url: str, method: str, path: str, payload: Any, timeout: float) -> _Attempt:
        data = None if payload is None else json.dumps(payload).encode("utf-8")
        req = urllib.request.Request(url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with self._opener.open(req, timeout=max(0.1, timeout)) as resp:
                status, raw, headers = resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as e:
            status, headers = e.code, e.headers
            try:
                raw = e.read()
            except OSError:
                raw = b""
        except (OSError, ValueError) as e:  # URLError, refused, reset, socket timeout, http.client errors
            return _Attempt(None, error=f"{type(e).__name__}: {e}")
        text = raw.decode("utf-8", "replace")
        try:
            body: Any = json.loads(text) if text else None
        except ValueError:
            body = text
        retry_after = parse_retry_after(headers.get("Retry-After")) if headers is not None else None
        if status == 200 and not isinstance(body, dict):
            return _Attempt(None, error=f"HTTP 200 with a body that is not a JSON object: {text[:200]!r}")
        return _Attempt(status, body, retry_after)

    def _request(self, method: str, path: str, payload: Any = None, *, deadline: Optional[float] = None,
                 server_wait_s: float = 0.0, pin: Optional[int] = None) -> tuple[dict, int]:
        """One logical request with retries. Returns (JSON object, index of the URL that answered).

        pin: only this URL (polling a job that lives there); otherwise round robin with failover.
        """
        if deadline is None:
            deadline = time.monotonic() + self.timeout_s
        n = len(self.urls)
        if pin is not None:
            candidates = [pin]
        else:
            start = next(self._next)
            candidates = [(start + k) % n for k in range(n)]
        ready = {i: 0.0 for i in candidates}  # monotonic time each URL may be tried again
        failures, last = 0, "no attempt made"
        while True:
            i = min(candidates, key=lambda c: (ready[c], candidates.index(c)))
            now = time.monotonic()
            if ready[i] > now:
                if ready[i] >= deadline:
                    raise CudaperfTimeout(f"cudaperf: out of time ({self.timeout_s:g} s) on {method} {path}; "
                                          f"last: {last}", url=self.urls[i])
                time.sleep(ready[i] - now)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CudaperfTimeout(f"cudaperf: out of time ({self.timeout_s:g} s) on {method} {path}; last: {last}",
                                      url=self.urls[i])
            url = self.urls[i]
            a = self._exchange(url, method, path, payload, min(remaining, server_wait_s + _HTTP_SLACK_S))
            if a.status == 200:
                return a.body, i
            if a.status == 429:
                wait = a.retry_after if a.retry_after is not None else self.backoff_s
                ready[i] = time.monotonic() + wait
                last = f"{url}: HTTP 429 {_error_message(a.body, 'overloaded')}"
                continue
            if a.status is not None and a.status < 500 and a.status != 408:
                msg = _error_message(a.body, f"HTTP {a.status}")
                cls = CudaperfBadRequest if a.status == 400 else CudaperfError
                if a.status == 409 and isinstance(a.body, dict) and a.body.get("no_gpu") is True:
                    cls = CudaperfNoGpu
                raise cls(f"cudaperf: {method} {path} -> HTTP {a.status}: {msg}", status=a.status, url=url, body=a.body)
            last = f"{url}: " + (a.error or f"HTTP {a.status} {_error_message(a.body, '')}".rstrip())
            failures += 1
            if failures > self.retries:
                raise CudaperfUnavailable(f"cudaperf: {method} {path} failed {failures} time(s); last: {last}",
                                          status=a.status, url=url, body=a.body)
            ready[i] = time.monotonic() + self.backoff_s * (2 ** (failures - 1)) * (1 + random.random() * 0.25)

    # ------------------------------------------------------------------ API

    def health(self) -> dict[str, bool]:
        """GET /healthz on every URL, once each, no retries: {url: True when it answers {"ok": true}}."""
        out = {}
        for url in self.urls:
            a = self._exchange(url, "GET", "/healthz", None, min(self.timeout_s, 10.0))
            out[url] = a.status == 200 and a.body.get("ok") is True
        return out

    def job(self, id: str, url: Optional[str] = None) -> dict:
        """GET /v1/jobs/{id} -> {"id", "state", "result"}. Without `url`, asks each URL until one knows the job."""
        path = "/v1/jobs/" + urllib.parse.quote(str(id), safe="")
        order = [self.urls.index(url.rstrip("/"))] if url else range(len(self.urls))
        last: Optional[CudaperfError] = None
        for i in order:
            try:
                return self._request("GET", path, pin=i)[0]
            except CudaperfError as e:
                if e.status != 404:
                    raise
                last = e
        assert last is not None
        raise last

    def openrlhf(self, query: Sequence[str], prompts: Sequence[str], labels: Sequence[str]) -> dict:
        """POST /v1/openrlhf -> {"rewards": [...], "scores": [...], "extra_logs": {...}}."""
        query, prompts, labels = list(query), list(prompts), list(labels)
        if len(query) != len(labels) or (prompts and len(prompts) != len(query)):
            raise ValueError("cudaperf: query, prompts and labels must have the same length")
        if not query:
            return {"rewards": [], "scores": [], "extra_logs": {}}
        body, _ = self._request("POST", "/v1/openrlhf", {"query": query, "prompts": prompts, "labels": labels},
                                server_wait_s=self.timeout_s)
        rewards = body.get("rewards")
        if not isinstance(rewards, list) or len(rewards) != len(query):
            got = len(rewards) if isinstance(rewards, list) else "no"
            raise CudaperfError(f"cudaperf: /v1/openrlhf returned {got} reward(s) for {len(query)} queries", body=body)
        return body

    def evaluate_one(self, task: str, source: str, **options: Any) -> dict:
        """Evaluate one candidate; `options` go to the service (e.g. time_budget_s=0.5). Returns its RESULT."""
        req: dict = {"task": task, "source": source}
        if options:
            req["options"] = options
        return self.evaluate([req])[0]

    def evaluate(self, requests: Sequence[dict], wait_s: float = DEFAULT_WAIT_S) -> list[dict]:
        """Evaluate a batch of {"task", "source", ["options"]} and return the final RESULTs in request order.

        Submits in POSTs of at most `max_batch` (the last one asks the service to wait up to
        `wait_s`), then polls the unfinished jobs on the URL that accepted them until all are done
        or `timeout_s` runs out (CudaperfTimeout).
        """
        requests = list(requests)
        for k, r in enumerate(requests):
            if not isinstance(r, dict) or not isinstance(r.get("task"), str) or not isinstance(r.get("source"), str):
                raise ValueError(f"cudaperf: requests[{k}] needs string fields 'task' and 'source'")
        if not requests:
            return []
        deadline = time.monotonic() + self.timeout_s
        results: list[Optional[dict]] = [None] * len(requests)
        # index -> (job id, URL index) for the jobs still running
        pending: dict[int, tuple[str, int]] = {}
        self._submit(requests, range(len(requests)), wait_s, deadline, results, pending)
        resubmits = 0
        delay = _POLL_MIN_S
        while pending:
            lost: list[int] = []
            for k, (jid, where) in list(pending.items()):
                try:
                    body, _ = self._request("GET", "/v1/jobs/" + urllib.parse.quote(jid, safe=""), deadline=deadline,
                                            pin=where)
                except CudaperfTimeout:
                    raise
                except CudaperfError as e:
                    if e.status not in (None, 404) and not isinstance(e, CudaperfUnavailable):
                        raise
                    lost.append(k)  # that URL forgot the job or is down: submit it again
                    continue
                if self._take(body, k, results):
                    del pending[k]
            if lost:
                resubmits += 1
                if resubmits > self.retries:
                    raise CudaperfUnavailable(f"cudaperf: {len(lost)} job(s) lost {resubmits} time(s) while polling")
                for k in lost:
                    del pending[k]
                self._submit(requests, lost, 0.0, deadline, results, pending)
                continue
            if pending:
                remaining = deadline - time.monotonic()
                if remaining <= delay:
                    raise CudaperfTimeout(f"cudaperf: {len(pending)} job(s) not done after {self.timeout_s:g} s: "
                                          + ", ".join(j for j, _ in list(pending.values())[:8]))
                time.sleep(delay)
                delay = min(_POLL_MAX_S, delay * 1.5)
        return results  # type: ignore[return-value]

    def _submit(self, requests: list[dict], indices: Sequence[int], wait_s: float, deadline: float,
                results: list[Optional[dict]], pending: dict[int, tuple[str, int]]) -> None:
        indices = list(indices)
        chunks = [indices[s:s + self.max_batch] for s in range(0, len(indices), self.max_batch)]
        for c, chunk in enumerate(chunks):
            wait = wait_s if c == len(chunks) - 1 else 0.0
            wait = max(0.0, min(wait, deadline - time.monotonic() - 1.0))
            body, where = self._request("POST", "/v1/evaluate",
                                        {"requests": [requests[k] for k in chunk], "wait_s": wait},
                                        deadline=deadline, server_wait_s=wait)
            jobs = body.get("jobs")
            if not isinstance(jobs, list) or len(jobs) != len(chunk):
                raise CudaperfError(f"cudaperf: /v1/evaluate answered {len(jobs) if isinstance(jobs, list) else 'no'} "
                                    f"job(s) for {len(chunk)} request(s)", url=self.urls[where], body=body)
            for k, job in zip(chunk, jobs):
                if not self._take(job, k, results):
                    if not isinstance(job, dict) or not isinstance(job.get("id"), str):
                        raise CudaperfError("cudaperf: a job without an id", url=self.urls[where], body=job)
                    pending[k] = (job["id"], where)

    @staticmethod
    def _take(job: Any, k: int, results: list[Optional[dict]]) -> bool:
        """Store the job's result when it is done; False while it is queued or running."""
        if not isinstance(job, dict) or job.get("state") != "done":
            return False
        result = job.get("result")
        if not isinstance(result, dict):
            raise CudaperfError(f"cudaperf: job {job.get('id')} is done without a result", body=job)
        results[k] = result
        return True


class AsyncClient:
    """The `Client` API as coroutines. Each call runs the blocking client in a private thread pool
    (`max_workers` calls in flight at once), so many evaluations can be awaited concurrently."""

    def __init__(self, urls: Urls, timeout_s: float = 600, retries: int = 4, backoff_s: float = 0.5,
                 max_batch: int = 256, max_workers: int = 128):
        self.client = Client(urls, timeout_s=timeout_s, retries=retries, backoff_s=backoff_s, max_batch=max_batch)
        self._executor = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="cudaperf")

    @property
    def urls(self) -> list[str]:
        return self.client.urls

    async def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking callable in this client's thread pool."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    async def evaluate(self, requests: Sequence[dict], wait_s: float = DEFAULT_WAIT_S) -> list[dict]:
        return await self.run(self.client.evaluate, requests, wait_s=wait_s)

    async def evaluate_one(self, task: str, source: str, **options: Any) -> dict:
        return await self.run(self.client.evaluate_one, task, source, **options)

    async def job(self, id: str, url: Optional[str] = None) -> dict:
        return await self.run(self.client.job, id, url)

    async def health(self) -> dict[str, bool]:
        return await self.run(self.client.health)

    async def openrlhf(self, query: Sequence[str], prompts: Sequence[str], labels: Sequence[str]) -> dict:
        return await self.run(self.client.openrlhf, query, prompts, labels)

    def close(self) -> None:
        self._executor.shutdown(wait=False)
