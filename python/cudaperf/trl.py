"""TRL adapter: a GRPOTrainer reward function and a multi-turn environment.

Imports nothing from TRL. Wiring: python/README.md.

- `reward_func(prompts, completions, task_id, **kwargs) -> list[float]`: TRL passes every dataset
  column but `prompt` as a keyword, so the dataset needs a `task_id` column (as
  `cudaperf export --format trl` writes it). Completions may be strings or conversations; the whole
  batch is one evaluate call; a completion without a code block scores CUDAPERF_MISSING_REWARD.
  A task_error (the task failed, not the candidate) is None: TRL's "no reward" (unscorable, advantage 0).
- `make_reward_func(url=..., options=...)`: the same with a fixed service URL or request options.
- `CudaperfEnv`: GRPOTrainer's `environment_factory` (TRL >= 1.x, transformers >= 5.2). TRL calls
  `reset(**row)` before each rollout (its return value is appended to the last user message, so it
  returns only a short instruction, never the prompt), exposes every other public method as a tool
  (a JSON schema from the docstring: `evaluate_kernel(source)`), and calls `get_reward()` once per
  rollout. A rollout that never called the tool gets the lowest reward (CUDAPERF_MISSING_REWARD),
  below every evaluated outcome; a task_error turn ends the episode and `get_reward()` is None (no reward).
  Custom loops call `evaluate_kernel(answer)` and read `done`, `scores`.
- `load_prompts(path)`: task id -> prompt text from a `cudaperf export` file.
"""
from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from typing import Any, Callable, Optional, Union

from cudaperf.extract import extract_code, fenced_blocks, response_text
from cudaperf.scoring import Episode, get_client, missing_reward, score_candidates

__all__ = ["reward_func", "make_reward_func", "score_completions", "CudaperfEnv", "load_prompts", "TOOL_HINT"]

# What reset() appends to the prompt's last user message (TRL appends reset's return value).
TOOL_HINT = ("\n\nSubmit each complete .cu file with the `evaluate_kernel` tool; its result is the verdict, timing "
             "and feedback. You may submit again after reading it.")


def score_completions(completions: Sequence[Any], task_id: Union[str, Sequence[str]], *, url: Optional[str] = None,
                      options: Optional[dict] = None, missing_reward: Optional[float] = None) -> list[Optional[float]]:
    """Rewards of `completions` (strings or conversations) on their tasks, in one service call; None for a
    task_error (TRL excludes such a completion from the loss: its advantage is 0)."""
    tasks = [task_id] * len(completions) if isinstance(task_id, str) else list(task_id)
    if len(tasks) != len(completions):
        raise ValueError(f"cudaperf: {len(completions)} completions but {len(tasks)} task ids")
    items = [(t, extract_code(response_text(c))) for t, c in zip(tasks, completions)]
    return [s.reward for s in score_candidates(get_client(url), items, options=options, lowest=missing_reward)]


def reward_func(prompts: Sequence[Any], completions: Sequence[Any], task_id: Union[str, Sequence[str]],
                **kwargs: Any) -> list[Optional[float]]:
    """GRPOTrainer reward function: the cudaperf reward of each completion (service: CUDAPERF_URL)."""
    return score_completions(completions, task_id)


def make_reward_func(url: Optional[str] = None, *, options: Optional[dict] = None,
                     missing_reward: Optional[float] = None,
                     name: str = "cudaperf") -> Callable[..., list[Optional[float]]]:
    """`reward_func` bound to a service URL and request options; TRL logs it as rewards/<name>."""

    def bound(prompts: Sequence[Any], completions: Sequence[Any], task_id: Union[str, Sequence[str]],
              **kwargs: Any) -> list[Optional[float]]:
        return score_completions(completions, task_id, url=url, options=options, missing_reward=missing_reward)

    bound.__name__ = bound.__qualname__ = name
    return bound


def _prompt_text(prompt: Any) -> str:
    """A dataset prompt as text: a string, or the last user message of a conversation."""
    if isinstance(prompt, str):
        return prompt
    users = [m for m in prompt or [] if isinstance(m, dict) and m.get("role") == "user"]
    return response_text([dict(users[-1], role="assistant")]) if users else ""


def load_prompts(path: str) -> dict[str, str]:
    """task id -> prompt text from a `cudaperf export` file (jsonl, trl or verl layout)."""
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            tid = row.get("task_id") or (row.get("extra_info") or {}).get("task_id")
            if tid:
                out[tid] = _prompt_text(row.get("prompt"))
    return out


def _tool_source(text: str) -> Optional[str]:
    """The candidate in a tool argument: the last code block when it holds fenced blocks, else the text itself."""
    if not isinstance(text, str) or not text.strip():
        return None
    return extract_code(text) if fenced_blocks(text) else text


_log_lock = threading.Lock()


class CudaperfEnv:
    """A multi-turn refinement episode on one task, for GRPOTrainer's `environment_factory`.

    trainer = GRPOTrainer(model=..., environment_factory=CudaperfEnv, train_dataset=ds, ...)
        # ds rows: {"prompt": [...], "task_id": ...}; the tool call is `evaluate_kernel(source=...)`

    TRL calls `reset(**row)` (returns TOOL_HINT, appended to the prompt), the tool `evaluate_kernel`
    any number of times, then `get_reward()`: the trajectory reward of the evaluated turns
    (CUDAPERF_TRAJECTORY, default best), or the lowest reward when the tool was never called. After
    `max_turns` evaluated turns, or once a correct candidate reaches `stop_speedup`, the tool answers
    that the episode is over without evaluating. Custom loops call `evaluate_kernel(answer)` too (an answer
    with fenced blocks is reduced to its last code block) and read `done` and `scores`.

    Every evaluated turn is appended as one JSON line to `turn_log` (or CUDAPERF_TURN_LOG) when set:
    task, turn, verdict, reward, speedup, structure, final.
    """

    def __init__(self, url: Optional[str] = None, *, max_turns: int = 4, stop_speedup: Optional[float] = None,
                 options: Optional[dict] = None, missing_reward: Optional[float] = None,
                 prompts: Optional[dict[str, Any]] = None, aggregation: Optional[str] = None,
                 discount: Optional[float] = None, hint: Optional[str] = TOOL_HINT, turn_log: Optional[str] = None):
        self.url, self.options, self.missing_reward = url, options, missing_reward
        self.max_turns, self.stop_speedup = max_turns, stop_speedup
        self.aggregation, self.discount = aggregation, discount
        self.prompts = dict(prompts or {})
        self.hint, self.turn_log = hint, turn_log
        self.episode: Optional[Episode] = None
        self.prompt: Optional[str] = None

    def reset(self, task_id: Optional[str] = None, prompt: Any = None, **row: Any) -> Optional[str]:
        """Start an episode on `task_id` (the dataset row's column). Returns the tool hint that TRL appends
        to the last user message (not the prompt: the prompt is already in the conversation)."""
        if not isinstance(task_id, str) or not task_id:
            raise ValueError(f"cudaperf: the dataset needs a task_id column (got {task_id!r})")
        self.prompt = _prompt_text(prompt) if prompt is not None else self.prompts.get(task_id)
        self.episode = Episode(task_id, max_turns=self.max_turns, stop_speedup=self.stop_speedup,
                               aggregation=self.aggregation, discount=self.discount)
        return self.hint

    def _evaluate(self, source: Optional[str]) -> tuple[str, Optional[float], bool]:
        if self.episode is None:
            raise RuntimeError("cudaperf: call reset(task_id=...) before evaluating")
        if self.episode.done:
            return ("The episode is over: no more evaluations. Stop here.", self.episode.scores[-1].reward, True)
        score = score_candidates(get_client(self.url), [(self.episode.task, source)], options=self.options,
                                 lowest=self.missing_reward)[0]
        done = self.episode.record(score)
        self._log_turn(score)
        return score.feedback_text(), score.reward, done

    def _log_turn(self, score: Any) -> None:
        path = self.turn_log or os.environ.get("CUDAPERF_TURN_LOG")
        if not path or self.episode is None:
            return
        row = {"task": self.episode.task, "turn": len(self.episode.scores), **score.logged()}
        with _log_lock, open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")

    def evaluate_kernel(self, source: str) -> str:
        """Compile, check and time a CUDA kernel for the current task.

        Args:
            source: The complete .cu file (the exact signature from the task, extern "C"), as plain text or in one
                ```cuda fenced block.

        Returns:
            The verdict, the speedup over the naive kernel, the reward and feedback for the next attempt.
        """
        feedback, reward, done = self._evaluate(_tool_source(source))
        tail = " The episode is over." if done else ""
        said = "none (the task itself failed, not your code)" if reward is None else f"{reward:.3f}"
        return f"{feedback}\nReward: {said}.{tail}"

    def get_reward(self) -> Optional[float]:
        """The trajectory reward: the aggregate of the evaluated turns, or the lowest reward when none was evaluated;
        None after a task_error turn (TRL's "no reward": the rollout is unscorable, advantage 0)."""
        if self.episode is None or not self.episode.scores:
            return missing_reward(self.missing_reward)
        return self.episode.reward()

    @property
    def done(self) -> bool:
        """Whether the episode is over (max_turns evaluated, or stop_speedup reached)."""
        return bool(self.episode and self.episode.done)

    @property
    def scores(self) -> list:
        """The per-turn `Score`s of the current episode (verdict, speedup, reward terms, feedback)."""
        return list(self.episode.scores) if self.episode else []
