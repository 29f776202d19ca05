import json
import os
import tempfile
import unittest

import cudaperf.trl as ct
from cudaperf.scoring import NO_CODE_FEEDBACK
from tests.fake_service import TASK, TASKS, FakeService, ServiceTestCase, answer, source


def conv(text):
    return [{"role": "assistant", "content": text}]


class RewardFuncTest(ServiceTestCase):
    def test_standard_completions_in_one_call(self):
        srcs = [source("SPEEDUP=2"), source("WRONG"), source("SPEEDUP=0.5")]
        rewards = ct.reward_func(prompts=["p"] * 4, completions=[answer(s) for s in srcs] + ["no code at all"],
                                 completion_ids=[[1]] * 4, task_id=[TASK, TASKS[1], TASK, TASK], trainer_state=None)
        self.assertEqual(len(rewards), 4)
        self.assertAlmostEqual(rewards[0], self.expected(srcs[0]))
        self.assertEqual(rewards[1], -5.0)
        self.assertAlmostEqual(rewards[2], self.expected(srcs[2]))
        self.assertEqual(rewards[3], -10.0)
        self.assertTrue(all(isinstance(r, float) for r in rewards))
        posts = self.service.calls("POST")
        self.assertEqual(len(posts), 1)
        self.assertEqual([r["task"] for r in posts[0][2]["requests"]], [TASK, TASKS[1], TASK])

    def test_conversational_completions(self):
        prompts = [[{"role": "user", "content": "write it"}]] * 2
        rewards = ct.reward_func(prompts, [conv(answer(source("SPEEDUP=3"))), conv("nothing")], task_id=[TASK, TASK])
        self.assertAlmostEqual(rewards[0], self.expected(source("SPEEDUP=3")))
        self.assertEqual(rewards[1], -10.0)

    def test_empty_batch_and_errors(self):
        self.assertEqual(ct.reward_func([], [], task_id=[]), [])
        self.assertEqual(self.service.calls(), [])
        with self.assertRaises(ValueError):
            ct.reward_func(["p"], [answer(source())], task_id=[TASK, TASK])
        self.assertEqual(ct.reward_func(["p"], ["no code"], task_id=TASK), [-10.0])

    def test_make_reward_func(self):
        other = FakeService()
        self.addCleanup(other.stop)
        f = ct.make_reward_func(other.url, options={"time_budget_s": 0.25}, missing_reward=-4, name="kernel_speed")
        self.assertEqual(f.__name__, "kernel_speed")
        self.assertEqual(f(["p", "p"], [answer(source("SPEEDUP=2")), "none"], task_id=[TASK, TASK])[1], -4.0)
        self.assertEqual(self.service.calls(), [])
        self.assertEqual(other.calls("POST")[0][2]["requests"][0]["options"], {"time_budget_s": 0.25})


class EnvTest(ServiceTestCase):
    def test_episode(self):
        env = ct.CudaperfEnv(max_turns=3)
        prompt = env.reset(TASK, prompt=[{"role": "system", "content": "s"}, {"role": "user", "content": "write it"}],
                           category="reduction")
        self.assertEqual(prompt, "write it")
        self.assertEqual(env.step(answer(source("COMPILE_ERROR"))), ("FEEDBACK compile_error", -7.0, False))
        self.assertEqual(env.step(conv("no code")), (NO_CODE_FEEDBACK, -10.0, False))
        feedback, reward, done = env.step(answer(source("SPEEDUP=2")))
        self.assertEqual((feedback, done), ("FEEDBACK ok speedup 2", True))
        self.assertAlmostEqual(reward, self.expected(source("SPEEDUP=2")))
        self.assertAlmostEqual(env.get_reward(), reward)  # best turn
        self.assertEqual([s.verdict for s in env.scores], ["compile_error", "no_code", "ok"])
        with self.assertRaises(RuntimeError):
            env.step(answer(source()))
        env.reset(TASKS[1], prompt="again")
        self.assertEqual(env.get_reward(), 0.0)

    def test_stop_speedup_and_discount(self):
        env = ct.CudaperfEnv(max_turns=0, stop_speedup=2, aggregation="discounted", discount=0.5)
        env.reset(TASK, prompt="p")
        self.assertFalse(env.step(answer(source("WRONG")))[2])
        self.assertTrue(env.step(answer(source("SPEEDUP=4")))[2])
        self.assertAlmostEqual(env.get_reward(), -5.0 + 0.5 * self.expected(source("SPEEDUP=4")))

    def test_prompts_from_an_export_file(self):
        rows = [{"prompt": [{"role": "user", "content": "trl prompt"}], "task_id": TASK, "category": "reduction"},
                {"task_id": TASKS[1], "prompt": "jsonl prompt", "ground_truth": TASKS[1]},
                {"data_source": "cudaperf/c2cuda", "prompt": [{"role": "user", "content": "verl prompt"}],
                 "extra_info": {"task_id": "scan/other"}}]
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write("\n".join(json.dumps(r) for r in rows) + "\n\n")
        self.addCleanup(os.unlink, f.name)
        prompts = ct.CudaperfEnv.load_prompts(f.name)
        self.assertEqual(prompts, {TASK: "trl prompt", TASKS[1]: "jsonl prompt", "scan/other": "verl prompt"})
        env = ct.CudaperfEnv(prompts=prompts)
        self.assertEqual(env.reset(TASKS[1]), "jsonl prompt")
        with self.assertRaises(ValueError):
            env.reset("unknown/task")

    def test_step_needs_reset(self):
        with self.assertRaises(RuntimeError):
            ct.CudaperfEnv().step("x")


if __name__ == "__main__":
    unittest.main()
