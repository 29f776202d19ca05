"""What the engine adapters share: where the service is, how a RESULT becomes a score, how a batch
with missing code blocks is scored, and the multi-turn episode (per-turn rewards, feedback,
trajectory reward).

Environment (read at call time, so a launcher can set it late):
- CUDAPERF_URL: the service, one URL or several separated by commas (default http://127.0.0.1:8080).
- CUDAPERF_MISSING_REWARD: the reward of a response without a code block, and of a source the
  service refuses as oversized (default -10.0, `gate.hack` of config/reward.toml: the lowest
  reward). Change it together with the service's reward config.
- CUDAPERF_TRAJECTORY / CUDAPERF_DISCOUNT: how per-turn rewards become one trajectory reward:
  best (default), last, or discounted (sum of discount**t * reward_t, discount 0.4 by default),
  as `trajectory.aggregation` / `trajectory.discount` in config/reward.toml.
- CUDAPERF_TIMEOUT_S: budget of one evaluation call (default 600).

A `task_error` result (the task or the engine failed, not the candidate) is a Score whose `reward`
is None: no reward for that sample. Each adapter passes that on as far as its engine's format can.
"""
from __future__ import annotations

import math
import os
import re
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from cudaperf.client import DEFAULT_WAIT_S, AsyncClient, Client, CudaperfBadRequest, CudaperfError

__all__ = [
    "DEFAULT_URL", "DEFAULT_MISSING_REWARD", "LOGGED_FIELDS", "NO_CODE_VERDICT", "REJECTED_VERDICT",
    "TASK_ERROR_VERDICT", "NO_CODE_FEEDBACK",
    "Score", "Episode", "service_url", "missing_reward", "get_client", "get_async_client", "score_candidates",
    "aggregate",
]

DEFAULT_URL = "http://127.0.0.1:8080"
DEFAULT_MISSING_REWARD = -10.0
DEFAULT_AGGREGATION = "best"
DEFAULT_DISCOUNT = 0.4
LOGGED_FIELDS = ("verdict", "speedup", "gate", "speed", "structure", "rank", "final")
NO_CODE_VERDICT = "no_code"
REJECTED_VERDICT = "rejected"
TASK_ERROR_VERDICT = "task_error"  # the task failed, not the candidate: no reward (the service's verdict)
NO_CODE_FEEDBACK = ("No candidate found: answer with the complete .cu file in one ```cuda code block "
                    "(the last such block of the answer is evaluated).")
_OVERSIZED = re.compile(r"byte limit|too large|oversized|too long", re.IGNORECASE)


def service_url(url: Optional[str] = None) -> str:
    return url or os.environ.get("CUDAPERF_URL") or DEFAULT_URL


def missing_reward(value: Optional[float] = None) -> float:
    if value is not None:
        return float(value)
    return float(os.environ.get("CUDAPERF_MISSING_REWARD", DEFAULT_MISSING_REWARD))


_clients: dict[tuple[str, str, float], Any] = {}
_clients_lock = threading.Lock()


def _cached(kind: str, url: Optional[str]) -> Any:
    timeout = float(os.environ.get("CUDAPERF_TIMEOUT_S", 600))
    key = (kind, service_url(url), timeout)
    with _clients_lock:
        c = _clients.get(key)
        if c is None:
            c = (Client if kind == "sync" else AsyncClient)(key[1], timeout_s=timeout)
            _clients[key] = c
        return c


def get_client(url: Optional[str] = None) -> Client:
    """A shared Client for `url` (default: CUDAPERF_URL)."""
    return _cached("sync", url)


def get_async_client(url: Optional[str] = None) -> AsyncClient:
    """A shared AsyncClient for `url` (default: CUDAPERF_URL)."""
    return _cached("async", url)


def _number(x: Any, default: float = 0.0) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return default
    return float(x)


@dataclass
class Score:
    """One evaluated (or refused) candidate. `speedup` is 0.0 when the service measured none. `reward` is
    None only for a task_error: the task failed, not the candidate, so there is no reward to give."""

    reward: Optional[float]
    verdict: str
    speedup: float = 0.0
    gate: float = 0.0
    speed: float = 0.0
    structure: float = 0.0
    rank: float = 0.0
    final: bool = True
    message: str = ""
    feedback: str = ""
    result: Optional[dict] = field(default=None, repr=False)

    @property
    def correct(self) -> bool:
        return self.verdict == "ok"

    @property
    def task_error(self) -> bool:
        return self.reward is None

    def logged(self) -> dict[str, Any]:
        """{"score", "verdict", "speedup", "gate", "speed", "structure", "rank", "final"}: numbers but the verdict
        (and "score", None for a task_error)."""
        return {"score": self.reward, **{k: getattr(self, k) for k in LOGGED_FIELDS}}

    def feedback_text(self) -> str:
        if self.feedback:
            return self.feedback
        return f"Verdict: {self.verdict}. {self.message}".strip()

    @classmethod
    def from_result(cls, result: dict) -> Score:
        r = result.get("reward")
        verdict = str(result.get("verdict", ""))
        message = str(result.get("message") or result.get("verdict_message") or "")
        if verdict == TASK_ERROR_VERDICT:  # the service gives it no reward, and neither does this
            return cls(reward=None, verdict=verdict, final=True, message=message,
                       feedback=str(result.get("feedback") or ""), result=result)
        total = _number(r.get("total"), math.nan) if isinstance(r, dict) else math.nan
        if math.isnan(total):
            raise CudaperfError(f"cudaperf: a result without a reward (verdict {verdict!r}: {message})", body=result)
        assert isinstance(r, dict)  # a total was read from it
        final = bool(result.get("final", True))
        if not final:  # shown once per process by the default warnings filter
            warnings.warn("cudaperf: a result is not final (the service skipped the GPU stages): its reward is not "
                          "the real one; is the service running on a GPU?", RuntimeWarning, stacklevel=2)
        return cls(reward=total, verdict=verdict, speedup=_number(result.get("speedup")),
                   gate=_number(r.get("gate")), speed=_number(r.get("speed")), structure=_number(r.get("structure")),
                   rank=_number(r.get("rank")), final=final, message=message,
                   feedback=str(result.get("feedback") or ""), result=result)

    @classmethod
    def missing(cls, reward: float) -> Score:
        return cls(reward=reward, verdict=NO_CODE_VERDICT, gate=reward, message="no code block in the response",
                   feedback=NO_CODE_FEEDBACK)

    @classmethod
    def rejected(cls, reward: float, message: str) -> Score:
        return cls(reward=reward, verdict=REJECTED_VERDICT, gate=reward, message=message,
                   feedback=f"The service refused the candidate: {message}")


def _evaluate_resilient(client: Client, requests: list[dict], lowest: float, wait_s: float) -> list[Score]:
    """Evaluate; when the service refuses the batch (400), find the refused request by halving: an
    oversized source scores `lowest`, any other refusal (unknown task, ...) is raised."""
    try:
        return [Score.from_result(r) for r in client.evaluate(requests, wait_s=wait_s)]
    except CudaperfBadRequest as e:
        if len(requests) == 1:
            if _OVERSIZED.search(str(e)):
                return [Score.rejected(lowest, str(e))]
            raise
        half = len(requests) // 2
        return (_evaluate_resilient(client, requests[:half], lowest, wait_s)
                + _evaluate_resilient(client, requests[half:], lowest, wait_s))


def score_candidates(client: Client, items: Sequence[tuple[Optional[str], Optional[str]]], *,
                     options: Optional[dict] = None, lowest: Optional[float] = None,
                     wait_s: float = DEFAULT_WAIT_S) -> list[Score]:
    """Score (task, source) pairs in one evaluate call; a None source (no code block) gets the
    lowest reward without calling the service. Blocking; see AsyncClient.run for coroutines."""
    low = missing_reward(lowest)
    out: list[Optional[Score]] = [None] * len(items)
    requests, where = [], []
    for k, (task, source) in enumerate(items):
        if source is None:
            out[k] = Score.missing(low)
            continue
        if not isinstance(task, str) or not task:
            raise ValueError(f"cudaperf: item {k} has no task id (got {task!r})")
        req: dict = {"task": task, "source": source}
        if options:
            req["options"] = dict(options)
        requests.append(req)
        where.append(k)
    if requests:
        for k, s in zip(where, _evaluate_resilient(client, requests, low, wait_s)):
            out[k] = s
    return out  # type: ignore[return-value]


def aggregate(rewards: Sequence[float], how: Optional[str] = None, discount: Optional[float] = None) -> float:
    """Trajectory reward from per-turn rewards: best (max), last, or discounted (sum of discount**t * r_t)."""
    how = (how or os.environ.get("CUDAPERF_TRAJECTORY") or DEFAULT_AGGREGATION).lower()
    if discount is None:
        discount = float(os.environ.get("CUDAPERF_DISCOUNT", DEFAULT_DISCOUNT))
    rewards = [float(r) for r in rewards]
    if not rewards:
        raise ValueError("cudaperf: no turn rewards to aggregate")
    if how == "best":
        return max(rewards)
    if how == "last":
        return rewards[-1]
    if how == "discounted":
        return sum(discount ** t * r for t, r in enumerate(rewards))
    raise ValueError(f"cudaperf: unknown trajectory aggregation {how!r} (best, last or discounted)")


class Episode:
    """One multi-turn rollout on one task: the scores of its turns and when it ends.

    Ends after `max_turns` evaluated turns (0: never; leave it to the engine), or as soon as a
    correct candidate reaches `stop_speedup` (None: never).
    """

    def __init__(self, task: str, *, max_turns: int = 0, stop_speedup: Optional[float] = None,
                 aggregation: Optional[str] = None, discount: Optional[float] = None):
        if not isinstance(task, str) or not task:
            raise ValueError(f"cudaperf: an episode needs a task id (got {task!r})")
        self.task = task
        self.max_turns = int(max_turns or 0)
        self.stop_speedup = None if stop_speedup is None else float(stop_speedup)
        self.aggregation, self.discount = aggregation, discount
        self.scores: list[Score] = []
        self.done = False

    @property
    def rewards(self) -> list[float]:
        """The rewards of the turns that have one (a task_error turn has none)."""
        return [s.reward for s in self.scores if s.reward is not None]

    @property
    def task_error(self) -> bool:
        """Whether a turn was a task_error: the task failed, so the rollout has no reward."""
        return any(s.task_error for s in self.scores)

    def record(self, score: Score) -> bool:
        """Add a turn's score; returns whether the episode is over (also after a task_error: nothing to fix)."""
        if self.done:
            raise RuntimeError(f"cudaperf: the episode on {self.task} is over")
        self.scores.append(score)
        self.done = bool((self.max_turns and len(self.scores) >= self.max_turns) or score.task_error
                         or (self.stop_speedup is not None and score.correct and score.speedup >= self.stop_speedup))
        return self.done

    def reward(self) -> Optional[float]:
        """The trajectory reward (0.0 before any turn); None after a task_error (the task failed: no reward)."""
        if self.task_error:
            return None
        return aggregate(self.rewards, self.aggregation, self.discount) if self.scores else 0.0
