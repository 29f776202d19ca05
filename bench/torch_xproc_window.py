"""Where the time of a cross-process torch2cuda call goes (issue 24): the reference's window — its own
event t0 before the IPC "ready" event to its event t1 after the candidate's "done" — around candidate
work of several kinds, against the same work timed in one process. torch only (no cudaperf), one GPU:

    python3 bench/torch_xproc_window.py > window.json

Each kind is timed like torch_measure.Measurer.call times a call: a ~2 ms sleep hides the host's part of
the handshake, the L2 is flushed, the child waits on "ready", works, records "done", then (the
"_then_copy" kinds) copies its result into a shared buffer, as torch_launch.Launcher.call copies the
outputs, and records "copied". Output: the median window per kind (ms), "xproc_*" across processes,
"inproc_*" in one process; 20 samples each after 5 warm-ups.
"""
from __future__ import annotations

import json
import statistics

import torch
import torch.multiprocessing as mp

N_BIG, N_SMALL = 16 << 20, 1 << 16  # 64 MiB and 256 KiB of float32
KINDS = ("null", "probe", "two_probes", "copy_big", "sum_big", "elu_big", "elu_big_then_copy", "elu_small",
         "elu_small_then_copy")
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


def child(conn, t, handles):
    ev = {k: torch.cuda.Event.from_ipc_handle(0, h) for k, h in handles.items()}
    probe = torch.zeros(1, device="cuda")
    s = torch.cuda.current_stream()
    while (kind := conn.recv()) != "exit":
        s.wait_event(ev["ready"])
        r = work(kind, t, probe)
        ev["done"].record(s)
        if kind.endswith("_then_copy"):
            (t["yb"] if "big" in kind else t["ys"]).copy_(r)
        ev["copied"].record(s)
        conn.send("enqueued")
        torch.cuda.synchronize()


def main():
    mp.set_start_method("spawn")
    t = {"xb": torch.randn(N_BIG, device="cuda"), "yb": torch.empty(N_BIG, device="cuda"),
         "xs": torch.randn(N_SMALL, device="cuda"), "ys": torch.empty(N_SMALL, device="cuda")}
    flush = torch.empty(64 << 20, device="cuda")  # 256 MiB, above the H200's 60 MiB of L2
    evs = {k: torch.cuda.Event(interprocess=True) for k in ("ready", "done", "copied")}
    a, b = mp.Pipe()
    p = mp.Process(target=child, args=(b, t, {k: e.ipc_handle() for k, e in evs.items()}))
    p.start()
    s = torch.cuda.Stream()
    t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    res = {}
    for kind in KINDS:
        ms = []
        for i in range(WARMUPS + SAMPLES):
            with torch.cuda.stream(s):
                torch.cuda._sleep(SLEEP_CYCLES)
                flush.zero_()
                t0.record(s)
                evs["ready"].record(s)
            a.send(kind)
            a.recv()
            with torch.cuda.stream(s):
                s.wait_event(evs["done"])
                t1.record(s)
                s.wait_event(evs["copied"])
            s.synchronize()
            if i >= WARMUPS:
                ms.append(t0.elapsed_time(t1))
        res[f"xproc_{kind}"] = statistics.median(ms)
    a.send("exit")
    p.join()
    probe = torch.zeros(1, device="cuda")
    for kind in KINDS:
        ms = []
        for i in range(WARMUPS + SAMPLES):
            with torch.cuda.stream(s):
                torch.cuda._sleep(SLEEP_CYCLES)
                flush.zero_()
                t0.record(s)
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
