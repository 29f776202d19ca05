"""Pins the adapters to the hooks documented in ../shared/reference/rl-engines-and-structure.md:

verl     compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> float | dict with "score"
         batch manager: compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=, **reward_kwargs) -> list
         BaseInteraction: async start_interaction(instance_id=None, **kwargs) -> str;
         async generate_response(instance_id, messages, **kwargs) -> (bool, str, float, dict);
         async calculate_score(...) -> float; async finalize_interaction(...) -> None; built as cls(config=...)
TRL      reward_func(prompts, completions, completion_ids, ..., **dataset_columns) -> list[float | None]
OpenRLHF reward_func(queries, prompts, labels, **kwargs) -> {"rewards", "scores", "extra_logs"}
"""
import inspect
import subprocess
import sys
import unittest
from pathlib import Path

import cudaperf.openrlhf as co
import cudaperf.trl as ct
import cudaperf.verl as cv

P = inspect.Parameter


def params(fn):
    return list(inspect.signature(fn).parameters.values())


def positional(fn):
    return [p.name for p in params(fn) if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]


def takes_var_kwargs(fn):
    return any(p.kind is P.VAR_KEYWORD for p in params(fn))


class SignatureTest(unittest.TestCase):
    def test_verl_compute_score(self):
        for fn in (cv.compute_score, cv.compute_score_async):
            with self.subTest(fn=fn.__name__):
                self.assertEqual(positional(fn), ["data_source", "solution_str", "ground_truth", "extra_info"])
                self.assertIsNone(inspect.signature(fn).parameters["extra_info"].default)
                self.assertTrue(takes_var_kwargs(fn))
                self.assertEqual(params(fn)[-1].kind, P.VAR_KEYWORD)
        self.assertFalse(inspect.iscoroutinefunction(cv.compute_score))
        self.assertTrue(inspect.iscoroutinefunction(cv.compute_score_async))

    def test_verl_batch(self):
        self.assertEqual(positional(cv.compute_score_batch), ["data_sources", "solution_strs", "ground_truths", "extra_infos"])
        self.assertTrue(takes_var_kwargs(cv.compute_score_batch))

    def test_verl_interaction(self):
        cls = cv.CudaperfInteraction
        self.assertEqual(positional(cls.__init__), ["self", "config"])
        for name in ("start_interaction", "generate_response", "calculate_score", "finalize_interaction"):
            with self.subTest(method=name):
                self.assertTrue(inspect.iscoroutinefunction(getattr(cls, name)))
                self.assertTrue(takes_var_kwargs(getattr(cls, name)))
        self.assertEqual(positional(cls.start_interaction), ["self", "instance_id"])
        self.assertIsNone(inspect.signature(cls.start_interaction).parameters["instance_id"].default)
        self.assertEqual(positional(cls.generate_response), ["self", "instance_id", "messages"])
        # callable both as the base class declares them and as verl's own interactions do
        for name in ("calculate_score", "finalize_interaction"):
            sig = inspect.signature(getattr(cls, name))
            sig.bind(object())
            sig.bind(object(), "instance-id")
        self.assertEqual(cls(config={"name": "x"}).name, "x")

    def test_trl_reward_func(self):
        for fn in (ct.reward_func, ct.make_reward_func()):
            with self.subTest(fn=fn.__name__):
                self.assertEqual(positional(fn)[:2], ["prompts", "completions"])
                self.assertTrue(takes_var_kwargs(fn))
                self.assertFalse(inspect.iscoroutinefunction(fn))
                # TRL's call: everything by keyword, dataset columns and trainer extras included
                inspect.signature(fn).bind(prompts=[], completions=[], completion_ids=[], task_id=[], trainer_state=None,
                                           log_extra=None, log_metric=None, environments=None, category=[])

    def test_trl_env(self):
        self.assertEqual(positional(ct.CudaperfEnv.reset)[:2], ["self", "task_id"])
        self.assertEqual(positional(ct.CudaperfEnv.step), ["self", "completion"])
        self.assertEqual(positional(ct.CudaperfEnv.get_reward), ["self"])

    def test_openrlhf_reward_func(self):
        self.assertEqual(positional(co.reward_func), ["queries", "prompts", "labels"])
        self.assertTrue(takes_var_kwargs(co.reward_func))
        self.assertFalse(inspect.iscoroutinefunction(co.reward_func))  # OpenRLHF runs it with asyncio.to_thread

    def test_no_engine_is_imported(self):
        code = ("import sys, cudaperf, cudaperf.verl, cudaperf.trl, cudaperf.openrlhf\n"
                "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('verl', 'trl', 'openrlhf', 'torch', "
                "'transformers', 'requests', 'aiohttp'))\n"
                "assert not bad, bad\n")
        root = Path(__file__).resolve().parents[1]
        subprocess.run([sys.executable, "-c", code], check=True, cwd=str(root),
                       env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})


if __name__ == "__main__":
    unittest.main()
