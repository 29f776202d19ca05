"""The GRPO reward from `cudaperf serve`, in three variants, and the per-step metrics of what was sampled.

Variants (the method's central comparison, same budget each):
- speed:     gate + speed                       (the tier gate and the clipped log-speedup)
- structure: gate + speed + structure           (+ the analyzer's structural score)
- ranker:    the service's total                (+ the learned ranker's term)
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence

from cudaperf.extract import extract_code, response_text
from cudaperf.scoring import Score, get_client, score_candidates

VARIANTS = ("speed", "structure", "ranker")
NOT_COMPILED = {"no_code", "rejected", "compile_error", "link_error", "usage"}


def variant_reward(score: Score, variant: str) -> Optional[float]:
    if score.task_error:
        return None  # the task failed, not the candidate: TRL's "no reward" (unscorable, advantage 0)
    if score.verdict in ("no_code", "rejected", "no_tool_call"):
        return score.reward  # the lowest reward, whatever the variant
    if variant == "speed":
        return score.gate + score.speed
    if variant == "structure":
        return score.gate + score.speed + score.structure
    if variant == "ranker":
        return score.reward
    raise ValueError(f"unknown reward variant {variant!r} ({', '.join(VARIANTS)})")


def summarize(scores: Sequence[Score], rewards: Sequence[Optional[float]]) -> Dict[str, Any]:
    """compile / correctness rates, mean and geometric-mean speedup of the correct ones, structure, reward,
    every verdict class counted (non-ok classes are the reward-hacking log)."""
    n = len(scores)
    if not n:
        return {"n": 0}
    ok = [s for s in scores if s.correct]
    speedups = [s.speedup for s in ok if s.speedup > 0]
    scored = [r for r in rewards if r is not None]  # a task_error has none
    return {
        "n": n,
        "compile_rate": sum(s.verdict not in NOT_COMPILED for s in scores) / n,
        "correct_rate": len(ok) / n,
        "speedup_mean": sum(speedups) / len(speedups) if speedups else None,
        "speedup_geomean": math.exp(sum(math.log(x) for x in speedups) / len(speedups)) if speedups else None,
        "structure_mean": sum(s.structure for s in scores) / n,
        "reward_mean": sum(scored) / len(scored) if scored else None,
        "task_errors": sum(s.task_error for s in scores),
        "final_rate": sum(s.final for s in scores) / n,
        "verdicts": dict(Counter(s.verdict for s in scores)),
        # which rule each suspected hack broke: a policy learning to hack, or a false positive of the engine
        "hack_messages": [s.message[:400] for s in scores if s.verdict == "hack_suspected"],
    }


def warm_service(url: Optional[str], items: Sequence[tuple], options: Optional[dict] = None) -> Dict[str, Any]:
    """Scores one known implementation per task before any variant trains, so that each task's one-time
    preparation in the service (its inputs, reference outputs, first builds) is paid here and not by
    whichever variant happens to run first (the variants are compared on the same budget)."""
    items = list(items)
    scores = score_candidates(get_client(url), items, options=options)
    # a known-good implementation that is not ok is a finding about the engine under this load: say which
    not_ok = [{"task": t, "verdict": s.verdict, "message": s.message[:400]}
              for (t, _), s in zip(items, scores) if s.verdict != "ok"]
    return {"tasks": len(scores), "verdicts": dict(Counter(s.verdict for s in scores)), "not_ok": not_ok}


class Recorder:
    """A TRL reward function (`reward_funcs=[Recorder(...)]`) that keeps what it scored for the metrics."""

    def __init__(self, variant: str, url: Optional[str] = None, options: Optional[dict] = None):
        if variant not in VARIANTS:
            raise ValueError(f"unknown reward variant {variant!r} ({', '.join(VARIANTS)})")
        self.variant, self.url, self.options = variant, url, options
        self.__name__ = f"cudaperf_{variant}"
        self.scores: List[Score] = []
        self.rewards: List[Optional[float]] = []

    def score(self, completions: Sequence[Any], task_id: Sequence[str]) -> List[Optional[float]]:
        items = [(t, extract_code(response_text(c))) for t, c in zip(task_id, completions)]
        scores = score_candidates(get_client(self.url), items, options=self.options)
        rewards = [variant_reward(s, self.variant) for s in scores]
        self.scores += scores
        self.rewards += rewards
        return rewards

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], task_id: Sequence[str],
                 **kwargs: Any) -> List[Optional[float]]:
        return self.score(completions, task_id)

    def drain(self) -> Dict[str, Any]:
        out = summarize(self.scores, self.rewards)
        self.scores, self.rewards = [], []
        return out
