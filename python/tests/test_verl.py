import asyncio
import importlib.util
import math
import os
import sys
from unittest import mock

import cudaperf.verl as cv
from cudaperf.client import CudaperfBadRequest, CudaperfError
from cudaperf.scoring import LOGGED_FIELDS, NO_CODE_FEEDBACK
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

    def test_turn_scores_are_aggregated(self):
        info = {"turn_scores": [-7.0, 0.5, -5.0]}
        self.assertEqual(cv.compute_score("d", "whole transcript", TASK, info)["score"], 0.5)
        self.assertEqual(cv.compute_score("d", "t", TASK, info, trajectory="last")["score"], -5.0)
        self.assertAlmostEqual(cv.compute_score("d", "t", TASK, info, trajectory="discounted", discount=0.5)["score"],
                               -7.0 + 0.25 - 1.25)
        os.environ["CUDAPERF_TRAJECTORY"] = "last"
        self.assertEqual(set(cv.compute_score("d", "t", TASK, info)), KEYS)
        self.assertEqual(cv.compute_score("d", "t", TASK, info)["score"], -5.0)
        self.assertEqual(self.service.calls(), [])
        out = cv.compute_score("d", answer(source("SPEEDUP=2")), TASK, info, trajectory="none")
        self.assertAlmostEqual(out["score"], self.expected(source("SPEEDUP=2")))
        out = cv.compute_score("d", answer(source("SPEEDUP=2")), TASK, {"turn_scores": []})
        self.assertEqual(out["verdict"], "ok")

    def test_async(self):
        async def main():
            return await asyncio.gather(*(cv.compute_score_async("d", answer(source(f"SPEEDUP={k + 1}")), TASK, None)
                                          for k in range(4)), cv.compute_score_async("d", "no code", TASK))

        outs = asyncio.run(main())
        self.assertEqual([o["speedup"] for o in outs], [1.0, 2.0, 3.0, 4.0, 0.0])
        self.assertEqual(outs[-1]["score"], -10.0)
        self.assertEqual(len(self.service.calls("POST")), 4)

    def test_batch_is_one_call(self):
        sols = [answer(source("SPEEDUP=2")), "no code", answer(source("WRONG")), answer(source("SPEEDUP=0.5"), tag="cu")]
        outs = cv.compute_score_batch(["d"] * 4, sols, [TASK] * 4, [None] * 4)
        self.assertEqual([o["verdict"] for o in outs], ["ok", "no_code", "wrong_answer", "ok"])
        self.assertAlmostEqual(outs[3]["score"], self.expected(source("SPEEDUP=0.5")))
        self.assertEqual(len(self.service.calls("POST")), 1)
        self.assertEqual(cv.compute_score_batch([], [], [], []), [])
        self.assertEqual(len(self.service.calls()), 1)

    def test_oversized_source_is_lowest_and_spares_the_batch(self):
        sols = [answer(source("SPEEDUP=2")), answer("x" * 5000 + "\n"), answer(source("HACK")), answer(source())]
        outs = cv.compute_score_batch(["d"] * 4, sols, [TASK] * 4)
        self.assertEqual([o["verdict"] for o in outs], ["ok", "rejected", "hack_suspected", "ok"])
        self.assertEqual(outs[1]["score"], -10.0)

    def test_loaded_by_path_like_verl(self):
        module = load_like_verl()
        out = module.compute_score(data_source="d", solution_str=answer(source("SPEEDUP=2")), ground_truth=TASK,
                                   extra_info={})
        self.assertAlmostEqual(out["score"], self.expected(source("SPEEDUP=2")))


class InteractionTest(ServiceTestCase):
    def run_turns(self, config, replies, **interaction_kwargs):
        async def main():
            inter = cv.CudaperfInteraction(config=dict(config, name="cudaperf"))
            iid = await inter.start_interaction("req-1", name="cudaperf", **interaction_kwargs)
            messages = [{"role": "user", "content": "prompt"}]
            turns = []
            for reply in replies:
                messages.append({"role": "assistant", "content": reply})
                turn = await inter.generate_response(iid, messages, name="cudaperf", **interaction_kwargs)
                turns.append(turn)
                messages.append({"role": "user", "content": turn[1]})
                if turn[0]:
                    break
            score = await inter.calculate_score(iid)
            await inter.finalize_interaction(iid)
            return inter, turns, score

        return asyncio.run(main())

    def test_refinement_turns(self):
        replies = [answer(source("COMPILE_ERROR")), "thinking, no code", answer(source("SPEEDUP=2")),
                   answer(source("SPEEDUP=9"))]
        inter, turns, score = self.run_turns({"max_turns": 3}, replies, task_id=TASK)
        self.assertEqual([t[0] for t in turns], [False, False, True])
        self.assertEqual(turns[0][1:3], ("FEEDBACK compile_error", -7.0))
        self.assertEqual(turns[1][1:3], (NO_CODE_FEEDBACK, -10.0))
        self.assertAlmostEqual(turns[2][2], self.expected(source("SPEEDUP=2")))
        self.assertEqual(turns[2][3]["verdict"], "ok")
        self.assertEqual(turns[2][3]["turn"], 3)
        self.assertAlmostEqual(score, self.expected(source("SPEEDUP=2")))  # best turn
        self.assertEqual(inter._instances, {})
        self.assertEqual(len(self.service.calls("POST")), 2)

    def test_stop_speedup_and_ground_truth(self):
        replies = [answer(source("SPEEDUP=1.2")), answer(source("SPEEDUP=3")), answer(source("SPEEDUP=4"))]
        _, turns, score = self.run_turns({"stop_speedup": 2.0, "aggregation": "last"}, replies, ground_truth=TASKS[1])
        self.assertEqual([t[0] for t in turns], [False, True])
        self.assertAlmostEqual(score, self.expected(source("SPEEDUP=3"), TASKS[1]))

    def test_needs_a_task(self):
        with self.assertRaises(ValueError):
            self.run_turns({}, [answer(source())])

    def test_instances_are_bounded(self):
        async def main():
            inter = cv.CudaperfInteraction({"max_turns": 1})
            for iid in ("a", "b", "c"):
                await inter.start_interaction(iid, task_id=TASK)
            kept = sorted(inter._instances)
            turn = await inter.generate_response("a", [{"role": "assistant", "content": answer(source())}], task_id=TASK)
            again = await inter.generate_response("a", [{"role": "assistant", "content": "no code"}], task_id=TASK)
            return kept, turn, again

        with mock.patch.object(cv, "MAX_INSTANCES", 2):
            kept, turn, again = asyncio.run(main())
        self.assertEqual(kept, ["b", "c"])
        self.assertTrue(turn[0])  # the evicted rollout went on as a new episode
        self.assertEqual(again[:3], (True, NO_CODE_FEEDBACK, -10.0))

    def test_score_before_any_turn(self):
        async def main():
            inter = cv.CudaperfInteraction({})
            iid = await inter.start_interaction(task_id=TASK)
            return iid, await inter.calculate_score(iid), await inter.calculate_score()

        iid, s1, s2 = asyncio.run(main())
        self.assertTrue(iid)
        self.assertEqual((s1, s2), (0.0, 0.0))
        self.assertTrue(math.isfinite(s1))


if __name__ == "__main__":
    import unittest

    unittest.main()
