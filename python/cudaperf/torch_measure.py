"""The trusted side of a torch2cuda candidate's run (docs/torch2cuda.md, "Process model"): the
reference process owns every buffer the candidate sees, hands in fresh inputs per call, times each
call with its own events around an IPC-event handshake, and checks a secret random subset of the
timed outputs against its own reference outputs on the same inputs. The candidate's process
(torch_launch.py) only launches: nothing it writes is a measurement.

This module: the secret call schedule and the judgements (standard library, tested without torch),
the shared buffers (CUDA IPC allocations with guard regions; shared files on the CPU of the test
mode), and the per-candidate loop `run_candidate` (torch imported by the caller).
"""
from __future__ import annotations

import json
import math
import os
import random
import select
import time

# Calls at a perf size: each timed call is checked after the fact with probability CHECK_P and
# profiled (inside the candidate's process: a necessary check only) with probability PROFILE_P; at
# least MIN_CHECKED / MIN_PROFILED of each, extra calls after the loop when the loop had fewer (the
# candidate cannot tell an extra call from a timed one). Profiled calls are not timed samples.
CHECK_P, PROFILE_P = 0.15, 0.1
MIN_CHECKED, MIN_PROFILED, MAX_CHECKED = 3, 2, 8
WARMUPS = 2
HANDSHAKE_CALLS = 8    # null calls per candidate and perf config (the first one not counted)
GUARD_BYTES = 2 << 20  # guard region before and after every shared buffer (its own allocation)
POISON = 0xFF          # output bytes before every call (NaN for floats, -1 for integers)
GUARD = 0xA5
# Tensor-core dense peak of the H200 for 16-bit formats: a floor from FLOPs at this rate holds for any
# dtype a candidate could compute an fp32 task in within its tolerance (fp8 cannot meet it).
PEAK_FLOPS = 989e12
PEAK_BYTES_PER_S = 4.8e12
# after_window: the copy after "done" may take twice a copy of the output bytes, plus AFTER_SLACK_MS, plus
# AFTER_SLACK_OF_WINDOW of the call's median. An honest call of a long kernel sometimes has the GPU
# switch to the reference's context at "done" and back for the copy (H200, 2026-12-04: residual-add
# LayerNorm's 12.6 ms naive kernel, after 0.367 ms against a 0.086 ms copy); work a candidate leaves
# for after "done" gains it at most that fraction of its time.
AFTER_SLACK_MS = 0.05
AFTER_SLACK_OF_WINDOW = 0.05


class Schedule:
    """Which calls are checked and which are profiled: drawn from a generator seeded by the
    reference's secret (never sent to the candidate before the call, and the candidate sees only the
    profile flag of the call it runs)."""

    def __init__(self, secret, config):
        self.rng = random.Random(f"{secret}/{config}/schedule")
        self.checked, self.profiled = [], []

    def flags(self, i):
        check = len(self.checked) < MAX_CHECKED and self.rng.random() < CHECK_P
        profile = not check and self.rng.random() < PROFILE_P
        if check:
            self.checked.append(i)
        if profile:
            self.profiled.append(i)
        return check, profile

    def extra(self):
        """Flags for the calls still owed after the loop: [(check, profile), ...]."""
        out = [(True, False)] * max(0, MIN_CHECKED - len(self.checked))
        out += [(False, True)] * max(0, MIN_PROFILED - len(self.profiled))
        self.rng.shuffle(out)
        return out


def floor_ms(meta):
    """The roofline floor of one call (ms): the bytes moved (the task's `cost = { bytes }`, meta["floor_bytes"],
    else every input and output byte once) at the datasheet bandwidth, or the FLOPs at the tensor-core peak."""
    moved = meta.get("floor_bytes", meta.get("input_bytes", 0) + meta.get("output_bytes", 0))
    return max(moved / PEAK_BYTES_PER_S, (meta.get("flops") or 0) / PEAK_FLOPS) * 1e3


def judge_window(median_ms, floor, pre_ms, pre_calibrated_ms, after_ms, after_calibrated_ms):
    """'' or the rule a perf config's timing breaks:
    - a median that is missing, zero, negative or not finite, or below the roofline floor;
    - pre_window: the reference's own work before the window (inputs in, outputs poisoned, L2 flushed)
      took far longer than when no candidate existed: the candidate's context ran GPU work there
      (a persistent kernel computing ahead of the window);
    - after_window: the candidate's copy of its outputs into the shared buffers, after the window,
      took far longer than a copy of those bytes (AFTER_SLACK_*): work was left for after the done event."""
    if median_ms is None or not math.isfinite(median_ms) or median_ms <= 0:
        return f"rule roofline: the median {median_ms} ms is not a positive finite time"
    if median_ms < floor:
        return (f"rule roofline: median {median_ms:.4f} ms is below {floor:.4f} ms, the time to move the task's bytes "
                f"once at the GPU's peak bandwidth (or do its FLOPs at the tensor-core peak)")
    if pre_calibrated_ms is not None and pre_ms is not None and pre_ms > 1.5 * pre_calibrated_ms + 0.05:
        return (f"rule pre_window: the reference's set-up before each window took {pre_ms:.3f} ms against "
                f"{pre_calibrated_ms:.3f} ms before the candidate existed (GPU work of the candidate outside its call)")
    if after_calibrated_ms is not None and after_ms is not None:
        limit = 2.0 * after_calibrated_ms + AFTER_SLACK_MS + AFTER_SLACK_OF_WINDOW * median_ms
        if after_ms > limit:
            return (f"rule after_window: the copy of the outputs after the done event took {after_ms:.3f} ms against "
                    f"{after_calibrated_ms:.3f} ms for a copy of those bytes, {limit:.3f} ms allowed "
                    f"(work left for after the timed window)")
    return ""


def median(xs):
    s = sorted(x for x in xs if x is not None)
    if not s:
        return None
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


# ---------------------------------------------------------------- the handshake channel

class Channel:
    """The reference's end of one candidate's FIFOs: JSON lines out (commands) and in (replies),
    every read bounded by a deadline. A reply is control flow, never a number of the verdict."""

    def __init__(self, cmd_path, rep_path, open_timeout_s=30.0):
        deadline = time.monotonic() + open_timeout_s
        self.out = None
        while self.out is None:  # the candidate opened its read end at "init": this succeeds at once
            try:
                self.out = os.open(cmd_path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        os.set_blocking(self.out, True)
        self.inp = os.open(rep_path, os.O_RDONLY | os.O_NONBLOCK)
        self.buf = b""
        self.closed = False

    def send(self, obj):
        data = (json.dumps(obj) + "\n").encode()
        try:
            os.write(self.out, data)
            return True
        except OSError:  # the candidate is gone (EPIPE)
            self.closed = True
            return False

    def recv(self, timeout_s):
        """The next reply (a dict), None on timeout, "eof" when the candidate closed its end."""
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.inp], [], [], min(left, 0.5))
            if not r:
                continue
            chunk = os.read(self.inp, 1 << 16)
            if not chunk:
                # a FIFO reads EOF also before its writer opened it: the candidate opened it at init, so
                # EOF here means it ended
                self.closed = True
                return "eof"
            self.buf += chunk
            if len(self.buf) > 1 << 20:
                return {"ok": False, "status": "hack_suspected", "message": "rule result_channel: oversized reply"}
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            obj = json.loads(line)
        except ValueError:
            return {"ok": False, "status": "hack_suspected", "message": "rule result_channel: a reply that is not JSON"}
        return obj if isinstance(obj, dict) else {"ok": False, "status": "hack_suspected",
                                                  "message": "rule result_channel: a reply that is not an object"}

    def close(self):
        for fd in (self.out, self.inp):
            try:
                os.close(fd)
            except OSError:
                pass


# ---------------------------------------------------------------- shared buffers

class _CAI:
    """A raw device allocation as torch sees it (__cuda_array_interface__, bytes)."""

    def __init__(self, ptr, n):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": "|u1", "data": (ptr, False), "version": 2}


def cudart():
    """The CUDA runtime torch loaded (found by its soname: no second copy)."""
    import ctypes
    for name in ("libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise OSError("no CUDA runtime library to share buffers with the candidate")


class SharedBuffers:
    """Every buffer a candidate sees: each in its own allocation (cudaMalloc: an IPC handle maps that
    allocation only, never the caching allocator's neighbours such as the expected outputs), between
    guard regions of GUARD_BYTES filled with GUARD. On the CPU (test mode) the same in shared files."""

    def __init__(self, torch, device, xdir):
        self.torch, self.device, self.xdir = torch, device, xdir
        self.items = []  # (whole uint8 tensor, ptr or path)
        self.rt = cudart() if device == "cuda" else None

    def alloc(self, dtype, shape):
        """(tensor of dtype/shape over the buffer, descriptor the candidate opens it from)."""
        import ctypes
        torch = self.torch
        elem = torch.empty((), dtype=dtype).element_size()
        nbytes = max(1, math.prod(shape)) * elem
        total = nbytes + 2 * GUARD_BYTES
        if self.device == "cuda":
            ptr = ctypes.c_void_p()
            if self.rt.cudaMalloc(ctypes.byref(ptr), ctypes.c_size_t(total)) != 0:
                raise RuntimeError(f"cudaMalloc of {total} bytes failed")
            handle = (ctypes.c_char * 64)()
            if self.rt.cudaIpcGetMemHandle(handle, ptr) != 0:
                raise RuntimeError("cudaIpcGetMemHandle failed")
            whole = torch.as_tensor(_CAI(ptr.value, total), device="cuda")
            desc = {"handle": bytes(handle).hex(), "total": total}
            self.items.append((whole, ptr))
        else:
            path = os.path.join(self.xdir, f"shared-{len(self.items)}.bin")
            whole = torch.from_file(path, shared=True, size=total, dtype=torch.uint8)
            desc = {"path": path, "total": total}
            self.items.append((whole, path))
        whole.fill_(GUARD)
        view = whole[GUARD_BYTES:GUARD_BYTES + nbytes].view(dtype)[:math.prod(shape)].view(shape) if nbytes else \
            torch.empty(shape, dtype=dtype, device=self.device)
        desc.update(offset=GUARD_BYTES, nbytes=nbytes, dtype=str(dtype).replace("torch.", ""), shape=list(shape))
        return view, desc

    def guards_intact(self):
        for whole, _ in self.items:
            if not bool((whole[:GUARD_BYTES] == GUARD).all()) or not bool((whole[-GUARD_BYTES:] == GUARD).all()):
                return False
        return True

    def reset_guards(self):
        for whole, _ in self.items:
            whole[:GUARD_BYTES].fill_(GUARD)
            whole[-GUARD_BYTES:].fill_(GUARD)


def open_shared(torch, device, desc):
    """The candidate's side: the tensor over one shared buffer (before the lock-down: opening an IPC
    handle or mapping a file needs calls the filter refuses later)."""
    import ctypes
    dtype = getattr(torch, desc["dtype"])
    n = math.prod(desc["shape"])
    if device == "cuda":
        rt = cudart()
        ptr = ctypes.c_void_p()

        class Handle(ctypes.Structure):
            _fields_ = [("reserved", ctypes.c_char * 64)]
        h = Handle()
        ctypes.memmove(ctypes.byref(h), bytes.fromhex(desc["handle"]), 64)
        if rt.cudaIpcOpenMemHandle(ctypes.byref(ptr), h, ctypes.c_uint(1)) != 0:
            raise RuntimeError("cudaIpcOpenMemHandle failed")
        whole = torch.as_tensor(_CAI(ptr.value, desc["total"]), device="cuda")
    else:
        whole = torch.from_file(desc["path"], shared=True, size=desc["total"], dtype=torch.uint8)
    if not desc["nbytes"]:
        return torch.empty(desc["shape"], dtype=dtype, device=device)
    return whole[desc["offset"]:desc["offset"] + desc["nbytes"]].view(dtype)[:n].view(desc["shape"])


# ---------------------------------------------------------------- the measurer (reference process)

class TaskError(Exception):
    """A call's own inputs or reference outputs changed shape (shape_change): the task's defect, "task_error"."""


class CandidateGone(Exception):
    """The candidate ended or stopped answering: the config's status comes from how its process ended."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


class Measurer:
    """One run's trusted measurement state: shared buffers per config, the IPC events, the timing
    stream, the flush buffer; `run(k, chan)` measures candidate k through its channel."""

    def __init__(self, w, torch, plan, mod, secret, metas, expected, pristine, models, apply_config, ref_errors=None):
        self.w, self.torch, self.plan, self.mod, self.secret = w, torch, plan, mod, secret
        self.ref_errors = ref_errors or {}  # config -> call -> output: torch_hidden.reference_error
        self.device = plan["device"]
        self.metas = {m["config"]: m for m in metas}
        self.expected, self.pristine, self.models, self.apply_config = expected, pristine, models, apply_config
        self.buffers = SharedBuffers(torch, self.device, plan["xdir"])
        self.shared = {}  # config -> (inputs [(tensor or None, value)], outputs [tensor])
        desc = {"configs": {}}
        for cfg in plan["configs"]:
            name = cfg["name"]
            if name not in expected:
                continue
            ins, in_desc = [], []
            for x in pristine[name][0]:
                if isinstance(x, torch.Tensor):
                    t, d = self.buffers.alloc(x.dtype, tuple(x.shape))
                    ins.append(t)
                    in_desc.append(dict(d, kind="tensor"))
                else:
                    ins.append(None)
                    in_desc.append({"kind": "value"})
            outs, out_desc = [], []
            for e in expected[name][0]:
                t, d = self.buffers.alloc(e.dtype, tuple(e.shape))
                outs.append(t)
                out_desc.append(d)
            self.shared[name] = (ins, outs)
            desc["configs"][name] = {"index": self.metas[name]["index"], "inputs": in_desc, "outputs": out_desc}
        self.cuda = self.device == "cuda"
        if self.cuda:
            ev = lambda: torch.cuda.Event(interprocess=True)  # noqa: E731
            self.ready, self.done, self.copied = ev(), ev(), ev()
            desc["events"] = {n: e.ipc_handle().hex() for n, e in (("ready", self.ready), ("done", self.done),
                                                                    ("copied", self.copied))}
            self.stream = torch.cuda.Stream()
            timing = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
            self.p0, self.t0, self.t1, self.t2, self.slept = timing(), timing(), timing(), timing(), torch.cuda.Event()
            from cudaperf import torch_timer
            self.flush = torch_timer.flush_buffer(torch)  # config/timing.toml [l2_flush]
            self.sleep_cycles = self._calibrate_sleep()
        with open(os.path.join(plan["xdir"], "shared.json"), "w") as f:
            json.dump(desc, f)

    # -- GPU helpers
    def _calibrate_sleep(self):
        """Cycles of torch.cuda._sleep that last about 2 ms (the handshake must fit in the sleep)."""
        torch = self.torch
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        torch.cuda._sleep(1_000_000)
        b.record()
        b.synchronize()
        ms = max(a.elapsed_time(b), 1e-3)
        return int(1_000_000 * 2.0 / ms)

    def _wait(self, event, seconds):
        deadline = time.monotonic() + seconds
        while not event.query():
            if time.monotonic() > deadline:
                return False
            time.sleep(2e-5)
        return True

    def _set_up(self, ins, xs, outs):
        """The reference's own work before a window, the same in timed calls and in their calibration: fresh
        inputs into the shared buffers, outputs poisoned, and on the GPU the L2 flushed (on the current stream)."""
        for t, x in zip(ins, xs):
            if t is not None:
                t.copy_(x)
        for o in outs:
            if o.numel():
                o.view(self.torch.uint8).fill_(POISON)
        if self.cuda:
            self.flush.zero_()

    # -- one call
    def call(self, chan, name, xs, check, profile, timed, null=False):
        """Runs one call of config `name` on inputs xs (the reference's tensors): inputs copied into the
        shared buffers, outputs poisoned, L2 flushed, the handshake; returns (ms or None when the sample
        must be discarded, pre_ms, after_ms, outputs copy when `check`, inputs-mutated message).
        null: a null call at config `name` (see handshake()); xs is empty."""
        torch = self.torch
        ins, outs = self.shared[name] if not null else ([], [])
        values = [None if t is not None else (x if isinstance(x, (int, float, bool, str)) or x is None else repr(x))
                  for t, x in zip(ins, xs)]
        timeout = float(self.plan.get("call_timeout_s", 10.0)) + 5.0
        cmd = ({"cmd": "call", "config": name, "values": values, "profile": bool(profile)} if not null
               else {"cmd": "null", "config": name})
        if self.cuda:
            # The inputs were drawn on the current stream; this stream (non-blocking) must not copy them
            # before they are written (an unordered copy gave every honest impl "input modified").
            self.stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(self.stream):
                if timed and not profile:
                    torch.cuda._sleep(self.sleep_cycles)  # host latency of the handshake stays out of the window
                self.slept.record(self.stream)
                self.p0.record(self.stream)
                self._set_up(ins, xs, outs)
                self.t0.record(self.stream)
                self.ready.record(self.stream)
        else:
            self._set_up(ins, xs, outs)
            w0 = time.perf_counter()
        if not chan.send(cmd):
            raise CandidateGone("ended", "the candidate's channel closed")
        rep = chan.recv(timeout)
        still_sleeping = self.cuda and not self.slept.query()
        if rep is None:
            raise CandidateGone("timeout", f"the call was not enqueued within {timeout:.0f} s")
        if rep == "eof":
            raise CandidateGone("ended", "the candidate ended during a call")
        if self.cuda:
            with torch.cuda.stream(self.stream):
                self.stream.wait_event(self.done)
                self.t1.record(self.stream)
                self.stream.wait_event(self.copied)
                self.t2.record(self.stream)
                got = [o.clone() for o in outs] if check else None
            fin = chan.recv(timeout) if rep.get("ok") and rep.get("enqueued") else rep
            if not self._wait(self.t2, timeout):
                raise CandidateGone("timeout", f"the call did not finish on the GPU within {timeout:.0f} s")
            self.stream.synchronize()
        else:
            fin = chan.recv(timeout) if rep.get("ok") and rep.get("enqueued") else rep
            got = [o.clone() for o in outs] if check else None
        if fin is None:
            raise CandidateGone("timeout", f"the call did not finish within {timeout:.0f} s")
        if fin == "eof":
            raise CandidateGone("ended", "the candidate ended during a call")
        if not fin.get("ok"):
            st = fin.get("status", "runtime_error")
            st = st if st in ("runtime_error", "wrong_answer", "hack_suspected") else "runtime_error"
            raise CandidateGone(st, str(fin.get("message", ""))[:2000])
        mutated = ""
        if check:
            for j, (t, x) in enumerate(zip(ins, xs)):
                if t is not None and not _same(torch, t, x.to(t.device)):
                    mutated = f"input {j} was modified by the call"
        if self.cuda:
            ms = self.t0.elapsed_time(self.t1)
            pre, after = self.p0.elapsed_time(self.t0), self.t1.elapsed_time(self.t2)
            if timed and not profile and not still_sleeping:  # the handshake outlasted the sleep: discard
                self.sleep_cycles = min(self.sleep_cycles * 2, 1 << 34)
                return None, pre, after, got, mutated
            return ms, pre, after, got, mutated
        ms = (time.perf_counter() - w0) * 1e3
        return ms, None, None, got, mutated

    def handshake(self, chan, name):
        """The median window of HANDSHAKE_CALLS null calls at config `name`, timed exactly like timed calls
        but answered by the candidate's process before it imports the candidate
        (torch_launch.Launcher.null_calls: one trusted one-element kernel, then trusted outputs of the
        config's size copied out after "done"): what every call costs beside the candidate's own work —
        the GPU context switches between the two processes, and the output copy, which the GPU runs
        before it switches back to the reference's t1 (bench/torch_xproc_window.py) — subtracted from
        every timed sample as the C-to-CUDA measurer subtracts its handshake. No candidate code has run
        when it is measured, so the candidate cannot inflate it."""
        got = []
        for _ in range(3 * (HANDSHAKE_CALLS + 1)):
            ms = self.call(chan, name, [], False, False, True, null=True)[0]
            if ms is not None:
                got.append(ms)
            if len(got) > HANDSHAKE_CALLS:
                break
        return median(got[1:]) if len(got) > 1 else 0.0  # the first pays for first touches

    def calibrate(self, name, xs):
        """The reference's own set-up before a window (inputs in, outputs poisoned, L2 flushed) and a copy
        of the output bytes, timed with no candidate call: what pre_window and after_window compare with."""
        if not self.cuda:
            return None, None
        torch = self.torch
        ins, outs = self.shared[name]
        pres, copies = [], []
        scratch = [torch.empty_like(o) for o in outs]
        # on the device first, as a timed call's inputs are (_draw): copied from the host here, the set-up
        # took 19-42 ms against 0.1-0.2 ms in the timed calls (H200, 2026-12-04), and pre_window never fired
        xs = self.w.to_device(xs, self.device)
        self.stream.wait_stream(torch.cuda.current_stream())  # xs written on the current stream
        for _ in range(5):
            with torch.cuda.stream(self.stream):
                self.p0.record(self.stream)
                self._set_up(ins, xs, outs)
                self.t0.record(self.stream)
                for s, o in zip(scratch, outs):
                    s.copy_(o)
                self.t1.record(self.stream)
            self.stream.synchronize()
            pres.append(self.p0.elapsed_time(self.t0))
            copies.append(self.t0.elapsed_time(self.t1))
        return median(pres), median(copies)

    # -- one candidate
    def run(self, k, chan):
        """Measures candidate k, config by config; emits one "result" per config (or per config the
        candidate did not reach, "not_run") and returns whether the reference is still usable (a call
        stuck on the GPU leaves its stream waiting on the candidate's event)."""
        usable = True
        stopped, gone = None, ""
        self.handshake_ms = {}  # perf config -> ms
        try:
            for c in self.plan["configs"]:
                if c["perf"] and c["name"] in self.expected:
                    self.handshake_ms[c["name"]] = self.handshake(chan, c["name"])
        except CandidateGone as ex:  # before the candidate's import: its process did not start right
            stopped = ex.status
            usable = ex.status not in ("timeout", "ended")
            gone = f"before the candidate was imported: {ex.message}"
        for cfg in self.plan["configs"]:
            name = cfg["name"]
            if name not in self.expected:
                continue
            res = {"event": "result", "candidate": k, "config": name, "perf": bool(cfg["perf"])}
            if stopped:  # the first config says why the candidate stopped before its import; later ones: not run
                if gone:
                    res.update(status=stopped, message=gone)
                    gone = ""
                else:
                    res.update(status="not_run", message="not run: the candidate had stopped earlier")
                self.w.emit(res)
                continue
            t_cfg = time.monotonic()
            try:
                self.apply_config(self.mod, cfg)
                res.update(self._config(k, chan, cfg))
            except CandidateGone as ex:
                res.update(status=ex.status, message=ex.message)
                stopped = ex.status
                usable = ex.status not in ("timeout", "ended")
            except TaskError as ex:  # the task's defect (its shapes changed under the secret seed): no verdict
                res.update(status="task_error", message=str(ex)[:2000])
                stopped = "task_error"
            except Exception as ex:  # the reference's own failure: never the candidate's verdict
                res.update(status="internal", message=f"{type(ex).__name__}: {str(ex)[:600]}")
                stopped = "internal"
            res["seconds"] = time.monotonic() - t_cfg
            if res["status"] not in ("ok",) and not stopped:
                stopped = res["status"]
            self.w.emit(res)
        if usable and not chan.closed:
            chan.send({"cmd": "exit"})
        return usable

    def _config(self, k, chan, cfg):
        name = cfg["name"]
        meta = self.metas[name]
        # kernelbench: ModelNew(*init) built under the reference's construction seed (derived from the
        # secret, never the secret; it predicts no input), no weights copied
        cmd = {"cmd": "model", "config": name, "mode": self.w.eval_mode(self.plan)}
        if cmd["mode"] == "kernelbench":
            cmd["init_seed"] = self.w.derive_seed(self.secret, name, "init")
        chan.send(cmd)
        rep = chan.recv(float(self.plan.get("call_timeout_s", 10.0)) * 6 + 30)
        if rep is None or rep == "eof":
            raise CandidateGone("timeout" if rep is None else "ended", "the candidate did not build ModelNew")
        if not rep.get("ok"):
            raise CandidateGone(rep.get("status", "runtime_error") if rep.get("status") in
                                ("runtime_error", "hack_suspected", "wrong_answer") else "runtime_error",
                                str(rep.get("message", ""))[:2000])
        self.buffers.reset_guards()
        rtol, atol = self.plan["rtol"], self.plan["atol"]
        if not cfg["perf"]:
            return self._small(chan, name, meta, rtol, atol)
        return self._perf(chan, name, meta, rtol, atol)

    def _guards(self):
        return "" if self.buffers.guards_intact() else \
            "a write outside the output (the guard regions around the shared buffers changed)"

    def _small(self, chan, name, meta, rtol, atol):
        sets, want = self.pristine[name], self.expected[name]
        first = None
        for t in range(len(sets)):
            _, _, _, got, mutated = self.call(chan, name, sets[t], True, True, False)
            if mutated:
                return {"status": "input_mutated", "message": f"call {t + 1}: {mutated}"}
            if g := self._guards():
                return {"status": "out_of_bounds", "message": f"call {t + 1}: {g}"}
            errs = (self.ref_errors.get(name) or [[]] * len(sets))[t]
            for i, (e, x) in enumerate(zip(want[t], got)):
                m = self.w.compare(e, x, rtol, self._atol(name, i, e, atol, errs), f"output {i}")
                if m:
                    return {"status": "wrong_answer", "message": f"call {t + 1} (fresh inputs): {m}"}
            if t == 0:
                first = got
                _, _, _, again, _ = self.call(chan, name, sets[0], True, False, False)
                for i, (a, b) in enumerate(zip(first, again)):
                    if self.plan.get("deterministic"):
                        if not self.w.same(a, b):
                            why = self.w.compare(a, b, 0, 0, f"output {i}")
                            return {"status": "nondeterministic", "message": "two runs on the same inputs differ "
                                    f"bitwise (the task declares deterministic = true): {why}"}
                    elif m := self.w.compare(a, b, 2 * rtol, 2 * atol, f"output {i}"):
                        return {"status": "nondeterministic", "message": f"two runs on the same inputs differ: {m}"}
        return {"status": "ok", "message": f"{len(sets)} call(s) match the reference", "calls": len(sets) + 1}

    def _atol(self, name, i, expected, atol, errs):
        """atol for output i of one call: scaled to the call's output size (_scale), plus SLACK_FACTOR times
        the float32 reference's own error on its inputs (errs, torch_hidden "Conditioning")."""
        from cudaperf import torch_hidden
        slack = errs[i] if i < len(errs) else 0.0
        return atol * self._scale(name, i, expected) + torch_hidden.SLACK_FACTOR * slack

    def _scale(self, name, i, expected):
        """atol's factor for output i of one call (torch_hidden.tol_scale: 1 on the problem's own inputs)."""
        from cudaperf import torch_hidden
        ref = self.metas[name].get("ref_rms") or []
        return torch_hidden.tol_scale(self.torch, expected, ref[i] if i < len(ref) else 0.0)

    def _draw(self, name, i):
        """The inputs of call i of a perf config: drawn fresh from the secret seed (no call sees inputs an
        earlier call saw), on the device."""
        seed = self.w.derive_seed(self.secret, name, "call", i)
        xs = self.w.draw_inputs(self.torch, self.mod, self.plan, seed, config=name)
        # the shared buffers have call 0's shapes: other shapes are the task's defect (a copy would fail or broadcast)
        if changed := self.w.shape_change(self.torch, "get_inputs()", self.pristine[name][0], xs):
            raise TaskError(f"timed call {i}: {changed}")
        return self.w.to_device(xs, self.device), seed

    def _perf(self, chan, name, meta, rtol, atol):
        from cudaperf import torch_timing
        torch = self.torch
        sched = Schedule(self.secret, name)
        handshake = self.handshake_ms.get(name, 0.0)
        pre_cal, copy_cal = self.calibrate(name, self.pristine[name][0])
        n = [0]
        kept = []  # (call index, seed, outputs)
        pres, afters = [], []
        problem = {}

        def one(check, profile, timed=True):
            i = n[0]
            n[0] += 1
            xs, seed = self._draw(name, i)
            ms, pre, after, got, mutated = self.call(chan, name, xs, check, profile, timed)
            if mutated and not problem:
                problem.update(status="input_mutated", message=f"timed call {i}: {mutated}")
            if check:
                kept.append((i, seed, got))
            if ms is not None and not profile:
                pres.append(pre)
                afters.append(after)
            return ms
        for _ in range(WARMUPS):  # warm-up calls: identical to timed ones (fresh inputs, same handshake)
            one(False, False)

        def sample():
            while True:
                check, profile = sched.flags(n[0])
                ms = one(check, profile)
                if profile:
                    continue  # profiled calls are not samples
                if ms is None:
                    continue  # the handshake outlasted the sleep: discarded, the sleep is longer now
                # GPU windows only: the CPU test mode's wall-clock samples (the protocol, not a
                # measurement) would mostly fall to zero
                return max(0.0, ms - handshake) if self.cuda else ms
        t = self.plan.get("timing", {})
        t0 = time.monotonic()
        stats = torch_timing.measure(sample, **torch_timing.stopping_rule(t))
        for check, profile in sched.extra():
            one(check, profile, timed=False)
        timed_s = time.monotonic() - t0
        res = dict(stats, status="ok", message="", timed_calls=n[0], timed_s=timed_s, checked=len(kept),
                   profiled=len(sched.profiled), handshake_ms=handshake)
        if problem:
            res.update(problem)
            return res
        if g := self._guards():
            res.update(status="out_of_bounds", message=g)
            return res
        # After the fact: the reference computes the checked calls' expected outputs on the same inputs.
        init, state = self.models[name]
        from cudaperf import torch_hidden
        strict = self.w.eval_mode(self.plan) == "strict"
        model = self.w.reference_model(self.torch, self.mod, init, state, self.device,
                                       train=self.w.eval_mode(self.plan) == "kernelbench")
        model64 = None
        for i, seed, got in kept:
            xs = self.w.to_device(self.w.draw_inputs(torch, self.mod, self.plan, seed, config=name), self.device)
            want = [o.detach() for o in self.w.flatten_outputs(model(*xs))]
            if changed := self.w.shape_change(torch, "the reference Model", self.expected[name][0], want):
                raise TaskError(f"timed call {i}: {changed}")
            errs = []
            if strict and self.w.call_family(self.plan, seed, name) != "as_written":
                if model64 is None:  # made once, at the first hidden-family call checked
                    model64 = torch_hidden.float64_model(model)
                errs = torch_hidden.reference_error(torch, model64, xs, want)
            for j, (e, x) in enumerate(zip(want, got)):
                m = self.w.compare(e, x, rtol, self._atol(name, j, e, atol, errs), f"output {j}")
                if m:
                    res.update(status="wrong_answer",
                               message=f"timed call {i} (one of {len(kept)} checked after the fact, fresh inputs): {m}")
                    return res
        del model, model64
        floor, pre_m, after_m = floor_ms(meta), median(pres), median(afters)
        res.update(floor_ms=floor, pre_window_ms=pre_m, pre_calibrated_ms=pre_cal, after_window_ms=after_m,
                   after_calibrated_ms=copy_cal)
        if stats.get("stop_reason") == "failed":
            res.update(status="runtime_error", message="the timing loop failed")
        elif why := judge_window(stats.get("median_ms"), floor, pre_m, pre_cal, after_m, copy_cal):
            res.update(status="hack_suspected", message=why)
        else:
            res["message"] = f"{len(kept)} timed call(s) checked after the fact match the reference"
        return res


def _same(torch, a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point():
        return bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all())
    return torch.equal(a, b)
