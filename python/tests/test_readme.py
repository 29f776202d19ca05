"""python/README.md's wiring lines are the ones that work: this test takes them out of the README and
runs them, loading each adapter the way its engine does."""
import asyncio
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
        url_key = find(r"\+custom_reward_function\.reward_kwargs\.(\w+)=http").group(1)
        fn = getattr(load_by_path("custom_module", path), name)
        out = fn(data_source="cudaperf/c2cuda", solution_str=answer(source("SPEEDUP=2")), ground_truth=TASK,
                 extra_info={"index": 0}, **{url_key: self.service.url})
        self.assertEqual(set(out), KEYS)
        self.assertAlmostEqual(out["score"], self.expected(source("SPEEDUP=2")))

    def test_verl_interaction_lines(self):
        class_name = find(r"^\s*class_name: ([\w.]+)$").group(1)
        config = dict(re.findall(r"(\w+): \"?([^,\"}]+)\"?", find(r"^\s*config: \{(.*)\}$").group(1)))
        config["url"], config["max_turns"] = self.service.url, int(config["max_turns"])
        module, _, cls_name = class_name.rpartition(".")
        cls = getattr(importlib.import_module(module), cls_name)
        kwargs_line = find(r"interaction_kwargs = \{\"name\": \"(\w+)\", \"(\w+)\": <task id>\}")
        interaction_kwargs = {"name": kwargs_line.group(1), kwargs_line.group(2): TASK}

        async def main():
            inter = cls(config=dict(config, name=interaction_kwargs["name"]))
            iid = await inter.start_interaction("rid", **interaction_kwargs)
            msgs = [{"role": "user", "content": "p"}, {"role": "assistant", "content": answer(source("SPEEDUP=2"))}]
            return await inter.generate_response(iid, msgs, **interaction_kwargs)

        done, feedback, score, _ = asyncio.run(main())
        self.assertEqual((done, feedback), (False, "FEEDBACK ok speedup 2"))
        self.assertAlmostEqual(score, self.expected(source("SPEEDUP=2")))

    def test_trl_lines(self):
        module, name = find(r"^from (cudaperf\.\w+) import (\w+)$").groups()
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
