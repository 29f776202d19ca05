#!/usr/bin/env python3
"""Load test of the reward service (issue 6): N candidates through `cudaperf serve`, one worker
killed with SIGKILL mid-batch; checks that every accepted job finishes exactly once and reports
throughput and latency.

Candidates (deterministic from --seed): the tasks' own implementations, each made distinct by a
trailing comment (so every one is a cold compile, as in RL where samples differ); broken variants
(a syntax error; an index mutation that skips the first block and runs past the end); exact
duplicates of earlier requests (answered from the store); and every tests/redteam/*.cu file against
elementwise/saxpy. A sequential baseline (`cudaperf eval` one candidate at a time, the way a plain
reward function would call it) runs on a sample of the same candidates in the same session.

  bench/serve_load.py --cudaperf BIN --root TASKS --out DIR [--n 1000] [--deadline-s 520]
  bench/serve_load.py --cudaperf BIN --root TASKS --out DIR --resume STATE_DIR   # finish a stopped run

With --deadline-s the run stops the service cleanly when time is up (jobs left running are
requeued by the next start) and leaves store.sqlite + state.json in --out for --resume.
"""
import argparse, json, os, random, shutil, signal, sqlite3, statistics, subprocess, sys, time, urllib.request, glob

# ------------------------------------------------------------------------------- candidates

def load_pool(root, repo):
    tasks = {}
    for toml in sorted(glob.glob(os.path.join(root, "c2cuda", "*", "*", "task.toml"))):
        d = os.path.dirname(toml)
        tid = os.path.basename(os.path.dirname(d)) + "/" + os.path.basename(d)
        impls = sorted(glob.glob(os.path.join(d, "impls", "*.cu")))
        tasks[tid] = [(os.path.basename(p)[:-3], open(p).read()) for p in impls]
    redteam = [(os.path.basename(p)[:-3], open(p).read()) for p in sorted(glob.glob(os.path.join(repo, "tests", "redteam", "*.cu")))]
    return tasks, redteam


def mutate_index(src):
    """blockIdx.x -> (blockIdx.x + 1) once: skips the first block, runs past the end."""
    i = src.find("blockIdx.x")
    return None if i < 0 else src[:i] + "(blockIdx.x + 1)" + src[i + len("blockIdx.x"):]


def make_candidates(tasks, redteam, n, seed):
    rng = random.Random(seed)
    out = []  # (task, kind, name, source)
    if "elementwise/saxpy" in tasks:
        for name, src in redteam:
            out.append(("elementwise/saxpy", "redteam", name, src))
    ids = sorted(tasks)
    k = 0
    while len(out) < n:
        # a GRPO-like group: 16 samples of one task
        tid = ids[k % len(ids)]
        k += 1
        for _ in range(16):
            if len(out) >= n:
                break
            name, src = rng.choice(tasks[tid])
            tag = f"\n// load-test sample {len(out)}\n"
            r = rng.random()
            if r < 0.70:
                out.append((tid, "impl", name, src + tag))
            elif r < 0.80:
                out.append((tid, "compile_error", name, "this line is not C++;\n" + src + tag))
            elif r < 0.95 and mutate_index(src):
                out.append((tid, "mutated", name, mutate_index(src) + tag))
            elif out:
                prev = rng.choice([c for c in out if c[0] == tid] or out)
                out.append((prev[0], "duplicate", prev[2], prev[3]))
            else:
                out.append((tid, "impl", name, src + tag))
    return out[:n]

# ------------------------------------------------------------------------------- HTTP

def call(url, path, body=None, timeout=60):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def wait_healthy(url, proc, limit=120):
    t0 = time.time()
    while time.time() - t0 < limit:
        if proc.poll() is not None:
            raise SystemExit(f"serve exited with {proc.returncode}")
        try:
            call(url, "/healthz", timeout=2)
            return
        except Exception:
            time.sleep(0.3)
    raise SystemExit("serve did not come up")


def worker_pids(service_pid):
    out = subprocess.run(["pgrep", "-P", str(service_pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]


def pct(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(q / 100 * (len(xs) - 1)))))]

# ------------------------------------------------------------------------------- main

def add_run_stages(totals, res):
    """Adds one result's share of its GPU run's stage seconds to totals (a batch's run is shared by
    its jobs, so each job counts 1/batch of it)."""
    for key, val in (res.get("run_stages") or {}).items():
        if isinstance(val, (int, float)):
            totals[key] = totals.get(key, 0.0) + val / max(1, res.get("batch", 1))


def summarize_store(path):
    """What a store says about a run that may not have finished: no state.json needed."""
    rows = sqlite3.connect(path).execute("SELECT state, created, finished, result FROM jobs").fetchall()
    states, verdicts, run_totals = {}, {}, {}
    done = [r for r in rows if r[0] == "done" and r[3]]
    for r in rows:
        states[r[0]] = states.get(r[0], 0) + 1
    for r in done:
        res = json.loads(r[3])
        verdicts[res.get("verdict", "?")] = verdicts.get(res.get("verdict", "?"), 0) + 1
        add_run_stages(run_totals, res)
    span = max(r[2] for r in done) - min(r[1] for r in rows) if done else 0.0
    return {"store": os.path.basename(path), "jobs": len(rows), "states": states, "verdicts": verdicts,
            "first_created_to_last_finished_s": round(span, 3),
            "done_per_min": round(60 * len(done) / span, 2) if span > 0 else None,
            "run_stages_per_done_job_s": {k: round(v / len(done), 4) for k, v in sorted(run_totals.items())} if done else {}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaperf")
    ap.add_argument("--root")
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--out")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--port", type=int, default=18080)
    ap.add_argument("--workers-per-gpu", type=int, default=4)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--time-budget", type=float, default=0.1)
    ap.add_argument("--kill-at", type=float, default=0.3, help="kill -9 a busy worker when this share of jobs is done")
    ap.add_argument("--deadline-s", type=float, default=0, help="stop cleanly after this long (0: run to the end)")
    ap.add_argument("--sequential", type=int, default=12, help="candidates for the one-at-a-time `cudaperf eval` baseline")
    ap.add_argument("--resume", help="folder with store.sqlite and state.json of a stopped run")
    ap.add_argument("--summarize-store", metavar="STORE",
                    help="only summarize a store.sqlite (e.g. of a run killed before its report): states, verdicts, "
                         "done jobs per minute from the first job created to the last finished, GPU-run stages per job")
    a = ap.parse_args()
    if a.summarize_store:
        print(json.dumps(summarize_store(a.summarize_store), indent=1))
        return 0
    if not (a.cudaperf and a.root and a.out):
        ap.error("--cudaperf, --root and --out are required (unless --summarize-store)")
    os.makedirs(a.out, exist_ok=True)
    t_start = time.time()
    store = os.path.join(a.out, "store.sqlite")
    log = open(os.path.join(a.out, "serve.log"), "a")
    if a.resume:
        state = json.load(open(os.path.join(a.resume, "state.json")))
        if os.path.abspath(a.resume) != os.path.abspath(a.out):
            for f in ("store.sqlite", "store.sqlite-wal"):
                if os.path.exists(os.path.join(a.resume, f)):
                    shutil.copy(os.path.join(a.resume, f), os.path.join(a.out, f))
        state["resumed"] = state.get("resumed", 0) + 1
    else:
        tasks, redteam = load_pool(a.root, a.repo)
        cands = make_candidates(tasks, redteam, a.n, a.seed)
        state = {"n": len(cands), "kinds": {}, "ids": [], "kind_of": {}, "submit_s": [], "killed": None, "resumed": 0,
                 "segments": []}
        for c in cands:
            state["kinds"][c[1]] = state["kinds"].get(c[1], 0) + 1

    serve = subprocess.Popen([a.cudaperf, "serve", "--root", a.root, "--store", store, "--port", str(a.port),
                              "--workers-per-gpu", str(a.workers_per_gpu), "--batch", str(a.batch),
                              "--time-budget", str(a.time_budget), "--queue-limit", str(a.n * 2)],
                             stdout=log, stderr=log, cwd=a.repo)
    url = f"http://127.0.0.1:{a.port}"
    wait_healthy(url, serve)
    seg0 = time.time()
    if not a.resume:
        ids = []
        for i in range(0, len(cands), 64):
            chunk = cands[i:i + 64]
            r = call(url, "/v1/evaluate", {"requests": [{"task": c[0], "source": c[3]} for c in chunk]})
            for c, j in zip(chunk, r["jobs"]):
                ids.append(j["id"])
                state["kind_of"][j["id"]] = c[1]
        state["ids"] = ids
        state["submit_s"].append(time.time() - seg0)
        print(f"submitted {len(ids)} requests ({len(set(ids))} distinct jobs) in {time.time() - seg0:.1f} s", flush=True)
    unique = sorted(set(state["ids"]))
    last_print, done = 0, 0
    stopped_early = False
    while True:
        r = call(url, "/v1/jobs", {"ids": unique}, timeout=120)
        done = sum(1 for j in r["jobs"] if j["state"] == "done")
        if done == len(unique):
            break
        if state["killed"] is None and done >= a.kill_at * len(unique):
            running = {j["id"] for j in r["jobs"] if j["state"] == "running"}
            pids = worker_pids(serve.pid)
            # the busiest worker: the one whose jobs are running (any worker when unsure)
            if pids and running:
                victim = pids[0]
                os.kill(victim, signal.SIGKILL)
                state["killed"] = {"pid": victim, "at_done": done, "running_then": len(running), "t": time.time() - seg0}
                print(f"killed worker pid {victim} with SIGKILL at {done}/{len(unique)} done ({len(running)} running)", flush=True)
        if time.time() - last_print > 15:
            last_print = time.time()
            print(f"[{time.time() - t_start:6.0f} s] {done}/{len(unique)} done", flush=True)
        if a.deadline_s and time.time() - t_start > a.deadline_s:
            stopped_early = True
            break
        time.sleep(1)
    state["segments"].append({"start": seg0, "end": time.time(), "done_at_end": done})
    final = call(url, "/v1/jobs", {"ids": unique}, timeout=120)
    metrics = urllib.request.urlopen(url + "/metrics", timeout=10).read().decode()
    serve.send_signal(signal.SIGTERM)
    try:
        serve.wait(timeout=60)
    except subprocess.TimeoutExpired:
        serve.kill()
    # Fold the WAL into the database file, so store.sqlite alone is the whole store (what --resume carries).
    ck = sqlite3.connect(store)
    ck.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    ck.close()
    for f in (store + "-wal", store + "-shm"):
        if os.path.exists(f) and os.path.getsize(f) == 0:
            os.remove(f)
    json.dump(state, open(os.path.join(a.out, "state.json"), "w"))
    open(os.path.join(a.out, "metrics.txt"), "w").write(metrics)
    if stopped_early:
        part = summarize_store(store)  # what the run so far says (throughput, stages), before any resume
        json.dump(part, open(os.path.join(a.out, "serve-store-summary.json"), "w"), indent=1)
        print(json.dumps(part, indent=1), flush=True)
        print(f"deadline: stopped with {done}/{len(unique)} done; resume with --resume {a.out}", flush=True)
        return 3

    # ---- exactly once: read the store itself
    db = sqlite3.connect(store)
    rows = db.execute("SELECT id, state, attempts, created, started, finished, result FROM jobs").fetchall()
    by_id = {r[0]: r for r in rows}
    missing = [i for i in unique if i not in by_id]
    not_done = [i for i in unique if i in by_id and by_id[i][1] != "done"]
    no_result = [i for i in unique if i in by_id and not by_id[i][6]]
    attempts = {}
    for i in unique:
        attempts[by_id[i][2]] = attempts.get(by_id[i][2], 0) + 1
    verdicts, by_kind, lat, svc, batch, by_gpu = {}, {}, [], [], [], {}
    run_totals = {}  # seconds per stage summed over the GPU runs (a batch's run is shared by its jobs)
    for i in unique:
        res = json.loads(by_id[i][6])
        v = res.get("verdict", "?")
        verdicts[v] = verdicts.get(v, 0) + 1
        k = state["kind_of"].get(i, "?")
        by_kind.setdefault(k, {}).setdefault(v, 0)
        by_kind[k][v] += 1
        lat.append(by_id[i][5] - by_id[i][3])
        svc.append(by_id[i][5] - by_id[i][4])
        batch.append(res.get("batch", 1))
        by_gpu[res.get("gpu", "?")] = by_gpu.get(res.get("gpu", "?"), 0) + 1
        add_run_stages(run_totals, res)
    # wall time of the service segments (a resumed run counts each segment, not the gap)
    wall = sum(s["end"] - s["start"] for s in state["segments"])
    redteam_ok = [i for i in unique if state["kind_of"].get(i) == "redteam" and json.loads(by_id[i][6]).get("verdict") == "ok" and json.loads(by_id[i][6]).get("final")]
    report = {
        "requests": len(state["ids"]), "distinct_jobs": len(unique), "dedupe_hits": len(state["ids"]) - len(unique),
        "kinds": state["kinds"], "lost": len(missing), "not_done": len(not_done), "without_result": len(no_result),
        "attempts": attempts, "killed": state["killed"], "service_restarts": state["resumed"],
        "verdicts": verdicts, "verdicts_by_kind": by_kind, "redteam_ok": len(redteam_ok),
        "wall_s": wall, "jobs_per_min": 60 * len(unique) / wall if wall > 0 else None,
        "latency_s": {"p50": pct(lat, 50), "p99": pct(lat, 99), "max": max(lat)},
        "service_time_s": {"p50": pct(svc, 50), "p99": pct(svc, 99)},
        "batch_size_mean": statistics.mean(batch),
        "jobs_by_gpu": by_gpu,
        "run_stages_total_s": {k: round(v, 3) for k, v in sorted(run_totals.items())},
        "run_stages_per_job_s": {k: round(v / len(unique), 4) for k, v in sorted(run_totals.items())} if unique else {},
        "options": {"workers_per_gpu": a.workers_per_gpu, "batch": a.batch, "time_budget_s": a.time_budget},
    }
    # ---- the one-at-a-time baseline, same session, same kind of candidates
    if a.sequential > 0:
        tasks, redteam = load_pool(a.root, a.repo)
        sample = [c for c in make_candidates(tasks, redteam, a.n, a.seed + 1) if c[1] == "impl"][: a.sequential]
        tmpd = os.path.join(a.out, "seq")
        os.makedirs(tmpd, exist_ok=True)
        t0 = time.time()
        seq_verdicts = {}
        for k, c in enumerate(sample):
            f = os.path.join(tmpd, f"c{k}.cu")
            open(f, "w").write(c[3] + f"\n// sequential baseline {k}\n")
            p = subprocess.run([a.cudaperf, "eval", "--root", a.root, "--task", c[0], "--candidate", f, "--json",
                                "--time-budget", str(a.time_budget)], capture_output=True, text=True, cwd=a.repo)
            try:
                v = json.loads(p.stdout)["verdict"]
            except Exception:
                v = "no-json"
            seq_verdicts[v] = seq_verdicts.get(v, 0) + 1
        dt = time.time() - t0
        per_min = 60 * len(sample) / dt if sample and dt > 0 else None
        report["sequential_baseline"] = {"candidates": len(sample), "wall_s": dt, "per_min": per_min,
                                         "verdicts": seq_verdicts}
        report["speedup_vs_sequential"] = report["jobs_per_min"] / per_min if per_min and report["jobs_per_min"] else None
    ok = not missing and not not_done and not no_result and not redteam_ok
    report["exactly_once"] = ok
    json.dump(report, open(os.path.join(a.out, "serve-load.json"), "w"), indent=1)
    print(json.dumps(report, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
