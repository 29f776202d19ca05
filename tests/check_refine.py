#!/usr/bin/env python3
"""`cudaperf refine` end to end against a scripted OpenAI-compatible server (real HTTP on loopback),
CPU stages only (no GPU needed).

1. One trajectory, 4 rounds: the endpoint first fails (500, 429 with Retry-After, a timeout, a
   malformed JSON body — each retried), then answers compile error -> link-rule violation
   (cudaMalloc) -> a truncated answer (no code) -> a correct dataset kernel. The transcript must
   carry the compiler's error in turn 2's prompt, the link rule in turn 3's, the no-code reason in
   turn 4's; the correct kernel is "pending_gpu" (no invented speedup or reward) and is kept as best.
2. An endpoint that always fails (500) and one that refuses (400): reported, exit 1, transcripts written.
3. --dataset over two tasks, 2 samples, --contrastive: progress, summary, earlier candidates shown.
4. --service: the same loop evaluated by a running `cudaperf serve`.
Usage: check_refine.py CUDAPERF DATASET_ROOT SOURCE_DIR
"""
import json, os, shutil, signal, subprocess, sys, tempfile, time, urllib.request
from loopback import free_port

bin_, root, src = sys.argv[1:4]
tmp = tempfile.mkdtemp(prefix="cudaperf-refine-test-")
here = os.path.dirname(os.path.abspath(__file__))
CE = open(os.path.join(src, "tests/data/refine/saxpy_compile_error.cu")).read()
LINK = open(os.path.join(src, "tests/redteam/sync_malloc.cu")).read()
GOOD = open(os.path.join(root, "c2cuda/elementwise/saxpy/impls/vectorized.cu")).read()
GOOD2 = open(os.path.join(root, "c2cuda/elementwise/saxpy/impls/grid_stride.cu")).read()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def answer(code, lang="cuda", prose="Here is the kernel."):
    return f"{prose}\n\n```{lang}\n{code}```\n"


def start_server(name, script):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    with open(os.path.join(d, "script.json"), "w") as f:
        json.dump(script, f)
    port_file, log = os.path.join(d, "port"), os.path.join(d, "requests.jsonl")
    p = subprocess.Popen([sys.executable, os.path.join(here, "refine_scripted_server.py"), "--script", f.name,
                          "--port-file", port_file, "--log", log])
    for _ in range(200):
        if os.path.exists(port_file):
            return p, int(open(port_file).read()), log
        time.sleep(0.05)
    p.kill()
    raise SystemExit("scripted server did not start")


def refine(port, *args, env=None):
    cmd = [bin_, "refine", "--endpoint", f"http://127.0.0.1:{port}/v1", "--model", "scripted", "--root", root,
           "--config", os.path.join(src, "config/reward.toml"), "--ranker", os.path.join(src, "data/models/ranker.json"),
           "--backoff", "0.05", "--max-backoff", "0.2", *args]
    e = dict(os.environ, **(env or {}))
    r = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=1200)
    return r


def jsonl(path):
    return [json.loads(l) for l in open(path) if l.strip()]


servers = []
try:
    # ---------------------------------------------------------------- 1. the scripted trajectory
    script = {"turns": [
        [{"status": 500},
         {"status": 429, "retry_after": 0, "body": {"error": {"message": "slow down"}}},
         {"delay_s": 4, "content": "too late"},
         {"raw": "{\"choices\": [ this is not json"},
         {"content": answer(CE, "cuda", "First try:")}],
        [{"content": answer(LINK, "c++", "Fixed the typo, and I cache a scratch buffer:")}],
        [{"content": "Let me rewrite it with vector loads:\n\n```cuda\n#include <cuda_runtime.h>\n__global__ void k(", "finish_reason": "length"}],
        [{"content": answer(GOOD, "cpp", "Complete file:")}],
    ]}
    p, port, log = start_server("one", script)
    servers.append(p)
    out, best = os.path.join(tmp, "one.jsonl"), os.path.join(tmp, "best")
    r = refine(port, "--task", "elementwise/saxpy", "--rounds", "4", "--out", out, "--best-dir", best, "--timeout", "1.5",
               "--retries", "6", "--api-key-env", "CUDAPERF_TEST_KEY", "--temperature", "0.3", "--max-tokens", "777",
               env={"CUDAPERF_TEST_KEY": "sekrit"})
    print(r.stdout)
    check(r.returncode == 0, f"scripted run exit {r.returncode}: {r.stderr[-2000:]}")
    rows = jsonl(out)
    check(len(rows) == 1, f"one trajectory expected, got {len(rows)}")
    t = rows[0]
    check(t["schema"] == "cudaperf.refine.v1" and t["task"] == "elementwise/saxpy" and t["status"] == "completed", "header")
    verdicts = [x["verdict"] for x in t["turns"]]
    check(verdicts == ["compile_error", "link_error", "no_code", "pending_gpu"], f"verdicts {verdicts}")
    msgs = t["messages"]
    check([m["role"] for m in msgs] == ["system", "user"] + ["assistant", "user"] * 3 + ["assistant"],
          f"roles {[m['role'] for m in msgs]}")
    # the first prompt is exactly what `cudaperf export` gives for the task
    ex = subprocess.run([bin_, "export", "--root", root, "--category", "elementwise"], capture_output=True, text=True)
    prompts = {json.loads(l)["task_id"]: json.loads(l)["prompt"] for l in ex.stdout.splitlines()}
    check(msgs[1]["content"] == prompts["elementwise/saxpy"], "first user message == export prompt")
    turns = t["turns"]
    for i, turn in enumerate(turns):
        check(turn["round"] == i + 1 and msgs[turn["answer_index"]]["role"] == "assistant"
              and msgs[turn["prompt_index"]]["role"] == "user" and turn["answer_index"] == turn["prompt_index"] + 1,
              f"indexes of turn {i}")
    fb2 = msgs[turns[1]["prompt_index"]]["content"]  # what turn 2 was told about turn 1
    check("did not compile" in fb2 and 'expected a ";"' in fb2 and "y_values" in fb2, f"turn 2 prompt lacks the compile errors:\n{fb2}")
    check("candidate.cu(" in fb2 and tmp not in fb2 and "/tmp/" not in fb2, f"turn 2 prompt: paths not anonymised:\n{fb2}")
    check("(n, a, x, y_values, out);" in fb2 and fb2.count("error:") == 2, "turn 2 prompt: each error with its source line")
    fb3 = msgs[turns[2]["prompt_index"]]["content"]
    check("link_error" in fb3 and "cudaMalloc" in fb3 and "allocates outside the stream" in fb3, f"turn 3 prompt lacks the rule:\n{fb3}")
    fb4 = msgs[turns[3]["prompt_index"]]["content"]
    check("no usable code block" in fb4 and "cut off" in fb4, f"turn 4 prompt lacks the no-code reason:\n{fb4}")
    check(turns[2]["no_code_reason"] == "unclosed" and turns[2]["finish_reason"] == "length" and turns[2]["code"] is None, "no_code turn")
    last = turns[3]
    check(last["final"] is False and last["speedup"] is None and last["reward"] is None, f"pending turn {last['speedup']} {last['reward']}")
    check(last["feedback"] and "No GPU" in last["feedback"] and "x over naive" not in last["feedback"], "pending feedback")
    check(last["code"] == GOOD, "extracted code == the dataset kernel")
    check(t["per_turn_rewards"][:3] == [-7.0, -10.0, -10.0] and t["per_turn_rewards"][3] is None, f"rewards {t['per_turn_rewards']}")
    check(t["trajectory_reward"] is None and "pending" in t["trajectory_reward_note"], "trajectory reward must wait for the GPU")
    check(t["best"]["round"] == 4 and t["best"]["verdict"] == "pending_gpu", f"best {t['best']}")
    check(open(os.path.join(best, "elementwise_saxpy.cu")).read() == GOOD, "best candidate file")
    att = turns[0]["attempts"]
    check([a["status"] for a in att] == [500, 429, 0, 200, 200], f"attempt statuses {[a['status'] for a in att]}")
    errs = [a["error"] or "" for a in att]
    check("HTTP 500" in errs[0] and "HTTP 429" in errs[1] and "slow down" in errs[1] and "timeout" in errs[2]
          and "malformed JSON" in errs[3] and att[4]["error"] is None, f"attempt errors {errs}")
    check(turns[1]["eval"]["verdict"] == "link_error" and turns[1]["reward_breakdown"]["tier"] == "hack", "eval kept")
    check(all(k in turns[0]["timings"] for k in ("model_s", "eval_s", "analysis_s")), "timings")
    for needle in ("compile_error", "link_error", "no_code", "pending_gpu", "best: round 4"):
        check(needle in r.stdout, f"table lacks {needle}")
    reqs = jsonl(log)
    check(all(q["authorization"] == "Bearer sekrit" for q in reqs), "API key from --api-key-env")
    b = reqs[-1]["body"]
    check(b["model"] == "scripted" and b["max_tokens"] == 777 and abs(b["temperature"] - 0.3) < 1e-9 and b["stream"] is False,
          f"request body {dict((k, v) for k, v in b.items() if k != 'messages')}")
    check(len(b["messages"]) == 8 and b["messages"] == msgs[:8], "the last request carries the whole conversation")

    # ---------------------------------------------------------------- 2. endpoint failures
    p2, port2, _ = start_server("fail500", {"turns": [[{"status": 500, "body": {"error": {"message": "model crashed"}}}]]})
    servers.append(p2)
    out2 = os.path.join(tmp, "fail.jsonl")
    r = refine(port2, "--task", "elementwise/saxpy", "--rounds", "2", "--out", out2, "--best-dir", best, "--retries", "3")
    check(r.returncode == 1, f"always-500 endpoint: exit {r.returncode}")
    t = jsonl(out2)[0]
    check(t["status"] == "endpoint_error" and "gave up after 3 attempt(s)" in t["error"] and "model crashed" in t["error"],
          f"500 report: {t['error']}")
    check(len(t["error_attempts"]) == 3 and t["turns"] == [] and t["trajectory_reward"] is None, "500 transcript")
    check("endpoint_error" in r.stdout and "stopped" in r.stdout, f"500 shown: {r.stdout}")
    p3, port3, _ = start_server("fail400", {"turns": [[{"status": 400, "body": {"error": {"message": "context too long"}}}]]})
    servers.append(p3)
    r = refine(port3, "--task", "elementwise/saxpy", "--rounds", "2", "--out", out2, "--best-dir", best)
    t = jsonl(out2)[0]
    check(r.returncode == 1 and "not retried" in t["error"] and "context too long" in t["error"] and len(t["error_attempts"]) == 1,
          f"400 report: {t['error']}")
    r = refine(port3, "--task", "no/such_task", "--out", out2)
    check(r.returncode == 2, f"unknown task: exit {r.returncode}")
    r = subprocess.run([bin_, "refine", "--task", "elementwise/saxpy", "--endpoint", "ftp://x", "--model", "m", "--root", root],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "http" in r.stderr, f"bad endpoint: exit {r.returncode} {r.stderr}")

    # ---------------------------------------------------------------- 3. --dataset, samples, contrastive
    ds = os.path.join(tmp, "ds")
    for name in ("axpby_f64", "saxpy"):
        shutil.copytree(os.path.join(root, "c2cuda/elementwise", name), os.path.join(ds, "c2cuda/elementwise", name))
    p4, port4, log4 = start_server("dsserver", {"turns": [[{"content": answer(GOOD)}], [{"content": answer(GOOD2)}]]})
    servers.append(p4)
    out4 = os.path.join(tmp, "ds.jsonl")
    r = refine(port4, "--dataset", ds, "--samples", "2", "--rounds", "2", "--contrastive", "--out", out4,
               "--best-dir", os.path.join(tmp, "best4"), "--no-analysis")
    print(r.stdout)
    check(r.returncode == 0, f"dataset run exit {r.returncode}: {r.stderr[-2000:]}")
    rows = jsonl(out4)
    check(sorted((x["task"], x["sample"]) for x in rows) ==
          [("elementwise/axpby_f64", 0), ("elementwise/axpby_f64", 1), ("elementwise/saxpy", 0), ("elementwise/saxpy", 1)],
          "one line per task and sample")
    sax = [x for x in rows if x["task"] == "elementwise/saxpy"]
    check(all([t["verdict"] for t in x["turns"]] == ["pending_gpu", "pending_gpu"] for x in sax), "saxpy verdicts")
    fb = sax[0]["messages"][sax[0]["turns"][1]["prompt_index"]]["content"]
    check("Earlier candidates" in fb and "passed the CPU-side checks" in fb and "Candidate 1" in fb and GOOD.strip()[:60] in fb,
          f"contrastive section:\n{fb}")
    ax = [x for x in rows if x["task"] == "elementwise/axpby_f64"]
    check(all(t["verdict"] in ("compile_error", "link_error") for x in ax for t in x["turns"]), "saxpy code for axpby fails")
    check("[1/2]" in r.stderr and "[2/2]" in r.stderr, "progress lines")
    check("correct@r" in r.stdout and "cpu_clean@r" in r.stdout and "fast_1@r" in r.stdout, "summary header")
    line2 = [l for l in r.stdout.splitlines() if l.split()[:1] == ["2"] and len(l.split()) == 4]
    check(line2 and line2[0].split()[1:] == ["0.000", "0.500", "0.000"], f"summary round 2: {line2}")
    check("mean speedup: n/a" in r.stdout and "pending a GPU" in r.stdout, "no invented mean speedup")

    # ---------------------------------------------------------------- 4. --service
    svc_port = free_port()
    svc = subprocess.Popen([bin_, "serve", "--port", str(svc_port), "--store", os.path.join(tmp, "jobs.sqlite"), "--root", root,
                            "--workers", "1", "--cpu-test-mode", "--config", os.path.join(src, "config/reward.toml"),
                            "--model", os.path.join(src, "data/models/ranker.json")],
                           stderr=open(os.path.join(tmp, "serve.log"), "w"))
    servers.append(svc)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{svc_port}/healthz", timeout=2)
            break
        except OSError:
            time.sleep(0.1)
    p5, port5, _ = start_server("svc", {"turns": [[{"content": answer(CE)}], [{"content": answer(GOOD)}]]})
    servers.append(p5)
    out5 = os.path.join(tmp, "svc.jsonl")
    r = refine(port5, "--task", "elementwise/saxpy", "--rounds", "2", "--out", out5, "--best-dir", os.path.join(tmp, "best5"),
               "--service", f"http://127.0.0.1:{svc_port}", "--eval-timeout", "600")
    check(r.returncode == 0, f"service run exit {r.returncode}: {r.stderr[-2000:]}")
    t = jsonl(out5)[0]
    check([x["verdict"] for x in t["turns"]] == ["compile_error", "pending_gpu"], f"service verdicts {[x['verdict'] for x in t['turns']]}")
    check("did not compile" in t["messages"][t["turns"][1]["prompt_index"]]["content"], "service feedback")
    check(t["run"]["evaluator"].startswith("service "), "evaluator recorded")
finally:
    for p in servers:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
if failures:
    print(f"{len(failures)} check(s) failed; files in {tmp}")
    sys.exit(1)
shutil.rmtree(tmp, ignore_errors=True)
print("refine: ok")
