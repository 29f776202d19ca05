"""verl 0.9 adapter: the custom reward function and a multi-turn tool for verl's agent loop.

verl loads this file by path (`reward.custom_reward_function.path`), so it imports the installed
`cudaperf` package absolutely, and verl only when `CudaperfTool` is first looked up (verl's tool
registry does that inside verl). Wiring: python/README.md, config/verl/.

- `compute_score` (sync) and `compute_score_async` (a coroutine; verl's reward loop awaits it)
  return {"score": reward, "verdict", "speedup", "gate", "speed", "structure", "rank", "final"}.
  Both work with the registered reward managers of verl 0.9 (naive, dapo, gdpo, limited, remote
  hands over the same arguments). The task id is `ground_truth` (reward_model.ground_truth, as
  `cudaperf export --format verl` writes it), else extra_info["task_id"].
- Multi-turn: verl 0.9 has no interactions; multi-turn is its tool agent loop
  (`actor_rollout_ref.rollout.multi_turn.tool_config_path`). `CudaperfTool` (the `evaluate_kernel`
  tool) evaluates each call's source, answers with the service's feedback, returns the turn's
  reward as the tool reward, and records the turn in the trajectory's extra fields, which verl hands
  to the reward function in extra_info. `compute_score` then returns the trajectory aggregate
  (CUDAPERF_TRAJECTORY, default best) without calling the service again; `final` is true only when
  every turn was final. With `multi_turn=True` (reward_kwargs) a trajectory that never called the
  tool gets the lowest reward (it never submitted), not a score of its text.
- Keyword options (also through reward.custom_reward_function.reward_kwargs): url, options (sent
  with each request, e.g. {"time_budget_s": 0.5}), missing_reward, trajectory, discount, multi_turn.
- task_error (the task failed, not the candidate): verl's score must be a number for every sample, so
  it cannot say "no reward"; `compute_score` raises CudaperfError naming the task (fix or drop it),
  never a made-up score. The tool gives that turn no tool reward (None) and evaluates no later call.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Optional

from cudaperf.client import CudaperfError
from cudaperf.extract import extract_code, fenced_blocks, response_text
from cudaperf.scoring import (
    TASK_ERROR_VERDICT,
    Score,
    aggregate,
    get_async_client,
    get_client,
    missing_reward,
    score_candidates,
)

__all__ = ["compute_score", "compute_score_async", "CudaperfTool", "TURNS_KEY", "TOOL_NAME"]  # noqa: F822 (__getattr__)

TURNS_KEY = "cudaperf_turns"  # agent_data.extra_fields[TURNS_KEY]: the logged score of each evaluated tool call
TOOL_NAME = "evaluate_kernel"
NO_TOOL_VERDICT = "no_tool_call"


def _task_of(ground_truth: Any, extra_info: Any) -> str:
    if isinstance(ground_truth, str) and ground_truth:
        return ground_truth
    if isinstance(extra_info, dict):
        for key in ("task_id", "task"):
            if isinstance(extra_info.get(key), str) and extra_info[key]:
                return extra_info[key]
    raise ValueError("cudaperf: no task id: set reward_model.ground_truth to it (as `cudaperf export --format verl` "
                     "does) or extra_info.task_id")


def _turns_of(extra_info: Any) -> list[dict]:
    turns = extra_info.get(TURNS_KEY) if isinstance(extra_info, dict) else None
    return [t for t in (list(turns) if turns is not None else []) if isinstance(t, dict)]  # may be a numpy array


def _trajectory(rows: Sequence[tuple[str, Any, Any]], trajectory: Optional[str], discount: Optional[float],
                multi_turn: bool, lowest: Optional[float]) -> list[Optional[Score]]:
    """Rows whose tool calls were scored turn by turn get their trajectory reward; the others None."""
    how = (trajectory or os.environ.get("CUDAPERF_TRAJECTORY") or "best").lower()
    out: list[Optional[Score]] = []
    for _, _, extra_info in rows:
        turns = _turns_of(extra_info)
        if how == "none" or (not turns and not multi_turn):
            out.append(None)
        elif not turns:
            low = missing_reward(lowest)
            out.append(Score(reward=low, verdict=NO_TOOL_VERDICT, gate=low, message="the tool was never called"))
        elif any(t.get("verdict") == TASK_ERROR_VERDICT for t in turns):
            out.append(Score(reward=None, verdict=TASK_ERROR_VERDICT,
                             message=f"{len(turns)} turn(s), one a task_error"))
        else:
            rewards = [float(t.get("score", 0.0)) for t in turns]
            best = max(range(len(turns)), key=lambda k: rewards[k])
            out.append(Score(reward=aggregate(rewards, how, discount), verdict=str(turns[best].get("verdict", "")),
                             speedup=float(turns[best].get("speedup", 0.0)),
                             structure=float(turns[best].get("structure", 0.0)),
                             final=all(bool(t.get("final", False)) for t in turns),
                             message=f"{len(turns)} turn(s)"))
    return out


def _score_rows(rows: Sequence[tuple[str, Any, Any]], url: Optional[str] = None, options: Optional[dict] = None,
                missing_reward: Optional[float] = None, trajectory: Optional[str] = None,
                discount: Optional[float] = None, multi_turn: bool = False) -> list[dict[str, Any]]:
    """(solution_str, ground_truth, extra_info) rows -> verl score dicts, one service call in all."""
    scores = _trajectory(rows, trajectory, discount, multi_turn, missing_reward)
    todo = [k for k, s in enumerate(scores) if s is None]
    items = [(_task_of(rows[k][1], rows[k][2]), extract_code(response_text(rows[k][0]))) for k in todo]
    if items:
        for k, s in zip(todo, score_candidates(get_client(url), items, options=options, lowest=missing_reward)):
            scores[k] = s
    for k, got in enumerate(scores):
        if got is not None and got.task_error:  # verl has no "no reward" for a sample: an error, not a number
            task = _task_of(rows[k][1], rows[k][2])
            raise CudaperfError(f"cudaperf: task {task} failed (task_error: a defect of the task or the engine, not "
                                f"of the candidate), and a verl score cannot say 'no reward': fix the task or remove "
                                f"it from the training data. {got.message[:500]}", body=got.result)
    return [s.logged() for s in scores]  # type: ignore[union-attr]


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: Optional[dict] = None, *,
                  url: Optional[str] = None, options: Optional[dict] = None, missing_reward: Optional[float] = None,
                  trajectory: Optional[str] = None, discount: Optional[float] = None, multi_turn: bool = False,
                  **kwargs: Any) -> dict[str, Any]:
    """verl custom reward function: {"score": reward total, "verdict", "speedup", "gate", "speed",
    "structure", "rank", "final"}. A response without a code block scores CUDAPERF_MISSING_REWARD."""
    return _score_rows([(solution_str, ground_truth, extra_info)], url, options, missing_reward, trajectory, discount,
                       bool(multi_turn))[0]


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any,
                              extra_info: Optional[dict] = None, *,
                              url: Optional[str] = None, options: Optional[dict] = None,
                              missing_reward: Optional[float] = None, trajectory: Optional[str] = None,
                              discount: Optional[float] = None, multi_turn: bool = False,
                              **kwargs: Any) -> dict[str, Any]:
    """`compute_score` as a coroutine (verl's reward loop awaits it; many run at once)."""
    rows = [(solution_str, ground_truth, extra_info)]
    out = await get_async_client(url).run(_score_rows, rows, url, options, missing_reward, trajectory, discount,
                                          bool(multi_turn))
    return out[0]


TOOL_SCHEMA = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": "Compile, check and time a CUDA kernel for the current task; returns the verdict, the speedup "
                       "over the naive kernel, the reward and feedback for the next attempt.",
        "parameters": {
            "type": "object",
            "properties": {"source": {"type": "string", "description": "the complete .cu file, with the exact "
                                                                          "signature of the task (extern \"C\")"}},
            "required": ["source"],
        },
    },
}


def _make_tool_class() -> type:
    """CudaperfTool, a subclass of verl.tools.base_tool.BaseTool (built on first use, inside verl)."""
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

    class CudaperfTool(BaseTool):
        """verl 0.9 tool `evaluate_kernel(source)`: one cudaperf evaluation per call.

        Tool config (the `config:` mapping of the tool YAML; `type: native`): url, options,
        missing_reward, max_turns (evaluated calls per trajectory; later calls are answered without
        evaluating and without reward; 0: no limit). The task id comes from the row's
        extra_info.tools_kwargs.evaluate_kernel.create_kwargs.task_id.
        """

        def __init__(self, config: dict, tool_schema: Optional[Any] = None):
            if tool_schema is None:
                tool_schema = OpenAIFunctionToolSchema.model_validate(TOOL_SCHEMA)
            super().__init__(config or {}, tool_schema)
            self._tasks: dict[str, str] = {}

        async def create(self, instance_id: Optional[str] = None, **kwargs: Any) -> tuple[str, Any]:
            instance_id, response = await super().create(instance_id)
            create_kwargs = kwargs.get("create_kwargs") or {}
            task = create_kwargs.get("task_id") or create_kwargs.get("ground_truth")
            if not isinstance(task, str) or not task:
                raise ValueError("cudaperf: the tool needs "
                                 "extra_info.tools_kwargs.evaluate_kernel.create_kwargs.task_id")
            self._tasks[instance_id] = task
            return instance_id, response

        async def execute(self, instance_id: str, parameters: dict[str, Any],
                          **kwargs: Any) -> tuple[Any, Optional[float], dict]:
            agent_data = kwargs.get("agent_data")
            extra = getattr(agent_data, "extra_fields", None)
            turns = extra.setdefault(TURNS_KEY, []) if isinstance(extra, dict) else []
            limit = int(self.config.get("max_turns", 0) or 0)
            if limit and len(turns) >= limit:
                return ToolResponse(text=f"No more evaluations: {limit} were used. Stop here."), None, {}
            if any(t.get("verdict") == TASK_ERROR_VERDICT for t in turns):
                return ToolResponse(text="No more evaluations: the task itself failed. Stop here."), None, {}
            text = parameters.get("source") if isinstance(parameters, dict) else None
            source = ((extract_code(text) if fenced_blocks(text) else text) if isinstance(text, str) and text.strip()
                      else None)
            client = get_async_client(self.config.get("url"))
            score = (await client.run(score_candidates, client.client, [(self._tasks[instance_id], source)],
                                      options=self.config.get("options"),
                                      lowest=self.config.get("missing_reward")))[0]
            logged = score.logged()
            turns.append(logged)
            if score.task_error:  # no tool reward (verl allows None), and nothing left to fix: the episode ends
                text = f"{score.feedback_text()}\nReward: none (the task itself failed, not your code). Stop here."
                return ToolResponse(text=text), None, logged
            return ToolResponse(text=f"{score.feedback_text()}\nReward: {score.reward:.3f}."), score.reward, logged

        async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
            return 0.0

        async def release(self, instance_id: str, **kwargs: Any) -> None:
            self._tasks.pop(instance_id, None)

    CudaperfTool.__module__ = __name__
    return CudaperfTool


def __getattr__(name: str) -> Any:
    if name == "CudaperfTool":
        cls = _make_tool_class()
        globals()["CudaperfTool"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
