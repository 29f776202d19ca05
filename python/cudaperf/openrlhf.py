"""OpenRLHF adapter: the `--reward.remote_url /path/to/openrlhf.py` file variant.

OpenRLHF loads this file by path and calls `reward_func(queries, prompts, labels)` (in 0.11 once per
sample, from a thread); labels are the task ids (`--data.label_key task_id`), each query is the
prompt followed by the response. It imports the installed `cudaperf` package absolutely and
nothing from OpenRLHF. Wiring: python/README.md.

Returns the remote reward model's format, as lists:
{"rewards": [reward], "scores": [1.0 if correct else 0.0], "extra_logs": {"correct", "speedup",
"gate", "speed", "structure", "rank", "task_error", "error": [...]}}. `scores` is correctness so that dynamic filtering
(which expects scores in [0, 1]) keeps groups whose pass rate is strictly between 0 and 1.

Errors: OpenRLHF 0.11 catches what a reward function raises and logs it at INFO, leaving the sample
without a reward. So every failure here (service unreachable or refusing, a service without a GPU,
an unknown task, a malformed batch) is logged at ERROR on the `cudaperf` logger and answered with an
explicit reward: the lowest one (CUDAPERF_ERROR_REWARD, default CUDAPERF_MISSING_REWARD), score 0,
and extra_logs["error"] = 1.0 for each sample of the batch (0.0 otherwise).

task_error (the task failed, not the candidate): OpenRLHF needs a number for every sample and cannot
say "no reward", so such a sample gets the same error reward, score 0 (with --algo.dynamic_filtering_enable
its prompt's group is dropped: no sample of a failing task is correct) and extra_logs["error"] =
extra_logs["task_error"] = 1.0, logged at ERROR with the task's id.

Mode (CUDAPERF_OPENRLHF_MODE or mode=): "client" (default) extracts the code here, with the same
rules as the other adapters, and calls /v1/evaluate; "server" forwards the batch to /v1/openrlhf
and returns the service's answer unchanged.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any, Optional

from cudaperf.extract import extract_code
from cudaperf.scoring import get_client, missing_reward, score_candidates

__all__ = ["reward_func", "error_reward"]

log = logging.getLogger("cudaperf")

EXTRA_LOGS = ("speedup", "gate", "speed", "structure", "rank")


def error_reward(value: Optional[float] = None) -> float:
    """The reward of a sample whose evaluation failed (CUDAPERF_ERROR_REWARD, default the missing-code reward)."""
    if value is not None:
        return float(value)
    env = os.environ.get("CUDAPERF_ERROR_REWARD")
    return float(env) if env else missing_reward()


def _task_errors(out: dict[str, Any], labels: list[str], on_error: Optional[float]) -> dict[str, Any]:
    """The task_error samples of a batch (extra_logs["task_error"]): the error reward, flagged, an ERROR line."""
    logs = out.setdefault("extra_logs", {})
    flags = [float(f) for f in logs.get("task_error") or [0.0] * len(labels)]
    logs["task_error"] = flags
    logs["error"] = list(flags)
    bad = [k for k, f in enumerate(flags) if f]
    if bad:
        low = error_reward(on_error)
        out["rewards"] = [low if f else r for r, f in zip(out["rewards"], flags)]
        log.error("cudaperf: %d sample(s) of tasks %s are a task_error (the task failed, not the candidate): OpenRLHF "
                  "has no 'no reward', so each gets %g; fix or remove the task", len(bad),
                  sorted({str(labels[k]) for k in bad})[:5], low)
    return out


def _score_batch(queries: list[str], prompts: list[str], labels: list[str], url: Optional[str], mode: str,
                 options: Optional[dict], lowest: Optional[float], on_error: Optional[float]) -> dict[str, Any]:
    if len(labels) != len(queries) or (prompts and len(prompts) != len(queries)):
        raise ValueError("cudaperf: queries, prompts and labels must have the same length")
    if mode == "server":
        return _task_errors(dict(get_client(url).openrlhf(queries, prompts, labels)), labels, on_error)
    if mode != "client":
        raise ValueError(f"cudaperf: unknown mode {mode!r} (client or server)")
    items = [(label, extract_code(q, prompts[k] if prompts else None))
             for k, (q, label) in enumerate(zip(queries, labels))]
    scores = score_candidates(get_client(url), items, options=options, lowest=lowest)
    correct: list[float] = [1.0 if s.correct else 0.0 for s in scores]
    extra_logs = {"correct": correct, **{name: [float(getattr(s, name)) for s in scores] for name in EXTRA_LOGS},
                  "task_error": [1.0 if s.task_error else 0.0 for s in scores]}
    rewards = [s.reward if s.reward is not None else 0.0 for s in scores]  # task_error: replaced by _task_errors
    return _task_errors({"rewards": rewards, "scores": correct, "extra_logs": extra_logs}, labels, on_error)


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str], *, url: Optional[str] = None,
                mode: Optional[str] = None, options: Optional[dict] = None, missing_reward: Optional[float] = None,
                on_error: Optional[float] = None, **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF reward function file variant: {"rewards", "scores", "extra_logs"} for the batch; a failure
    is logged at ERROR and every sample gets `error_reward(on_error)` with extra_logs["error"] = 1.0."""
    queries = list(queries or [])
    labels = list(labels or [])
    prompts = list(prompts) if prompts is not None else []
    mode = (mode or os.environ.get("CUDAPERF_OPENRLHF_MODE") or "client").lower()
    try:
        return _score_batch(queries, prompts, labels, url, mode, options, missing_reward, on_error)
    except Exception as e:  # OpenRLHF would swallow it at INFO: make it a reward and an ERROR line instead
        low = error_reward(on_error)
        log.error("cudaperf: reward of %d sample(s) (tasks %s) failed, each gets %g: %s: %s", len(queries),
                  sorted(set(map(str, labels)))[:5], low, type(e).__name__, e)
        n = len(queries)
        zeros = [0.0] * n
        return {"rewards": [low] * n, "scores": zeros,
                "extra_logs": {"correct": zeros, **{name: list(zeros) for name in EXTRA_LOGS},
                               "task_error": list(zeros), "error": [1.0] * n}}
