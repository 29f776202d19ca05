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


FIFO_TIMEOUT_S = 30.0  # generous: the CPU test machine may be loaded


def read_reply(fd, buf, timeout):
    """(reply dict | "eof" | None on timeout, rest of the buffer), as torch_measure.Channel."""
    import select
    deadline = time.monotonic() + timeout
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, buf
        r, _, _ = select.select([fd], [], [], left)
        if r:
            chunk = os.read(fd, 65536)
            if not chunk:
                return "eof", buf
            buf += chunk
    line, buf = buf.split(b"\n", 1)
    return json.loads(line), buf


if role == "reference":
    json.loads(sys.stdin.readline())  # the secret seed
    # CUDAPERF_TEST_RESTART_FATAL=1: every start after the first (a marker beside the event log) fails
    # before it is ready, as a reference that cannot be restarted
    restarted = bool(event_log) and os.path.exists(f"{event_log}.reference.started")
    if event_log:
        open(f"{event_log}.reference.started", "w").close()
    if scenario == "reference_fatal" or (restarted and os.environ.get("CUDAPERF_TEST_RESTART_FATAL") == "1"):
        # the task's reference fails before it is ready (a task error)
        emit({"event": "fatal", "message": "config 'tiny': get_inputs() returned other shapes under another seed (fake)"})
        sys.exit(2)
    metas = [{"config": c["name"], "index": i, "perf": c["perf"], "trials": 2, "outputs": []}
             for i, c in enumerate(plan["configs"])]
    emit({"event": "ready", "configs": metas, "stages": {"import_s": 0.25, "from_spare": int(from_spare)}})
    for line in sys.stdin:
        cmd = line.split()
        if cmd[:1] == ["run"]:  # the measurer's side of the handshake: a call per config, its own results
            k = int(cmd[1])
            out = None
            deadline = time.monotonic() + FIFO_TIMEOUT_S  # as torch_measure.Channel: never a blocking open
            while out is None and time.monotonic() < deadline:
                try:
                    out = os.open(cmd[2], os.O_WRONLY | os.O_NONBLOCK)
                    os.set_blocking(out, True)
                except OSError:
                    time.sleep(0.01)
            if out is None:
                emit({"event": "measured", "candidate": k, "usable": True, "error": "fake: cannot open the channel"})
                continue
            inp = os.open(cmd[3], os.O_RDONLY | os.O_NONBLOCK)
            buf, stopped, usable = b"", None, True
            for c in plan["configs"]:
                res = {"event": "result", "candidate": k, "config": c["name"], "perf": c["perf"]}
                if stopped:
                    res.update(status="not_run", message="not run")
                    emit(res)
                    continue
                try:
                    os.write(out, (json.dumps({"cmd": "call", "config": c["name"]}) + "\n").encode())
                except OSError:
                    pass
                rep, buf = read_reply(inp, buf, FIFO_TIMEOUT_S)
                if rep is None or rep == "eof":
                    res.update(status="timeout" if rep is None else "ended", message="fake: no reply")
                    stopped = True
                    # CUDAPERF_TEST_STRANDS=1: as torch_measure, a call that never returned leaves the
                    # reference's stream unusable (the engine restarts the reference)
                    usable = os.environ.get("CUDAPERF_TEST_STRANDS") != "1"
                elif not rep.get("ok"):
                    res.update(status=rep.get("status", "runtime_error"), message=rep.get("message", ""))
                    stopped = True
                elif c["perf"] and scenario == "task_error":  # the measurer's own check (torch_measure.TaskError)
                    res.update(status="task_error", message="timed call 0: get_inputs() returned other shapes (fake)")
                    stopped = True
                elif c["perf"] and scenario == "too_fast":
                    res.update(status="hack_suspected", message="rule roofline: median below the floor (fake)")
                else:
                    res.update(status="ok", message="fake")
                    if c["perf"]:
                        res.update(median_ms=0.5, min_ms=0.4, q1_ms=0.45, q3_ms=0.55, rel_stdev=0.001, samples=10,
                                   timed_calls=12, stop_reason="converged")
                emit(res)
            try:
                os.write(out, b'{"cmd": "exit"}\n')
            except OSError:
                pass
            os.close(out)
            os.close(inp)
            emit({"event": "measured", "candidate": k, "usable": usable})
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
cmd_fd = os.open(plan["cmd_fifo"], os.O_RDWR)  # as torch_launch.Launcher, before "go"
rep_fd = os.open(plan["rep_fifo"], os.O_RDWR)
if first == "init":
    emit({"event": "initialized", "s": 0.25})
    line = sys.stdin.readline().strip()
    log(line or "eof")
    if line != "go":
        sys.exit(0)
emit({"event": "sandbox", "status": "off (fake)"})
time.sleep(float(os.environ.get("CUDAPERF_TEST_RUN_S", "0")))  # the configs take a while
i = 0
for line in os.fdopen(cmd_fd, "r"):
    cmd = json.loads(line)
    if cmd.get("cmd") == "exit":
        break
    if scenario == "hang" and i == 1:
        signal.alarm(1)  # the worker's per-call watchdog
        time.sleep(60)
    if scenario == "crash" and i == 1:
        os.kill(os.getpid(), signal.SIGSEGV)
    if scenario == "exit_early" and i == 1:
        os._exit(0)
    # forgeries on the candidate's own channel: results, numbers, noise (none is a harness event)
    if scenario == "oversized":
        ch.write(("{\"event\": \"log\", \"x\": \"" + "A" * 4096 + "\"}\n") * 400)
    if scenario in ("duplicate", "unknown_status", "not_a_number"):
        emit({"event": "config", "config": cmd["config"], "status": "ok" if scenario != "unknown_status" else "great",
              "median_ms": 0.001 if scenario != "not_a_number" else "fast"})
    if scenario == "forged_result":
        emit({"event": "result", "candidate": 0, "config": cmd["config"], "status": "ok", "median_ms": 0.001})
    if scenario == "garbage":
        ch.write("ok ok ok\n")
    reply = {"ok": True}
    if scenario == "wrong" and i == 0:
        reply = {"ok": False, "status": "wrong_answer", "message": "fake mismatch"}
    os.write(rep_fd, (json.dumps(reply) + "\n").encode())
    i += 1
emit({"event": "done", "stages": {"setup_s": 0.5}})
log("exit")
