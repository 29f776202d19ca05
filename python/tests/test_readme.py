"""python/README.md's wiring lines are the ones that work: this test takes them out of the README and
runs them, loading each adapter the way its engine does."""
import contextlib
import importlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from cudaperf import Client
from tests.fake_service import TASK, ServiceTestCase, answer, source
from tests.test_openrlhf import PROMPT
import cudaperf.verl as cv
from tests.test_verl import KEYS

ROOT = Path(__file__).resolve().parents[1]
REPO = ROOT.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def find(pattern: str) -> re.Match:
    m = re.search(pattern, README, re.MULTILINE)
    assert m, f"README.md has no line matching {pattern!r}"
    return m


def path_from(snippet: str) -> str:
    """Run a README `$(python3 -c '...')` snippet as the shell would."""
    out = subprocess.run([sys.executable, "-c", snippet], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    return out.stdout.strip()


def tested_blocks() -> list:
    """The README's `<!-- tested: ... -->` Python blocks."""
    return re.findall(r"<!-- tested: [^>]*-->\n```python\n(.*?)```", README, re.DOTALL)


def run_block(code: str, cwd=REPO) -> str:
    """Exec a README block from the repository root (its paths are relative to it); what it printed."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    finally:
        os.chdir(old)
    return out.getvalue()


def load_by_path(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ReadmeTest(ServiceTestCase):
    def test_client_example_runs(self):
        blocks = tested_blocks()
        self.assertTrue(blocks)
        for code in blocks:
            self.assertIn("ok 1.5", run_block(code))
        self.assertGreaterEqual(len(self.service.calls("POST", "/v1/evaluate")), 2)

    def test_verl_reward_lines(self):
        path = path_from(find(r"custom_reward_function\.path=\$\(python3 -c '([^']+)'\)").group(1))
        name = find(r"custom_reward_function\.name=(\w+)").group(1)
        url_key = find(r"\+reward\.custom_reward_function\.reward_kwargs\.(\w+)=http").group(1)
        fn = getattr(load_by_path("custom_module", path), name)
        out = fn(data_source="cudaperf/c2cuda", solution_str=answer(source("SPEEDUP=2")), ground_truth=TASK,
                 extra_info={"index": 0}, **{url_key: self.service.url})
        self.assertEqual(set(out), KEYS)
        self.assertAlmostEqual(out["score"], self.expected(source("SPEEDUP=2")))

    def test_verl_multi_turn_lines(self):
        tool_yaml = find(r"multi_turn\.tool_config_path=(\S+)").group(1)
        text = (REPO / tool_yaml).read_text(encoding="utf-8")
        class_name = re.search(r"class_name: \"?([\w.]+)\"?", text).group(1)
        self.assertEqual(class_name, "cudaperf.verl.CudaperfTool")
        self.assertIn("multi_turn=True", find(r"reward_kwargs\.multi_turn=True").group(0))
        key = find(r"tools_kwargs = \{\"(\w+)\": \{\"create_kwargs\": \{\"(\w+)\"").groups()
        self.assertEqual(key, (cv.TOOL_NAME, "task_id"))

    def test_trl_env_line(self):
        module, name = find(r"^from (cudaperf\.\w+) import (CudaperfEnv)$").groups()
        self.assertEqual(find(r"environment_factory=(\w+)").group(1), name)
        env = getattr(importlib.import_module(module), name)()
        env.reset(task_id=TASK, prompt=[{"role": "user", "content": "write it"}])
        self.assertEqual(env.get_reward(), -10.0)
        self.assertIn("FEEDBACK ok speedup 2", env.evaluate_kernel(source("SPEEDUP=2")))

    def test_trl_lines(self):
        module, name = find(r"^from (cudaperf\.\w+) import (reward_func)$").groups()
        self.assertEqual(find(r"reward_funcs=\[(\w+)\]").group(1), name)
        fn = getattr(importlib.import_module(module), name)
        row = {"prompt": [{"role": "user", "content": "write it"}], "task_id": TASK, "category": "reduction"}
        columns = {k: [v] * 2 for k, v in row.items() if k != "prompt"}
        rewards = fn(prompts=[row["prompt"]] * 2, completions=[[{"role": "assistant", "content": answer(source("SPEEDUP=3"))}],
                                                               [{"role": "assistant", "content": "none"}]],
                     completion_ids=[[1], [2]], trainer_state=None, **columns)
        self.assertAlmostEqual(rewards[0], self.expected(source("SPEEDUP=3")))
        self.assertEqual(rewards[1], -10.0)

    def test_openrlhf_lines(self):
        path = path_from(find(r"--reward\.remote_url \$\(python3 -c '([^']+)'\)").group(1))
        self.assertEqual(find(r"--data\.label_key (\w+)").group(1), "task_id")
        fn = load_by_path("reward_func", path).reward_func
        out = fn([PROMPT + answer(source("SPEEDUP=2"))], [PROMPT], [TASK])
        self.assertAlmostEqual(out["rewards"][0], self.expected(source("SPEEDUP=2")))
        self.assertEqual(out["scores"], [1.0])
        endpoint = find(r"--reward\.remote_url http://[\w.:]+(/v1/\w+)").group(1)
        body, _ = Client(self.service.url)._request(
            "POST", endpoint, {"query": [PROMPT + "no code"], "prompts": [PROMPT], "labels": [TASK]})
        self.assertEqual(set(body), {"rewards", "scores", "extra_logs"})
