"""OpenRLHF adapter: the `--reward.remote_url /path/to/openrlhf.py` file variant.

OpenRLHF loads this file by path and calls `reward_func(queries, prompts, labels)` (in 0.11 once per
sample, from a thread); labels are the task ids (`--data.label_key task_id`), each query is the
prompt followed by the response. It imports the installed `cudaperf` package absolutely and
nothing from OpenRLHF. Wiring: python/README.md.

Returns the remote reward model's format, as lists:
{"rewards": [reward], "scores": [1.0 if correct else 0.0], "extra_logs": {"correct", "speedup",
"gate", "speed", "structure", "rank": [...]}}. `scores` is correctness so that dynamic filtering
(which expects scores in [0, 1]) keeps groups whose pass rate is strictly between 0 and 1.

Mode (CUDAPERF_OPENRLHF_MODE or mode=): "client" (default) extracts the code here, with the same
rules as the other adapters, and calls /v1/evaluate; "server" forwards the batch to /v1/openrlhf
and returns the service's answer unchanged.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from cudaperf.extract import extract_code
from cudaperf.scoring import get_client, score_candidates

__all__ = ["reward_func"]

EXTRA_LOGS = ("speedup", "gate", "speed", "structure", "rank")


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str], *, url: Optional[str] = None,
                mode: Optional[str] = None, options: Optional[dict] = None, missing_reward: Optional[float] = None,
                **kwargs: Any) -> Dict[str, Any]:
    """OpenRLHF reward function file variant: {"rewards", "scores", "extra_logs"} for the batch."""
    queries, labels = list(queries), list(labels)
    prompts = list(prompts) if prompts is not None else []
    if len(labels) != len(queries) or (prompts and len(prompts) != len(queries)):
        raise ValueError("cudaperf: queries, prompts and labels must have the same length")
    mode = (mode or os.environ.get("CUDAPERF_OPENRLHF_MODE") or "client").lower()
    if mode == "server":
        return get_client(url).openrlhf(queries, prompts, labels)
    if mode != "client":
        raise ValueError(f"cudaperf: unknown mode {mode!r} (client or server)")
    items = [(label, extract_code(q, prompts[k] if prompts else None)) for k, (q, label) in enumerate(zip(queries, labels))]
    scores = score_candidates(get_client(url), items, options=options, lowest=missing_reward)
    correct: List[float] = [1.0 if s.correct else 0.0 for s in scores]
    extra_logs = {"correct": correct, **{name: [float(getattr(s, name)) for s in scores] for name in EXTRA_LOGS}}
    return {"rewards": [s.reward for s in scores], "scores": correct, "extra_logs": extra_logs}
