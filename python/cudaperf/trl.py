"""TRL adapter: a GRPOTrainer reward function and a multi-turn environment.

Imports nothing from TRL. Wiring: python/README.md.

- `reward_func(prompts, completions, task_id, **kwargs) -> list[float]`: TRL passes every dataset
  column but `prompt` as a keyword, so the dataset needs a `task_id` column (as
  `cudaperf export --format trl` writes it). Completions may be strings or conversations; the whole
  batch is one evaluate call; a completion without a code block scores CUDAPERF_MISSING_REWARD.
- `make_reward_func(url=..., options=...)`: the same with a fixed service URL or request options.
- `CudaperfEnv`: reset(task_id) -> prompt; step(completion) -> (feedback, reward, done); get_reward()
  -> trajectory reward. For custom rollout loops (e.g. GRPOTrainer's rollout_func).
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from cudaperf.extract import extract_code, response_text
from cudaperf.scoring import Episode, get_client, score_candidates

__all__ = ["reward_func", "make_reward_func", "score_completions", "CudaperfEnv"]


def score_completions(completions: Sequence[Any], task_id: Union[str, Sequence[str]], *, url: Optional[str] = None,
                      options: Optional[dict] = None, missing_reward: Optional[float] = None) -> List[float]:
    """Rewards of `completions` (strings or conversations) on their tasks, in one service call."""
    tasks = [task_id] * len(completions) if isinstance(task_id, str) else list(task_id)
    if len(tasks) != len(completions):
        raise ValueError(f"cudaperf: {len(completions)} completions but {len(tasks)} task ids")
    items = [(t, extract_code(response_text(c))) for t, c in zip(tasks, completions)]
    return [s.reward for s in score_candidates(get_client(url), items, options=options, lowest=missing_reward)]


def reward_func(prompts: Sequence[Any], completions: Sequence[Any], task_id: Union[str, Sequence[str]],
                **kwargs: Any) -> List[float]:
    """GRPOTrainer reward function: the cudaperf reward of each completion (service: CUDAPERF_URL)."""
    return score_completions(completions, task_id)


def make_reward_func(url: Optional[str] = None, *, options: Optional[dict] = None,
                     missing_reward: Optional[float] = None, name: str = "cudaperf") -> Callable[..., List[float]]:
    """`reward_func` bound to a service URL and request options; TRL logs it as rewards/<name>."""

    def bound(prompts: Sequence[Any], completions: Sequence[Any], task_id: Union[str, Sequence[str]],
              **kwargs: Any) -> List[float]:
        return score_completions(completions, task_id, url=url, options=options, missing_reward=missing_reward)

    bound.__name__ = bound.__qualname__ = name
    return bound


def _prompt_text(prompt: Any) -> str:
    """A dataset prompt as text: a string, or the last user message of a conversation."""
    if isinstance(prompt, str):
        return prompt
    users = [m for m in prompt or [] if isinstance(m, dict) and m.get("role") == "user"]
    return response_text([dict(users[-1], role="assistant")]) if users else ""


class CudaperfEnv:
    """A multi-turn refinement episode on one task.

    env = CudaperfEnv(max_turns=4)
    prompt = env.reset(task_id, prompt=row["prompt"])   # or CudaperfEnv(prompts=CudaperfEnv.load_prompts(path))
    feedback, reward, done = env.step(completion)       # repeat until done
    env.get_reward()                                    # trajectory reward (CUDAPERF_TRAJECTORY, default best)

    The episode ends after `max_turns` turns, or when a correct candidate reaches `stop_speedup`.
    """

    def __init__(self, url: Optional[str] = None, *, max_turns: int = 4, stop_speedup: Optional[float] = None,
                 options: Optional[dict] = None, missing_reward: Optional[float] = None,
                 prompts: Optional[Dict[str, Any]] = None, aggregation: Optional[str] = None,
                 discount: Optional[float] = None):
        self.url, self.options, self.missing_reward = url, options, missing_reward
        self.max_turns, self.stop_speedup = max_turns, stop_speedup
        self.aggregation, self.discount = aggregation, discount
        self.prompts = dict(prompts or {})
        self.episode: Optional[Episode] = None

    @staticmethod
    def load_prompts(path: str) -> Dict[str, str]:
        """task id -> prompt text from a `cudaperf export` file (jsonl, trl or verl layout)."""
        out: Dict[str, str] = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                row = json.loads(line)
                tid = row.get("task_id") or (row.get("extra_info") or {}).get("task_id")
                if tid:
                    out[tid] = _prompt_text(row.get("prompt"))
        return out

    def reset(self, task_id: str, prompt: Any = None, **row: Any) -> str:
        """Start an episode on `task_id`; returns the prompt text (`prompt` if given, else from `prompts`)."""
        text = _prompt_text(prompt) if prompt is not None else self.prompts.get(task_id)
        if not text:
            raise ValueError(f"cudaperf: no prompt for task {task_id!r}: pass prompt= or prompts=CudaperfEnv.load_prompts(...)")
        self.episode = Episode(task_id, max_turns=self.max_turns, stop_speedup=self.stop_speedup,
                               aggregation=self.aggregation, discount=self.discount)
        return text

    def step(self, completion: Any) -> Tuple[str, float, bool]:
        """Evaluate the completion's last code block: (feedback for the next turn, reward, done)."""
        if self.episode is None:
            raise RuntimeError("cudaperf: call reset(task_id) before step()")
        source = extract_code(response_text(completion))
        score = score_candidates(get_client(self.url), [(self.episode.task, source)], options=self.options,
                                 lowest=self.missing_reward)[0]
        done = self.episode.record(score)
        return score.feedback_text(), score.reward, done

    def get_reward(self) -> float:
        """The trajectory reward of the current episode (0.0 before any step)."""
        return self.episode.reward() if self.episode else 0.0

    @property
    def scores(self) -> list:
        """The per-turn `Score`s of the current episode (verdict, speedup, reward terms, feedback)."""
        return list(self.episode.scores) if self.episode else []
