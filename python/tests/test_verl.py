import asyncio
import importlib.util
import os
import sys
from unittest import mock

import cudaperf.verl as cv
from cudaperf.client import CudaperfBadRequest, CudaperfError
from cudaperf.scoring import LOGGED_FIELDS
from tests.fake_service import TASK, TASKS, ServiceTestCase, answer, fake_result, source

KEYS = {"score", *LOGGED_FIELDS}


def load_like_verl():
    """verl's get_custom_reward_fn: import the file by path as `custom_module`."""
    spec = importlib.util.spec_from_file_location("custom_module", cv.__file__)
    module = importlib.util.module_from_spec(spec)
    sys.modules["custom_module"] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["custom_module"]
    return module


class ComputeScoreTest(ServiceTestCase):
    def test_score_and_logged_fields(self):
        src = source("SPEEDUP=2")
        out = cv.compute_score("cudaperf/c2cuda", answer(src), TASK, {"index": 0})
        r = fake_result(TASK, src)
        self.assertEqual(set(out), KEYS)
        self.assertAlmostEqual(out["score"], r["reward"]["total"])
        self.assertEqual((out["verdict"], out["speedup"], out["final"]), ("ok", 2.0, True))
        for k in ("gate", "speed", "structure", "rank"):
            self.assertAlmostEqual(out[k], r["reward"][k])

    def test_not_final_result_warns(self):
        src = source("SPEEDUP=2")
        result = dict(fake_result(TASK, src), final=False)
        with mock.patch("tests.fake_service.fake_result", return_value=result):  # what the service answers
            with self.assertWarns(RuntimeWarning):
                out = cv.compute_score("d", answer(src), TASK)
        self.assertFalse(out["final"])

    def test_failing_verdict_has_no_speedup(self):
        out = cv.compute_score("cudaperf/c2cuda", answer(source("COMPILE_ERROR")), TASK)
        self.assertEqual((out["score"], out["verdict"], out["speedup"]), (-7.0, "compile_error", 0.0))

    def test_missing_code_block_is_lowest_without_a_call(self):
        out = cv.compute_score("cudaperf/c2cuda", "I would write a kernel but I won't.", TASK)
        self.assertEqual(set(out), KEYS)
        self.assertEqual((out["score"], out["verdict"]), (-10.0, "no_code"))
        os.environ["CUDAPERF_MISSING_REWARD"] = "-3.5"
        self.assertEqual(cv.compute_score("d", "no code", TASK)["score"], -3.5)
        self.assertEqual(cv.compute_score("d", "no code", TASK, missing_reward=-8)["score"], -8.0)
        self.assertEqual(self.service.calls(), [])

    def test_task_id_from_extra_info(self):
        out = cv.compute_score("d", answer(source("SPEEDUP=3")), None, {"task_id": TASKS[1]})
        self.assertAlmostEqual(out["score"], self.expected(source("SPEEDUP=3"), TASKS[1]))
        self.assertEqual(self.service.calls("POST")[0][2]["requests"][0]["task"], TASKS[1])
        with self.assertRaises(ValueError):
            cv.compute_score("d", answer(source()), "", {"index": 3})

    def test_reward_kwargs(self):
        cv.compute_score("d", answer(source()), TASK, None, url=self.service.url, options={"time_budget_s": 0.5},
                         reward_router_address=None)
        self.assertEqual(self.service.calls("POST")[0][2]["requests"][0]["options"], {"time_budget_s": 0.5})

    def test_service_errors_are_raised(self):
        with self.assertRaises(CudaperfBadRequest):
            cv.compute_score("d", answer(source()), "nope/none")
        with self.assertRaises(CudaperfError):
            cv.compute_score("d", answer(source("NOREWARD")), TASK)

    def test_task_error_is_raised_not_scored(self):
        # verl needs a number for every sample: a task_error (the task failed) is an error naming the task
        with self.assertRaises(CudaperfError) as e:
            cv.compute_score("d", answer(source("TASK_ERROR")), TASK)
        self.assertIn(TASK, str(e.exception))
        self.assertIn("task_error", str(e.exception))
        info = {cv.TURNS_KEY: [{"score": -7.0, "verdict": "compile_error", "final": True},
                               {"score": None, "verdict": "task_error", "final": True}]}
        with self.assertRaises(CudaperfError):
            cv.compute_score("d", "t", TASK, info)
        self.assertEqual(len(self.service.calls("POST")), 1)

    def test_tool_turns_are_aggregated(self):
        def turn(score, verdict="wrong_answer", final=True, speedup=0.0):
            return {"score": score, "verdict": verdict, "final": final, "speedup": speedup, "structure": 0.0}

        info = {cv.TURNS_KEY: [turn(-7.0, "compile_error"), turn(0.5, "ok", speedup=1.5), turn(-5.0)]}
        out = cv.compute_score("d", "whole transcript", TASK, info)
        self.assertEqual((out["score"], out["verdict"], out["speedup"], out["final"]), (0.5, "ok", 1.5, True))
        self.assertEqual(cv.compute_score("d", "t", TASK, info, trajectory="last")["score"], -5.0)
        self.assertAlmostEqual(cv.compute_score("d", "t", TASK, info, trajectory="discounted", discount=0.5)["score"],
                               -7.0 + 0.25 - 1.25)
        os.environ["CUDAPERF_TRAJECTORY"] = "last"
        self.assertEqual(set(cv.compute_score("d", "t", TASK, info)), KEYS)
        self.assertEqual(cv.compute_score("d", "t", TASK, info)["score"], -5.0)
        self.assertEqual(self.service.calls(), [])
        out = cv.compute_score("d", answer(source("SPEEDUP=2")), TASK, info, trajectory="none")
        self.assertAlmostEqual(out["score"], self.expected(source("SPEEDUP=2")))
        out = cv.compute_score("d", answer(source("SPEEDUP=2")), TASK, {cv.TURNS_KEY: []})
        self.assertEqual(out["verdict"], "ok")

    def test_aggregate_is_final_only_when_every_turn_is(self):
        info = {cv.TURNS_KEY: [{"score": 0.5, "verdict": "ok", "final": True},
                               {"score": -4.5, "verdict": "ok", "final": False}]}
        self.assertFalse(cv.compute_score("d", "t", TASK, info)["final"])

    def test_multi_turn_without_a_tool_call_is_lowest(self):
        out = cv.compute_score("d", answer(source("SPEEDUP=2")), TASK, {"tool_rewards": []}, multi_turn=True)
        self.assertEqual((out["score"], out["verdict"]), (-10.0, "no_tool_call"))
        self.assertEqual(self.service.calls(), [])

    def test_async(self):
        async def main():
            return await asyncio.gather(*(cv.compute_score_async("d", answer(source(f"SPEEDUP={k + 1}")), TASK, None)
                                          for k in range(4)), cv.compute_score_async("d", "no code", TASK))

        outs = asyncio.run(main())
        self.assertEqual([o["speedup"] for o in outs], [1.0, 2.0, 3.0, 4.0, 0.0])
        self.assertEqual(outs[-1]["score"], -10.0)
        self.assertEqual(len(self.service.calls("POST")), 4)

    def test_oversized_source_is_lowest(self):
        out = cv.compute_score("d", answer("x" * 5000 + "\n"), TASK)
        self.assertEqual((out["verdict"], out["score"]), ("rejected", -10.0))

    def test_loaded_by_path_like_verl(self):
        module = load_like_verl()
        out = module.compute_score(data_source="d", solution_str=answer(source("SPEEDUP=2")), ground_truth=TASK,
                                   extra_info={})
        self.assertAlmostEqual(out["score"], self.expected(source("SPEEDUP=2")))


if __name__ == "__main__":
    import unittest

    unittest.main()
