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

    def test_task_error_is_no_reward(self):
        # TRL's "no reward" is None (unscorable: advantage 0), never the lowest reward
        rewards = ct.reward_func(["p"] * 2, [answer(source("TASK_ERROR")), answer(source("COMPILE_ERROR"))],
                                 task_id=[TASK, TASK])
        self.assertEqual(rewards, [None, -7.0])

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
        hint = env.reset(task_id=TASK, prompt=[{"role": "system", "content": "s"}, {"role": "user", "content": "write it"}],
                         category="reduction")
        self.assertEqual(hint, ct.TOOL_HINT)  # appended by TRL to the prompt: never the prompt itself
        self.assertNotIn("write it", hint)
        self.assertEqual(env.evaluate_kernel(source("COMPILE_ERROR")), "FEEDBACK compile_error\nReward: -7.000.")
        self.assertIn(NO_CODE_FEEDBACK, env.evaluate_kernel("   "))
        out = env.evaluate_kernel(answer(source("SPEEDUP=2")))  # a fenced answer: its code block
        self.assertTrue(out.startswith("FEEDBACK ok speedup 2") and out.endswith("The episode is over."), out)
        self.assertTrue(env.done)
        self.assertAlmostEqual(env.get_reward(), self.expected(source("SPEEDUP=2")))  # best turn
        self.assertEqual([s.verdict for s in env.scores], ["compile_error", "no_code", "ok"])
        calls = len(self.service.calls("POST"))
        self.assertIn("episode is over", env.evaluate_kernel(source()))
        self.assertEqual(len(self.service.calls("POST")), calls)  # not evaluated after the end
        env.reset(task_id=TASKS[1], prompt="again")
        self.assertEqual(env.scores, [])

    def test_task_error_ends_the_episode_without_a_reward(self):
        env = ct.CudaperfEnv(max_turns=3)
        env.reset(task_id=TASK)
        self.assertIn("-7.000", env.evaluate_kernel(source("COMPILE_ERROR")))
        text = env.evaluate_kernel(source("TASK_ERROR"))
        self.assertIn("the task itself failed", text)
        self.assertIn("Reward: none", text)
        self.assertTrue(env.done)
        self.assertIsNone(env.get_reward())
        self.assertIn("episode is over", env.evaluate_kernel(source("SPEEDUP=2")))
        self.assertEqual(len(self.service.calls("POST")), 2)

    def test_no_tool_call_is_the_lowest_reward(self):
        env = ct.CudaperfEnv(missing_reward=-12)
        env.reset(task_id=TASK, prompt="p")
        self.assertEqual(env.get_reward(), -12.0)
        env.reset(task_id=TASK, prompt="p")
        env.evaluate_kernel(source("WRONG"))
        self.assertGreater(env.get_reward(), -12.0)
        self.assertEqual(ct.CudaperfEnv().get_reward(), -10.0)

    def test_stop_speedup_and_discount(self):
        env = ct.CudaperfEnv(max_turns=0, stop_speedup=2, aggregation="discounted", discount=0.5)
        env.reset(task_id=TASK, prompt="p")
        env.evaluate_kernel(source("WRONG"))
        self.assertFalse(env.done)
        env.evaluate_kernel(source("SPEEDUP=4"))
        self.assertTrue(env.done)
        self.assertAlmostEqual(env.get_reward(), -5.0 + 0.5 * self.expected(source("SPEEDUP=4")))

    def test_turn_log(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "turns.jsonl")
            env = ct.CudaperfEnv(turn_log=path)
            env.reset(task_id=TASK)
            env.evaluate_kernel(source("WRONG"))
            env.evaluate_kernel(source("SPEEDUP=2"))
            with open(path) as f:
                rows = [json.loads(line) for line in f]
        self.assertEqual([(r["task"], r["turn"], r["verdict"]) for r in rows], [(TASK, 1, "wrong_answer"), (TASK, 2, "ok")])

    def test_prompts_from_an_export_file(self):
        rows = [{"prompt": [{"role": "user", "content": "trl prompt"}], "task_id": TASK, "category": "reduction"},
                {"task_id": TASKS[1], "prompt": "jsonl prompt", "ground_truth": TASKS[1]},
                {"data_source": "cudaperf/c2cuda", "prompt": [{"role": "user", "content": "verl prompt"}],
                 "extra_info": {"task_id": "scan/other"}}]
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write("\n".join(json.dumps(r) for r in rows) + "\n\n")
        self.addCleanup(os.unlink, f.name)
        prompts = ct.load_prompts(f.name)
        self.assertEqual(prompts, {TASK: "trl prompt", TASKS[1]: "jsonl prompt", "scan/other": "verl prompt"})
        env = ct.CudaperfEnv(prompts=prompts)
        env.reset(task_id=TASKS[1])
        self.assertEqual(env.prompt, "jsonl prompt")
        with self.assertRaises(ValueError):
            env.reset(prompt="no task id")

    def test_tool_needs_reset(self):
        with self.assertRaises(RuntimeError):
            ct.CudaperfEnv().evaluate_kernel("x")

    def test_public_methods_are_documented_tools(self):
        # TRL turns every public method but reset/get_reward into a tool, with a schema from its docstring
        import inspect
        tools = [n for n, _ in inspect.getmembers(ct.CudaperfEnv, predicate=inspect.isfunction)
                 if not n.startswith("_") and n not in ("reset", "get_reward")]
        self.assertEqual(tools, ["evaluate_kernel"])
        self.assertIn("source:", inspect.getdoc(ct.CudaperfEnv.evaluate_kernel))


if __name__ == "__main__":
    unittest.main()
