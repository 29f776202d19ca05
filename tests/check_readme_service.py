#!/usr/bin/env python3
"""python/README.md's lines against the real `cudaperf serve` (CPU stages only without a GPU).

python/tests/test_readme.py runs the same README lines against a fake service; this runs them against
the built binary: the Install block's `cudaperf serve` and `cudaperf export` lines as written (only the
binary path and the port replaced, in an empty working directory, so the service finds its dataset,
reward config and ranker by itself), the tested client block, and each engine's wiring (verl
compute_score by path, TRL reward_func, the OpenRLHF file variant and the service's own endpoint).
Usage: check_readme_service.py CUDAPERF SOURCE_DIR
"""
import importlib, json, os, re, shlex, signal, subprocess, sys, tempfile, time, urllib.request

bin_, src = (os.path.abspath(a) for a in sys.argv[1:3])
sys.path.insert(0, os.path.join(src, "python"))
from tests.test_readme import README, find, load_by_path, path_from, run_block, tested_blocks  # noqa: E402
from tests.test_openrlhf import PROMPT  # noqa: E402
from tests.fake_service import answer  # noqa: E402
from cudaperf import Client  # noqa: E402
from loopback import free_port  # noqa: E402

TASK = "reduction/dot_f64"
IMPLS = os.path.join(src, "data/tasks/c2cuda", TASK, "impls")
GOOD = open(os.path.join(IMPLS, "naive.cu")).read()
BROKEN = "#include <cuda_runtime.h>\n__global__ void dot(double* out) { out[0] = no_such_identifier; }\n"
README_PORT = "8080"


def gates():
    """[gate] of config/reward.toml: {tier: value}."""
    text = open(os.path.join(src, "config/reward.toml")).read()
    section = re.search(r"^\[gate\]\n(.*?)^\[", text, re.DOTALL | re.MULTILINE).group(1)
    return {k: float(v) for k, v in re.findall(r"^(\w+)\s*=\s*(-?[0-9.]+)", section, re.MULTILINE)}


GATE = gates()


def install_line(command):
    """The Install block's `cudaperf <command> ...` line as argv: as written, but the binary path, a free
    port for 8080, no comment, no trailing `&`."""
    block = re.search(r"^## Install\n\n```bash\n(.*?)```", README, re.DOTALL | re.MULTILINE)
    assert block, "python/README.md has no ```bash block under ## Install"
    line = re.search(rf"^cudaperf {command} .*$", block.group(1), re.MULTILINE)
    assert line, f"the Install block has no `cudaperf {command}` line"
    argv = shlex.split(line.group(0), comments=True)
    if argv[-1] == "&":
        argv.pop()
    assert "&" not in argv, argv
    return [bin_] + [PORT if a == README_PORT else a for a in argv[1:]]


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return r.status, json.loads(r.read())


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


checked = []


def ok(what):
    checked.append(what)
    print("ok:", what, flush=True)


PORT = str(free_port())
URL = f"http://127.0.0.1:{PORT}"
tmp = tempfile.mkdtemp(prefix="cudaperf-readme-test-")
log_path = os.path.join(tmp, "serve.log")

serve_argv = install_line("serve") + ["--cpu-test-mode"]  # without it a service without a GPU refuses to score
assert PORT in serve_argv, f"the README's serve line has no --port {README_PORT}: {serve_argv}"
svc = subprocess.Popen(serve_argv, cwd=tmp, stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))
failed = True
try:
    # 1. the service as the README starts it, from a directory holding nothing of the project
    health = None
    for _ in range(300):
        assert svc.poll() is None, f"`{' '.join(serve_argv)}` exited with {svc.returncode}"
        try:
            with urllib.request.urlopen(URL + "/healthz", timeout=5) as r:
                health = json.loads(r.read())
                break
        except OSError:
            time.sleep(0.1)
    assert health and health["ok"], f"the service did not answer /healthz: {health}"
    ok(f"README serve line runs in an empty directory: {' '.join(serve_argv[1:])} -> {health}")

    # 2. the README's export line, in the same directory: rows whose task ids exist
    export_argv = install_line("export")
    out = subprocess.run(export_argv, cwd=tmp, capture_output=True, text=True)
    assert out.returncode == 0, f"{export_argv} failed ({out.returncode}): {out.stderr}"
    fmt_, out_file = export_argv[export_argv.index("--format") + 1], export_argv[export_argv.index("--out") + 1]
    rows = [json.loads(line) for line in open(os.path.join(tmp, out_file)) if line.strip()]
    tasks = {os.path.relpath(d, os.path.join(src, "data/tasks/c2cuda"))
             for d, _, files in os.walk(os.path.join(src, "data/tasks/c2cuda")) if "task.toml" in files}
    tasks |= {os.path.relpath(d, os.path.join(src, "data/tasks"))  # torch2cuda ids keep their kind prefix
              for d, _, files in os.walk(os.path.join(src, "data/tasks/torch2cuda")) if "task.toml" in files}
    ids = [r["task_id"] for r in rows]
    assert rows and len(ids) == len(set(ids)), f"{out_file}: {len(rows)} rows, {len(set(ids))} distinct task ids"
    assert set(ids) <= tasks, f"{out_file}: task ids not in the dataset: {sorted(set(ids) - tasks)[:5]}"
    assert set(ids) == tasks, f"{out_file}: dataset tasks not exported: {sorted(tasks - set(ids))[:5]}"
    row = next(r for r in rows if r["task_id"] == TASK)
    if fmt_ == "trl":  # a conversational prompt naming the task
        assert row["prompt"][-1]["role"] == "user" and TASK in row["prompt"][-1]["content"], row["prompt"]
    ok(f"README export line ({fmt_}) wrote {out_file}: {len(rows)} rows, every task id in data/tasks")

    # 3. the tested client block, from the repository root, against this service
    os.environ["CUDAPERF_URL"] = URL
    blocks = tested_blocks()
    assert blocks, "python/README.md has no <!-- tested --> block"
    for code in blocks:
        printed = run_block(code, cwd=src)
        assert printed.split()[:1] == ["ok"], f"the client block printed {printed[:2000]!r}"
    ok(f"README client block(s) ({len(blocks)}): printed verdict ok for the dataset kernel")

    # 4. verl: compute_score loaded by path, as the README's custom_reward_function lines say
    path = path_from(find(r"custom_reward_function\.path=\$\(python3 -c '([^']+)'\)").group(1))
    name = find(r"custom_reward_function\.name=(\w+)").group(1)
    url_key, readme_url = find(r"\+?reward\.custom_reward_function\.reward_kwargs\.(\w+)=(http://\S+)").groups()
    assert f":{README_PORT}" in readme_url, readme_url
    verl_url = readme_url.replace(f":{README_PORT}", f":{PORT}")
    compute_score = getattr(load_by_path("custom_module", path), name)
    os.environ["CUDAPERF_URL"] = "http://127.0.0.1:1"  # nothing there: only the reward_kwargs URL reaches the service
    good = compute_score(data_source="cudaperf/c2cuda", solution_str=answer(GOOD), ground_truth=TASK,
                         extra_info={"index": 0}, **{url_key: verl_url})
    assert good["verdict"] == "ok" and good["final"] is False, good
    direct = Client(URL).evaluate_one(TASK, GOOD)
    assert direct["verdict"] == "ok" and close(good["score"], direct["reward"]["total"]), (good, direct["reward"])
    assert direct["reward"]["rank_score"] is not None, f"no ranker score: the service did not find its ranker: {direct}"
    assert direct["reward"]["gate"] == GATE["correct_slower"], direct["reward"]  # no speedup without a GPU
    bad = compute_score(data_source="cudaperf/c2cuda", solution_str=answer(BROKEN), ground_truth=TASK,
                        extra_info={"index": 1}, **{url_key: verl_url})
    assert bad["verdict"] == "compile_error" and bad["score"] == GATE["compile_error"], bad
    os.environ["CUDAPERF_URL"] = URL
    ok(f"verl {name} ({path}): ok/final False (score {good['score']:.4f}, rank term found), "
       f"compile_error -> {bad['score']} = gate.compile_error")

    # 5. TRL: `from cudaperf.trl import reward_func`, a batch of two completions (the exported prompt)
    module, fn_name = find(r"^from (cudaperf\.\w+) import (\w+)$").groups()
    assert find(r"reward_funcs=\[(\w+)\]").group(1) == fn_name
    reward_func = getattr(importlib.import_module(module), fn_name)
    completions = [[{"role": "assistant", "content": answer(GOOD)}], [{"role": "assistant", "content": "no code"}]]
    rewards = reward_func(prompts=[row["prompt"]] * 2, completions=completions, task_id=[TASK] * 2)
    assert isinstance(rewards, list) and len(rewards) == 2 and isinstance(rewards[0], float), rewards
    assert close(rewards[0], good["score"]) and rewards[1] == -10.0 == GATE["hack"], rewards
    ok(f"TRL {module}.{fn_name}: {rewards}")

    # 6. OpenRLHF: the file variant by path, then the service's endpoint as the remote reward model
    path = path_from(find(r"--reward\.remote_url \$\(python3 -c '([^']+)'\)").group(1))
    label_key = find(r"--data\.label_key (\w+)").group(1)
    assert label_key in row, f"--data.label_key {label_key} is not a column of the export: {sorted(row)}"
    queries, prompts, labels = [PROMPT + answer(GOOD), PROMPT + "no code"], [PROMPT, PROMPT], [TASK, TASK]
    out = load_by_path("reward_func", path).reward_func(queries, prompts, labels)
    assert set(out) == {"rewards", "scores", "extra_logs"}, out
    assert len(out["rewards"]) == len(out["scores"]) == 2 and all(len(v) == 2 for v in out["extra_logs"].values()), out
    assert close(out["rewards"][0], good["score"]) and out["rewards"][1] == GATE["hack"] and out["scores"] == [1.0, 0.0], out
    ok(f"OpenRLHF file variant ({path}): rewards {out['rewards']}, scores {out['scores']}")
    endpoint = find(r"--reward\.remote_url (http://[\w.:]+/v1/\w+)").group(1)
    assert f":{README_PORT}/" in endpoint, endpoint
    st, body = post(endpoint.replace(f":{README_PORT}/", f":{PORT}/"), {"query": queries, "prompts": prompts, "labels": labels})
    assert st == 200 and set(body) == {"rewards", "scores", "extra_logs"}, body
    assert len(body["rewards"]) == len(body["scores"]) == 2 and body["extra_logs"], body
    assert all(len(v) == 2 for v in body["extra_logs"].values()), body
    assert close(body["rewards"][0], good["score"]) and body["rewards"][1] == GATE["hack"], body
    # scores are correctness (the verdict is ok), as in the file variant; extra_logs carry its keys
    assert body["scores"] == [1.0, 0.0], body
    # ... and task_error (1.0: the task failed, no real reward; the file variant folds it into "error")
    assert set(body["extra_logs"]) == {"correct", "speedup", "gate", "speed", "structure", "rank", "task_error"}, body
    assert body["extra_logs"]["task_error"] == [0.0, 0.0], body
    ok(f"OpenRLHF endpoint {endpoint.split(README_PORT)[-1]}: rewards {body['rewards']}, scores {body['scores']}, "
       f"extra_logs {sorted(body['extra_logs'])}")
    failed = False
finally:
    if svc.poll() is None:
        svc.send_signal(signal.SIGTERM)
        try:
            svc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            svc.kill()
            svc.wait()
            print("the service did not stop on SIGTERM", file=sys.stderr)
            failed = True
    if svc.returncode != 0:
        print(f"the service exited with {svc.returncode}", file=sys.stderr)
        failed = True
    if failed:
        print("service log:\n" + open(log_path).read()[-4000:], file=sys.stderr)

if failed:
    sys.exit(1)
print(f"ok: the service stopped on SIGTERM (exit 0)\n{len(checked) + 1} checks passed")
