import importlib.util
import os
import unittest

import cudaperf.openrlhf as co
from tests.fake_service import TASK, TASKS, ServiceTestCase, answer, source

PROMPT = ("<|im_start|>user\nWrite the kernel.\n```c\nvoid f(float* y) { y[0] = 1; }\n```\n"
          "Answer with the complete .cu file in one ```cuda code block.<|im_end|>\n<|im_start|>assistant\n")


def load_like_openrlhf():
    """OpenRLHF's SingleTurnAgentExecutor: import the file by path as `reward_func`."""
    spec = importlib.util.spec_from_file_location("reward_func", co.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.reward_func


class OpenRLHFTest(ServiceTestCase):
    def test_batch(self):
        srcs = [source("SPEEDUP=2"), source("COMPILE_ERROR")]
        queries = [PROMPT + answer(s) for s in srcs] + [PROMPT + "I cannot."]
        out = co.reward_func(queries, [PROMPT] * 3, [TASK, TASKS[1], TASK])
        self.assertEqual(set(out), {"rewards", "scores", "extra_logs"})
        self.assertAlmostEqual(out["rewards"][0], self.expected(srcs[0]))
        self.assertEqual(out["rewards"][1:], [-7.0, -10.0])  # the prompt's ```c block is not the candidate
        self.assertEqual(out["scores"], [1.0, 0.0, 0.0])
        logs = out["extra_logs"]
        self.assertEqual(set(logs), {"correct", "speedup", "gate", "speed", "structure", "rank", "task_error", "error"})
        self.assertEqual(logs["error"], [0.0] * 3)
        self.assertEqual(logs["task_error"], [0.0] * 3)
        self.assertEqual(logs["speedup"], [2.0, 0.0, 0.0])
        self.assertTrue(all(len(v) == 3 for v in logs.values()))
        self.assertEqual(len(self.service.calls("POST", "/v1/evaluate")), 1)

    def test_empty_lists(self):
        self.assertEqual(co.reward_func([], [], []),
                         {"rewards": [], "scores": [], "extra_logs": {k: [] for k in
                                                                     ("correct", "speedup", "gate", "speed", "structure", "rank",
                                                                      "task_error", "error")}})
        self.assertEqual(co.reward_func([], [], [], mode="server"),
                         {"rewards": [], "scores": [], "extra_logs": {"task_error": [], "error": []}})
        self.assertEqual(self.service.calls(), [])

    def test_server_mode_forwards(self):
        os.environ["CUDAPERF_OPENRLHF_MODE"] = "server"
        out = co.reward_func([PROMPT + answer(source("SPEEDUP=3")), PROMPT + "no"], [PROMPT] * 2, [TASK, TASK])
        self.assertAlmostEqual(out["rewards"][0], self.expected(source("SPEEDUP=3")))
        self.assertEqual(out["rewards"][1], -10.0)
        self.assertEqual(len(self.service.calls("POST", "/v1/openrlhf")), 1)

    def test_task_error_is_flagged_with_the_error_reward(self):
        # OpenRLHF cannot say "no reward": the error reward, score 0, flagged, an ERROR line; in both modes
        queries = [PROMPT + answer(source("TASK_ERROR")), PROMPT + answer(source("COMPILE_ERROR"))]
        os.environ["CUDAPERF_ERROR_REWARD"] = "-11"
        for mode in ("client", "server"):
            with self.assertLogs("cudaperf", "ERROR") as logs:
                out = co.reward_func(queries, [PROMPT] * 2, [TASK, TASK], mode=mode)
            self.assertEqual(out["rewards"], [-11.0, -7.0], mode)
            self.assertEqual(out["scores"], [0.0, 0.0], mode)
            self.assertEqual(out["extra_logs"]["task_error"], [1.0, 0.0], mode)
            self.assertEqual(out["extra_logs"]["error"], [1.0, 0.0], mode)
            self.assertIn(TASK, logs.output[0])
        os.environ.pop("CUDAPERF_ERROR_REWARD")

    def assert_error_reward(self, out, n):
        self.assertEqual(out["rewards"], [-10.0] * n)
        self.assertEqual(out["scores"], [0.0] * n)
        self.assertEqual(out["extra_logs"]["error"], [1.0] * n)

    def test_errors_are_an_explicit_reward_and_an_error_line(self):
        # OpenRLHF swallows what reward_func raises (INFO): every failure is the lowest reward, logged at ERROR
        with self.assertLogs("cudaperf", "ERROR") as logs:
            self.assert_error_reward(co.reward_func(["q"], ["p"], [TASK], mode="other"), 1)
            self.assert_error_reward(co.reward_func(["q", "q"], ["p", "p"], [TASK]), 2)
            self.assert_error_reward(co.reward_func([answer(source())], [""], ["nope/none"]), 1)
        self.assertEqual(len(logs.records), 3)
        self.assertIn("unknown task", logs.output[2])
        os.environ["CUDAPERF_ERROR_REWARD"] = "-11"
        with self.assertLogs("cudaperf", "ERROR"):
            self.assertEqual(co.reward_func([answer(source("NOREWARD"))], [""], [TASK])["rewards"], [-11.0])

    def test_end_of_turn_tokens_after_the_fence(self):
        # OpenRLHF decodes with skip_special_tokens=False
        for tok in ("<|im_end|>", "<|endoftext|>", "<|eot_id|>"):
            q = PROMPT + answer(source("SPEEDUP=2")).rstrip("\n") + tok
            self.assertAlmostEqual(co.reward_func([q], [PROMPT], [TASK])["rewards"][0], self.expected(source("SPEEDUP=2")))

    def test_loaded_by_path_like_openrlhf(self):
        fn = load_like_openrlhf()
        out = fn([PROMPT + answer(source("SPEEDUP=2"))], [PROMPT], [TASK])
        self.assertAlmostEqual(out["rewards"][0], self.expected(source("SPEEDUP=2")))


if __name__ == "__main__":
    unittest.main()
