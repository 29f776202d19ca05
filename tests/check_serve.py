#!/usr/bin/env python3
"""`cudaperf serve` on loopback with real HTTP (CPU stages only without a GPU).

Checks: batch evaluate with waiting, several job states at once, inline tasks (and bad ones), torch2cuda tasks, identical requests answered from the store, unknown task /
malformed JSON / oversized source -> 400, a full queue -> 429 with Retry-After, many concurrent
clients, kill -9 of a worker mid-batch and SIGTERM of the service mid-batch (restart on the same
store): every accepted job finishes exactly once; OpenRLHF endpoint incl. empty lists; /metrics.
Usage: check_serve.py CUDAPERF DATASET_ROOT SOURCE_DIR
"""
import json, os, signal, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

from loopback import free_port

bin_, root, src = sys.argv[1:4]
tmp = tempfile.mkdtemp(prefix="cudaperf-serve-test-")
store = os.path.join(tmp, "jobs.sqlite")
VEC = open(os.path.join(root, "c2cuda/elementwise/saxpy/impls/vectorized.cu")).read()
HACK = open(os.path.join(src, "tests/redteam/network.cu")).read()


def start(port, *extra):
    p = subprocess.Popen([bin_, "serve", "--port", str(port), "--store", store, "--root", root, "--time-budget", "0.05", "--cpu-test-mode",
                          "--config", os.path.join(src, "config/reward.toml"), "--model", os.path.join(src, "data/models/ranker.json"),
                          *extra], stderr=open(os.path.join(tmp, "serve.log"), "a"))
    for _ in range(100):
        try:
            if call(port, "GET", "/healthz")[1]["ok"]:
                return p
        except OSError:
            time.sleep(0.1)
    raise SystemExit("service did not start: " + open(os.path.join(tmp, "serve.log")).read()[-2000:])


def call(port, method, path, body=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            text = r.read().decode()
            return r.status, (json.loads(text) if r.headers.get_content_type() == "application/json" else text), r.headers
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read()), e.headers


def variant(i):  # distinct sources (no answer from the store), same kernel
    return VEC + f"\n// variant {i}\n"


def wait_done(port, ids, timeout=600):
    t0 = time.time()
    while time.time() - t0 < timeout:
        jobs = [call(port, "GET", f"/v1/jobs/{i}")[1] for i in ids]
        if all(j["state"] == "done" for j in jobs):
            return jobs
        time.sleep(0.2)
    raise AssertionError(f"jobs not done after {timeout} s: {[j['state'] for j in jobs]}")


def rows():
    import sqlite3
    c = sqlite3.connect(store)
    return c.execute("SELECT id, state, attempts, result IS NOT NULL FROM jobs").fetchall()


port = free_port()
svc = start(port, "--workers", "2")
try:
    # 1. a batch, waited for; a hack gets the lowest reward; the CPU-side result is not final without a GPU
    st, out, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": VEC},
                                                                    {"task": "elementwise/saxpy", "source": HACK}], "wait_s": 120})
    assert st == 200 and [j["state"] for j in out["jobs"]] == ["done", "done"], out
    ok, hack = out["jobs"][0]["result"], out["jobs"][1]["result"]
    assert ok["verdict"] == "ok" and ok["reward"]["structure_score"] is not None, ok
    assert hack["verdict"] == "link_error" and hack["reward"]["total"] == -10 and hack["final"], hack
    # identical request: the same job, answered from the store
    st, again, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": HACK}]})
    assert st == 200 and again["jobs"][0]["id"] == out["jobs"][1]["id"] and again["jobs"][0]["state"] == "done", again
    # 1b. the Python client and every adapter against the running service
    sys.path.insert(0, os.path.join(src, "python"))
    os.environ["CUDAPERF_URL"] = f"http://127.0.0.1:{port}"
    from cudaperf import Client
    from cudaperf import openrlhf as orl, trl, verl
    r = Client(f"http://127.0.0.1:{port}").evaluate_one("elementwise/saxpy", HACK)
    assert r["verdict"] == "link_error" and r["reward"]["total"] == -10, r
    answer = "Here it is:\n```cuda\n" + HACK + "```\n"
    assert trl.reward_func(["p", "p"], [answer, "no code"], task_id=["elementwise/saxpy"] * 2) == [-10.0, -10.0]
    v = verl.compute_score("cudaperf/c2cuda", answer, "elementwise/saxpy")
    assert v["score"] == -10 and v["verdict"] == "link_error", v
    o = orl.reward_func([answer], [""], ["elementwise/saxpy"])
    assert list(o["rewards"]) == [-10.0], o
    ok_answer = "```cuda\n" + VEC + "```"
    v = verl.compute_score("cudaperf/c2cuda", ok_answer, "elementwise/saxpy")
    assert v["verdict"] == "ok" and v["score"] == ok["reward"]["total"], (v, ok["reward"])
    # 2. bad requests
    assert call(port, "POST", "/v1/evaluate", {"requests": [{"task": "no/such", "source": VEC}]})[0] == 400
    st, err, _ = call(port, "POST", "/v1/evaluate", raw=b"{not json")
    assert st == 400 and "JSON" in err["error"], err
    st, err, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": "x" * (300 * 1024)}]})
    assert st == 400 and "limit" in err["error"], err
    assert call(port, "GET", "/v1/jobs/0123456789abcdef")[0] == 404
    # 2b. several jobs at once (POST /v1/jobs), unknown ids marked, order kept
    st, many, _ = call(port, "POST", "/v1/jobs", {"ids": [out["jobs"][1]["id"], "feedfacefeedface", out["jobs"][0]["id"]]})
    assert st == 200 and [j["state"] for j in many["jobs"]] == ["done", "unknown", "done"], many
    assert many["jobs"][0]["result"]["verdict"] == "link_error" and many["jobs"][0]["attempts"] == 1, many
    assert many["jobs"][0]["finished"] >= many["jobs"][0]["started"] >= many["jobs"][0]["created"] > 0, many
    assert call(port, "POST", "/v1/jobs", {"ids": "x"})[0] == 400
    # 2c. an inline task (files in the request): stored content-addressed, evaluated like a dataset task
    tdir = os.path.join(root, "c2cuda/elementwise/saxpy")
    inline = {"toml": open(os.path.join(tdir, "task.toml")).read().replace('id = "elementwise/saxpy"', 'id = "mine/saxpy_inline"'),
              "reference_c": open(os.path.join(tdir, "reference.c")).read(),
              "impls": {os.path.basename(f): open(os.path.join(tdir, "impls", f)).read() for f in os.listdir(os.path.join(tdir, "impls"))}}
    assert 'id = "mine/saxpy_inline"' in inline["toml"]
    st, out3, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": inline, "source": VEC}, {"task": inline, "source": HACK}], "wait_s": 120})
    assert st == 200 and out3["jobs"][0]["task"].startswith("inline/") and out3["jobs"][0]["task"].endswith("/mine/saxpy_inline"), out3
    assert [j["result"]["verdict"] for j in out3["jobs"]] == ["ok", "link_error"], out3
    bad = dict(inline, toml=inline["toml"].replace("function =", "functio ="))
    st, err, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": bad, "source": VEC}]})
    assert st == 400 and "inline task" in err["error"] and "function" in err["error"], err
    st, err, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": dict(inline, impls={"../x.cu": VEC}), "source": VEC}]})
    assert st == 400 and "impls" in err["error"], err
    st, err, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": dict(inline, toml=inline["toml"].replace("mine/saxpy_inline", "../etc")), "source": VEC}]})
    assert st == 400 and "id" in err["error"], err
    # 2d. torch2cuda tasks: known to the service, scored in one run per batch; a ModelNew that passes the
    # static guards is not final without a GPU, one that breaks them is a hack; an unknown mode is refused
    T = "torch2cuda/activations/elu"
    tgood = open(os.path.join(root, T, "impls/naive.py")).read()
    thack = open(os.path.join(src, "tests/redteam/torch/pybind_import_main.py")).read()
    st, tout, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": T, "source": tgood}, {"task": T, "source": thack}], "wait_s": 300})
    assert st == 200 and [j["state"] for j in tout["jobs"]] == ["done", "done"], tout
    tg, th = tout["jobs"][0]["result"], tout["jobs"][1]["result"]
    assert tg["kind"] == "torch2cuda" and tg["verdict"] == "ok" and not tg["final"] and tg["reward"]["total"] <= 0, tg
    assert th["verdict"] == "hack_suspected" and th["final"] and th["reward"]["total"] == -10 and "python_api" in th["message"], th
    assert tg["batch"] == 2 and any("no structure or rank term" in n for n in tg["notes"]), tg
    st, err, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": T, "source": tgood, "options": {"mode": "fast"}}]})
    assert st == 400 and "kernelbench" in err["error"], err
    # 3. OpenRLHF format, with a prompt to strip and a response without code; empty lists
    st, r, _ = call(port, "POST", "/v1/openrlhf", {"query": ["P:```cuda\n" + HACK + "```", "P:no code here"], "prompts": ["P:", "P:"],
                                                 "labels": ["elementwise/saxpy", "elementwise/saxpy"]})
    assert st == 200 and r["rewards"] == [-10.0, -10.0] and r["scores"] == [0.0, 0.0], r
    assert call(port, "POST", "/v1/openrlhf", {"query": [], "prompts": [], "labels": []})[1] == {"rewards": [], "scores": [], "extra_logs": {"correct": [], "speedup": [], "task_error": [], "gate": [], "speed": [], "structure": [], "rank": []}}
    # 4. many concurrent clients
    results, errors = [], []
    def client(i):
        try:
            results.append(call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": variant(100 + i % 4)}], "wait_s": 300}))
        except Exception as e:  # noqa: BLE001
            errors.append(repr(e))
    ts = [threading.Thread(target=client, args=(i,)) for i in range(12)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert not errors and len(results) == 12 and all(s == 200 and o["jobs"][0]["state"] == "done" for s, o, _ in results), (errors, results[:1])
    assert len({o["jobs"][0]["id"] for _, o, _ in results}) == 4  # 4 distinct sources -> 4 jobs
    # 5. kill -9 a worker mid-batch: every job still finishes exactly once
    st, out, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": variant(i)} for i in range(6)]})
    ids = [j["id"] for j in out["jobs"]]
    time.sleep(1.0)
    workers = subprocess.run(["pgrep", "-f", f"serve-worker --store {store}"], capture_output=True, text=True).stdout.split()
    assert workers, "no worker processes found"
    os.kill(int(workers[0]), signal.SIGKILL)
    jobs = wait_done(port, ids)
    assert all(j["result"]["verdict"] == "ok" for j in jobs), jobs
    assert all(j["result"]["batch"] >= 1 for j in jobs), jobs
    # 5b. a request is stored in one transaction, so an idle worker claims its jobs of one task together
    #     (one run shares inputs and baselines)
    st, out, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": variant(300 + i)} for i in range(3)], "wait_s": 300})
    assert st == 200 and [j["result"]["batch"] for j in out["jobs"]] == [3, 3, 3], [j.get("result", {}).get("batch") for j in out["jobs"]]
    st, metrics, _ = call(port, "GET", "/metrics")
    assert "cudaperf_worker_restarts 1" in metrics and 'cudaperf_jobs{state="done"}' in metrics, metrics
    # 6. service stopped mid-batch (SIGTERM) and restarted on the same store: nothing lost
    st, out, _ = call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": variant(50 + i)} for i in range(4)]})
    ids2 = [j["id"] for j in out["jobs"]]
    time.sleep(0.5)
    svc.send_signal(signal.SIGTERM)
    svc.wait(timeout=30)
    svc = start(port, "--workers", "1")
    jobs = wait_done(port, ids2)
    assert all(j["result"]["verdict"] == "ok" for j in jobs), jobs
    r = rows()
    assert all(state == "done" and has for _, state, _, has in r), r  # every accepted job done, with a result
    assert len(r) == len({x[0] for x in r}) == 2 + 2 + 2 + 4 + 6 + 3 + 4, len(r)  # ... + the two torch2cuda jobs
    svc.send_signal(signal.SIGTERM)
    svc.wait(timeout=30)
    # 7. a full queue: 429 with Retry-After
    svc = start(port, "--workers", "1", "--queue-limit", "2")
    st, err, headers = call(port, "POST", "/v1/evaluate", {"requests": [{"task": "elementwise/saxpy", "source": variant(200 + i)} for i in range(5)]})
    assert st == 429 and headers.get("Retry-After") and "queue" in err["error"], (st, err)
finally:
    svc.send_signal(signal.SIGTERM)
    svc.wait(timeout=30)
print("serve: ok")
