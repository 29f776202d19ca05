#!/usr/bin/env python3
"""`cudaperf refine` on a GPU with real verdicts: a scripted model answers linalg/sgemm_f32 with a
compile error, then a wrong answer, then the dataset's naive kernel (slow, correct), then its
shared-memory tiled kernel (fast, correct). Checks the verdicts, that the speedup and the reward
go up from round 3 to round 4, the feedback of each turn (compile error, first mismatch, timing),
and that the trajectory reward is computed. Writes the JSONL to $CUDAPERF_BENCH_OUT when set.
Skips (77) without a GPU.
Usage: check_refine_gpu.py CUDAPERF DATASET_ROOT SOURCE_DIR
"""
import json, os, shutil, signal, subprocess, sys, tempfile, time

bin_, root, src = sys.argv[1:4]
if not shutil.which("nvidia-smi") or subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode != 0:
    print("no GPU: skipped")
    sys.exit(77)
here = os.path.dirname(os.path.abspath(__file__))
tmp = tempfile.mkdtemp(prefix="cudaperf-refine-gpu-")
impls = os.path.join(root, "c2cuda/linalg/sgemm_f32/impls")


def answer(path):
    return "Here is the file.\n\n```cuda\n" + open(path).read() + "```\n"


script = {"turns": [[{"content": answer(os.path.join(src, "tests/data/refine/sgemm_compile_error.cu"))}],
                    [{"content": answer(os.path.join(src, "tests/data/refine/sgemm_wrong_answer.cu"))}],
                    [{"content": answer(os.path.join(impls, "naive.cu"))}],
                    [{"content": answer(os.path.join(impls, "shared_tiled.cu"))}]]}
with open(os.path.join(tmp, "script.json"), "w") as f:
    json.dump(script, f)
port_file = os.path.join(tmp, "port")
server = subprocess.Popen([sys.executable, os.path.join(here, "refine_scripted_server.py"), "--script", f.name,
                           "--port-file", port_file, "--log", os.path.join(tmp, "requests.jsonl")])
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


try:
    for _ in range(200):
        if os.path.exists(port_file):
            break
        time.sleep(0.05)
    port = int(open(port_file).read())
    out = os.environ.get("CUDAPERF_BENCH_OUT") or os.path.join(tmp, "gpu.jsonl")
    r = subprocess.run([bin_, "refine", "--task", "linalg/sgemm_f32", "--root", root, "--endpoint", f"http://127.0.0.1:{port}/v1",
                        "--model", "scripted", "--rounds", "4", "--out", out, "--best-dir", os.path.join(tmp, "best"),
                        "--config", os.path.join(src, "config/reward.toml"), "--ranker", os.path.join(src, "data/models/ranker.json"),
                        "--time-budget", "0.3"], capture_output=True, text=True, timeout=1700)
    print(r.stdout)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr[-3000:]}")
    t = json.loads(open(out).readline())
    turns, msgs = t["turns"], t["messages"]
    verdicts = [x["verdict"] for x in turns]
    check(verdicts == ["compile_error", "wrong_answer", "ok", "ok"], f"verdicts {verdicts}: {[x['message'][:200] for x in turns]}")
    if len(turns) == 4:
        s3, s4 = turns[2]["speedup"], turns[3]["speedup"]
        check(s3 is not None and s4 is not None and s4 > s3, f"speedup must increase: {s3} -> {s4}")
        check(all(x["final"] for x in turns), "every turn final on a GPU")
        check(turns[3]["reward"] > turns[2]["reward"] > turns[1]["reward"], f"rewards {t['per_turn_rewards']}")
        check(t["trajectory_reward"] is not None and t["returns"] is not None, f"trajectory reward {t['trajectory_reward_note']}")
        fb2 = msgs[turns[1]["prompt_index"]]["content"]
        fb3 = msgs[turns[2]["prompt_index"]]["content"]
        fb4 = msgs[turns[3]["prompt_index"]]["content"]
        check("did not compile" in fb2 and "acc" in fb2, f"turn 2 prompt:\n{fb2}")
        check("wrong results" in fb3 and "First mismatch" in fb3 and turns[1]["mismatch"] is not None, f"turn 3 prompt:\n{fb3}")
        check("Timing on" in fb4 and "speedup" in fb4 and "naive" in fb4, f"turn 4 prompt:\n{fb4}")
        check(t["best"]["round"] == 4, f"best {t['best']}")
        print(f"speedup {s3:.2f}x -> {s4:.2f}x; rewards {t['per_turn_rewards']}; trajectory {t['trajectory_reward']}")
finally:
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=10)
if failures:
    print(f"{len(failures)} check(s) failed; files in {tmp}")
    sys.exit(1)
shutil.rmtree(tmp, ignore_errors=True)
print("refine on a GPU: ok")
