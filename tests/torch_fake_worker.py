"""A stand-in for python/cudaperf/torch_worker.py (no torch): plays the reference and candidate
roles of the protocol, with CUDAPERF_TEST_SCENARIO choosing how the candidate misbehaves. Used by
tests/check_torch_protocol.sh through CUDAPERF_TORCH_WORKER."""
import json
import os
import signal
import sys
import time

role = sys.argv[1]
from_spare = role == "spare"
if from_spare:  # as the real worker: the role and its arguments come on stdin
    sys.argv = sys.argv[:1] + json.loads(sys.stdin.readline())["argv"]
    role = sys.argv[1]
    if os.environ.get("CUDAPERF_TEST_SCENARIO") == "spare_dies":  # broken since it started: the run retries fresh
        sys.exit(1)
wait_for_go = "--wait-for-go" in sys.argv
argv = [a for a in sys.argv if a != "--wait-for-go"]
args = dict(zip(argv[2::2], argv[3::2]))
ch = os.fdopen(int(args.get("--channel-fd", "1")), "w", buffering=1)
scenario = os.environ.get("CUDAPERF_TEST_SCENARIO", "good")
if scenario == "by_file" and "--candidate" in args:  # several candidates in one run: each file's stem is its scenario
    scenario = os.path.splitext(os.path.basename(args["--candidate"]))[0].rstrip("0123456789")
stem = os.path.splitext(os.path.basename(args.get("--candidate", "reference")))[0]
event_log = os.environ.get("CUDAPERF_TEST_EVENT_LOG", "")


def log(ev):
    """CUDAPERF_TEST_EVENT_LOG: one line per protocol step ("<monotonic ns> <pid> <stem> <step>"),
    appended by every worker, so a test can check the order across workers."""
    if event_log and "--candidate" in args:
        with open(event_log, "a") as f:
            f.write(f"{time.monotonic_ns()} {os.getpid()} {stem} {ev}\n")


first = "go"
if wait_for_go:  # as the real worker: the plan is read after "init" or "go"
    first = sys.stdin.readline().strip()
    log(first or "eof")
    if first not in ("init", "go"):
        sys.exit(0)
plan = json.load(open(args["--plan"]))


def emit(o):
    ch.write(json.dumps(o) + "\n")
    ch.flush()


if role == "reference":
    json.loads(sys.stdin.readline())  # the secret seed
    # too_fast: the perf outputs are 4 GiB, which no GPU writes in the fake's 0.5 ms (rule roofline)
    big = [{"shape": [1 << 30], "dtype": "torch.float32"}] if scenario == "too_fast" else []
    metas = [{"config": c["name"], "index": i, "perf": c["perf"], "trials": 2, "outputs": big if c["perf"] else []}
             for i, c in enumerate(plan["configs"])]
    emit({"event": "ready", "configs": metas, "stages": {"import_s": 0.25, "from_spare": int(from_spare)}})
    for line in sys.stdin:
        cmd = line.split()
        if cmd[:1] == ["compare"]:
            for c in plan["configs"]:
                emit({"event": "compare", "candidate": int(cmd[1]), "config": c["name"], "status": "ok", "message": "fake"})
            emit({"event": "compared", "candidate": int(cmd[1])})
        elif cmd == ["baselines"]:
            for c in plan["configs"]:
                if c["perf"]:
                    emit({"event": "baseline", "config": c["name"], "kind": "eager", "median_ms": 2.0, "samples": 10})
                    emit({"event": "baseline", "config": c["name"], "kind": "compile", "median_ms": 1.0, "samples": 10,
                          "timed_s": 0.125})
    emit({"event": "done"})
    sys.exit(0)

# The candidate's set-up (the real worker's CUDA context, timer, profiler): CUDAPERF_TEST_INIT_S
# seconds; CUDAPERF_TEST_INIT_DIES=<stem> kills the worker of that candidate here, every time, and
# CUDAPERF_TEST_INIT_DIES_ONCE=<stem> only the first time (a marker beside the event log).
time.sleep(float(os.environ.get("CUDAPERF_TEST_INIT_S", "0")))
marker = f"{event_log}.{stem}.died"
if os.environ.get("CUDAPERF_TEST_INIT_DIES") == stem or \
        (os.environ.get("CUDAPERF_TEST_INIT_DIES_ONCE") == stem and event_log and not os.path.exists(marker)):
    if event_log:
        open(marker, "w").close()
    log("died")
    os.kill(os.getpid(), signal.SIGKILL)
if first == "init":
    emit({"event": "initialized", "s": 0.25})
    line = sys.stdin.readline().strip()
    log(line or "eof")
    if line != "go":
        sys.exit(0)
emit({"event": "sandbox", "status": "off (fake)"})
time.sleep(float(os.environ.get("CUDAPERF_TEST_RUN_S", "0")))  # the configs take a while
for i, c in enumerate(plan["ready"]):
    name = c["config"]
    emit({"event": "start", "config": name})
    if scenario == "hang" and i == 1:
        signal.alarm(1)  # the worker's per-call watchdog
        time.sleep(60)
    if scenario == "crash" and i == 1:
        os.kill(os.getpid(), signal.SIGSEGV)
    if scenario == "exit_early" and i == 1:
        os._exit(0)
    if scenario == "oversized":
        ch.write(("{\"event\": \"log\", \"x\": \"" + "A" * 4096 + "\"}\n") * 400)
    res = {"event": "config", "config": name, "status": "done", "message": ""}
    if plan["configs"][c["index"]]["perf"]:
        res.update(median_ms=0.5, min_ms=0.4, q1_ms=0.45, q3_ms=0.55, rel_stdev=0.001, samples=10, timed_calls=12,
                   wall_excess_ms=0.0, stop_reason="converged")
    if scenario == "wrong" and i == 0:
        res.update(status="wrong_answer", message="fake mismatch")
    if scenario == "unknown_status":
        res.update(status="great")
    if scenario == "not_a_number" and "median_ms" in res:
        res["median_ms"] = "fast"
    emit(res)
    if scenario == "duplicate":
        emit(res)
    if scenario == "garbage":
        ch.write("ok ok ok\n")
emit({"event": "done", "stages": {"setup_s": 0.5}})
log("exit")
