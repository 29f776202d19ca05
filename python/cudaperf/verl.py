"""verl adapter: custom reward functions and a multi-turn interaction.

verl loads this file by path (custom_reward_function.path), so it imports the installed `cudaperf`
package absolutely and nothing from verl. Wiring: python/README.md.

- `compute_score` (naive / prime / reward-loop managers), `compute_score_async` (reward loop, awaited)
  and `compute_score_batch` (reward_manager=batch: one service call for the whole batch) return
  {"score": reward, "verdict", "speedup", "gate", "speed", "structure", "rank", "final"}.
- The task id is `ground_truth` (reward_model.ground_truth, as `cudaperf export --format verl`
  writes it), else extra_info["task_id"].
- Multi-turn: when extra_info["turn_scores"] holds the per-turn rewards of `CudaperfInteraction`,
  the score is their trajectory aggregate (CUDAPERF_TRAJECTORY, default best) and the service is
  not called again; trajectory="none" scores the response text instead.
- Keyword options (also through custom_reward_function.reward_kwargs): url, options (sent with
  each request, e.g. {"time_budget_s": 0.5}), missing_reward, trajectory, discount.
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple
from uuid import uuid4

from cudaperf.extract import extract_code, response_text
from cudaperf.scoring import Episode, Score, aggregate, get_async_client, get_client, score_candidates

__all__ = ["compute_score", "compute_score_async", "compute_score_batch", "CudaperfInteraction"]

# Live interaction instances kept at most (the oldest goes first): bounds memory should an engine
# never call finalize_interaction. An evicted rollout carries on as a new episode (its task id comes
# with every generate_response call).
MAX_INSTANCES = 4096


def _task_of(ground_truth: Any, extra_info: Any) -> str:
    if isinstance(ground_truth, str) and ground_truth:
        return ground_truth
    if isinstance(extra_info, dict):
        for key in ("task_id", "task"):
            if isinstance(extra_info.get(key), str) and extra_info[key]:
                return extra_info[key]
    raise ValueError("cudaperf: no task id: set reward_model.ground_truth to it (as `cudaperf export --format verl` "
                     "does) or extra_info.task_id")


def _trajectory(rows: Sequence[Tuple[str, Any, Any]], trajectory: Optional[str], discount: Optional[float]) -> List[Optional[Score]]:
    """Rows already scored turn by turn by the interaction get their trajectory reward; the others None."""
    how = (trajectory or os.environ.get("CUDAPERF_TRAJECTORY") or "best").lower()
    out: List[Optional[Score]] = []
    for _, _, extra_info in rows:
        turns = extra_info.get("turn_scores") if isinstance(extra_info, dict) else None
        turns = [] if turns is None else list(turns)  # verl may hand over a numpy array
        if how == "none" or not turns:
            out.append(None)
            continue
        out.append(Score(reward=aggregate(turns, how, discount), verdict="trajectory",
                         message=f"{len(turns)} turn(s)"))
    return out


def _score_rows(rows: Sequence[Tuple[str, Any, Any]], url: Optional[str] = None, options: Optional[dict] = None,
                missing_reward: Optional[float] = None, trajectory: Optional[str] = None,
                discount: Optional[float] = None) -> List[Dict[str, Any]]:
    """(solution_str, ground_truth, extra_info) rows -> verl score dicts, one service call in all."""
    scores = _trajectory(rows, trajectory, discount)
    todo = [k for k, s in enumerate(scores) if s is None]
    items = [(_task_of(rows[k][1], rows[k][2]), extract_code(response_text(rows[k][0]))) for k in todo]
    if items:
        for k, s in zip(todo, score_candidates(get_client(url), items, options=options, lowest=missing_reward)):
            scores[k] = s
    return [s.logged() for s in scores]  # type: ignore[union-attr]


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: Optional[dict] = None, *,
                  url: Optional[str] = None, options: Optional[dict] = None, missing_reward: Optional[float] = None,
                  trajectory: Optional[str] = None, discount: Optional[float] = None, **kwargs: Any) -> Dict[str, Any]:
    """verl custom reward function: {"score": reward total, "verdict", "speedup", "gate", "speed",
    "structure", "rank", "final"}. A response without a code block scores CUDAPERF_MISSING_REWARD."""
    return _score_rows([(solution_str, ground_truth, extra_info)], url, options, missing_reward, trajectory, discount)[0]


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any, extra_info: Optional[dict] = None, *,
                              url: Optional[str] = None, options: Optional[dict] = None,
                              missing_reward: Optional[float] = None, trajectory: Optional[str] = None,
                              discount: Optional[float] = None, **kwargs: Any) -> Dict[str, Any]:
    """`compute_score` as a coroutine (verl's reward loop awaits it; many run at once)."""
    rows = [(solution_str, ground_truth, extra_info)]
    out = await get_async_client(url).run(_score_rows, rows, url, options, missing_reward, trajectory, discount)
    return out[0]


def compute_score_batch(data_sources: Sequence[str], solution_strs: Sequence[str], ground_truths: Sequence[Any],
                        extra_infos: Optional[Sequence[Optional[dict]]] = None, *, url: Optional[str] = None,
                        options: Optional[dict] = None, missing_reward: Optional[float] = None,
                        trajectory: Optional[str] = None, discount: Optional[float] = None,
                        **kwargs: Any) -> List[Dict[str, Any]]:
    """For reward_manager=batch: the whole batch in one evaluate call; one dict per sample."""
    infos = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    if not (len(solution_strs) == len(ground_truths) == len(infos)):
        raise ValueError("cudaperf: solution_strs, ground_truths and extra_infos must have the same length")
    rows = list(zip(solution_strs, ground_truths, infos))
    return _score_rows(rows, url, options, missing_reward, trajectory, discount)


class CudaperfInteraction:
    """A verl interaction (shaped like verl.interactions.base.BaseInteraction, which it does not import):
    each assistant turn's last code block is evaluated; the service's feedback becomes the next user
    turn and the turn's reward the turn score (verl passes the turn scores to the reward function as
    extra_info["turn_scores"]; `compute_score` aggregates them).

    config (the `config:` mapping of the interaction YAML): url, max_turns (0: leave the end to verl's
    max_assistant_turns; set it to that value so that every turn is evaluated), stop_speedup (end as soon
    as a correct candidate is this much faster; default never), options, missing_reward,
    aggregation/discount (for calculate_score).
    The task id comes from interaction_kwargs: task_id (else ground_truth).
    """

    def __init__(self, config: Optional[Dict[str, Any]] = None):
        self.config = dict(config or {})
        self.name: str = self.config.get("name", "cudaperf")
        self.url: Optional[str] = self.config.get("url")
        self.options: Optional[dict] = self.config.get("options")
        self.missing_reward: Optional[float] = self.config.get("missing_reward")
        self._instances: Dict[str, Episode] = {}

    def _episode(self, instance_id: str, kwargs: Dict[str, Any]) -> Episode:
        ep = self._instances.get(instance_id)
        if ep is None:
            while len(self._instances) >= MAX_INSTANCES:
                self._instances.pop(next(iter(self._instances)))
            ep = Episode(kwargs.get("task_id") or kwargs.get("ground_truth"), max_turns=self.config.get("max_turns", 0),
                         stop_speedup=self.config.get("stop_speedup"), aggregation=self.config.get("aggregation"),
                         discount=self.config.get("discount"))
            self._instances[instance_id] = ep
        return ep

    async def start_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> str:
        if instance_id is None:
            instance_id = str(uuid4())
        self._instances.pop(instance_id, None)
        self._episode(instance_id, kwargs)
        return instance_id

    async def generate_response(self, instance_id: str, messages: List[Dict[str, Any]],
                                **kwargs: Any) -> Tuple[bool, str, float, Dict[str, Any]]:
        """(should_terminate_sequence, feedback as the next user turn, this turn's reward, extra)."""
        ep = self._episode(instance_id, kwargs)
        last = next((m for m in reversed(messages) if isinstance(m, dict) and m.get("role") == "assistant"), None)
        source = extract_code(response_text([last] if last else []))
        client = get_async_client(self.url)
        score = (await client.run(score_candidates, client.client, [(ep.task, source)], options=self.options,
                                  lowest=self.missing_reward))[0]
        ep.done = False  # an engine that went on after termination gets the turn scored and is told again
        done = ep.record(dataclasses.replace(score, result=None))  # keep the summary, not the whole RESULT
        extra = {"turn": len(ep.scores), **score.logged()}
        return done, score.feedback_text(), score.reward, extra

    async def calculate_score(self, instance_id: Optional[str] = None, **kwargs: Any) -> float:
        """The trajectory reward so far (aggregation of the turn rewards; 0.0 before any turn)."""
        ep = self._instances.get(instance_id) if instance_id is not None else None
        return ep.reward() if ep else 0.0

    async def finalize_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> None:
        if instance_id is not None:
            self._instances.pop(instance_id, None)
