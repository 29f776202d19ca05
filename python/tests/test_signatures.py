"""Pins the adapters to the hooks documented in ../shared/reference/rl-engines-and-structure.md:

verl     compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> float | dict with "score"
         (verl 0.9's reward loop managers call it by keyword; the real engines run it in tests/check_rl_engines.py)
TRL      reward_func(prompts, completions, completion_ids, ..., **dataset_columns) -> list[float | None];
         environment_factory: reset(**row) -> str | None, documented tool methods, get_reward() -> float
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
        # TRL calls reset(**row), the tools by keyword, get_reward() with no argument
        self.assertTrue(takes_var_kwargs(ct.CudaperfEnv.reset))
        inspect.signature(ct.CudaperfEnv.reset).bind(object(), prompt=[], task_id="t", category="c")
        self.assertEqual(positional(ct.CudaperfEnv.evaluate_kernel), ["self", "source"])
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
