"""Where the time of a cross-process torch2cuda call goes (issue 24): the reference's window — its own
event t0 before the IPC "ready" event to its event t1 after the candidate's "done" — around candidate
work of several kinds, against the same work timed in one process. torch only (no cudaperf), one GPU:

    python3 bench/torch_xproc_window.py > window.json

Each kind is timed like torch_measure.Measurer.call times a call: a ~2 ms sleep hides the host's part of
the handshake, the L2 is flushed, the child waits on "ready", works, records "done", then (the
"_then_copy" kinds) copies its result into a shared buffer, as torch_launch.Launcher.call copies the
outputs, and records "copied". The "_then_deferred_copy" kinds queue that copy only after the reference
recorded t1 and a "timed" event (one more round trip; the copy waits on "timed"). Output: the median
window per kind (ms), "xproc_*" across processes, "inproc_*" in one process, "after_*" the reference's
t1 to its event after "copied"; 20 samples each after 5 warm-ups.
"""
from __future__ import annotations

import json
import statistics

import torch
import torch.multiprocessing as mp

N_BIG, N_SMALL = 16 << 20, 1 << 16  # 64 MiB and 256 KiB of float32
KINDS = ("null", "probe", "two_probes", "copy_big", "sum_big", "elu_big", "elu_big_then_copy", "elu_small",
         "elu_small_then_copy", "null_then_deferred_copy", "elu_big_then_deferred_copy")
SLEEP_CYCLES = 1 << 22
WARMUPS, SAMPLES = 5, 20


def work(kind, t, probe):
    """The candidate's work of one kind; its result when it has one to copy out."""
    if kind == "null":
        return None
    if kind in ("probe", "two_probes"):
        for _ in range(2 if kind == "two_probes" else 1):
            probe.add_(1)
        return None
    x = t["xb"] if "big" in kind else t["xs"]
    if kind == "copy_big":
        t["yb"].copy_(x)
        return None
    if kind == "sum_big":
        return x.sum()
    return torch.nn.functional.elu(x)


def open_window(s, flush, t0):
    """As the torch measurer opens a timed window: a sleep that hides the host's part, the L2 flushed, t0."""
    torch.cuda._sleep(SLEEP_CYCLES)
    flush.zero_()
    t0.record(s)


def child(conn, t, handles):
    ev = {k: torch.cuda.Event.from_ipc_handle(0, h) for k, h in handles.items()}
    probe = torch.zeros(1, device="cuda")
    s = torch.cuda.current_stream()
    while (kind := conn.recv()) != "exit":
        s.wait_event(ev["ready"])
        r = work(kind.replace("_then_deferred_copy", ""), t, probe)
        ev["done"].record(s)
        if kind.endswith("_then_deferred_copy"):
            conn.send("done enqueued")
            conn.recv()  # the reference has recorded t1 and "timed"
            s.wait_event(ev["timed"])
        if kind.endswith("_copy"):
            (t["yb"] if "big" in kind or r is None else t["ys"]).copy_(t["xb"] if r is None else r)
        ev["copied"].record(s)
        conn.send("enqueued")
        torch.cuda.synchronize()


def main():
    mp.set_start_method("spawn")
    t = {"xb": torch.randn(N_BIG, device="cuda"), "yb": torch.empty(N_BIG, device="cuda"),
         "xs": torch.randn(N_SMALL, device="cuda"), "ys": torch.empty(N_SMALL, device="cuda")}
    flush = torch.empty(64 << 20, device="cuda")  # 256 MiB, above the H200's 60 MiB of L2
    evs = {k: torch.cuda.Event(interprocess=True) for k in ("ready", "done", "copied", "timed")}
    a, b = mp.Pipe()
    p = mp.Process(target=child, args=(b, t, {k: e.ipc_handle() for k, e in evs.items()}))
    p.start()
    s = torch.cuda.Stream()
    t0, t1, t2 = (torch.cuda.Event(enable_timing=True) for _ in range(3))
    res = {}
    for kind in KINDS:
        ms = []
        for i in range(WARMUPS + SAMPLES):
            with torch.cuda.stream(s):
                open_window(s, flush, t0)
                evs["ready"].record(s)
            a.send(kind)
            a.recv()
            with torch.cuda.stream(s):
                s.wait_event(evs["done"])
                t1.record(s)
                if kind.endswith("_then_deferred_copy"):
                    evs["timed"].record(s)
            if kind.endswith("_then_deferred_copy"):
                a.send("copy")
                a.recv()
            with torch.cuda.stream(s):
                s.wait_event(evs["copied"])
                t2.record(s)
            s.synchronize()
            if i >= WARMUPS:
                ms.append((t0.elapsed_time(t1), t1.elapsed_time(t2)))
        res[f"xproc_{kind}"] = statistics.median(m[0] for m in ms)
        res[f"after_{kind}"] = statistics.median(m[1] for m in ms)
    a.send("exit")
    p.join()
    probe = torch.zeros(1, device="cuda")
    for kind in (k for k in KINDS if "deferred" not in k):
        ms = []
        for i in range(WARMUPS + SAMPLES):
            with torch.cuda.stream(s):
                open_window(s, flush, t0)
                work(kind, t, probe)
                t1.record(s)
            s.synchronize()
            if i >= WARMUPS:
                ms.append(t0.elapsed_time(t1))
        res[f"inproc_{kind}"] = statistics.median(ms)
    print(json.dumps({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                      "median_ms": {k: round(v, 4) for k, v in res.items()}}, indent=1))


if __name__ == "__main__":
    main()
