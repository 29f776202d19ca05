"""The untrusted side of a torch2cuda run (docs/torch2cuda.md, "Process model"): the candidate worker
only launches. The reference (torch_measure.Measurer) owns the buffers, the inputs, the timing and
every check; here, per command on the FIFO from the reference:

  {"cmd": "model", "config": C, "mode": M[, "init_seed": S]}
                                        strict: ModelNew(*init) with the reference weights (strict), eval();
                                        kernelbench: ModelNew(*init) built under seed S, training mode
  {"cmd": "call", "config": C, "values": [...], "profile": bool}
                                        wait on the reference's "ready" event on the current stream,
                                        ModelNew.forward on the shared input buffers, record "done",
                                        copy the outputs into the shared output buffers, record
                                        "copied", reply {"ok": true, "enqueued": true}; then synchronize
                                        and reply {"ok": true} or what went wrong
  {"cmd": "exit"}
  {"cmd": "null", "config": C}          only before the candidate's import (null_calls): a call whose
                                        forward is one trusted one-element kernel and whose outputs are a
                                        trusted tensor of config C's output size (wait on "ready", the
                                        kernel, record "done", copy it into the shared output buffers,
                                        record "copied"); the reference times with it what every call
                                        costs beside the candidate's own work: the handshake and the
                                        output copy that the GPU runs before it switches back

Replies are control flow only: a reply can stop the candidate's own run (an error, a profile finding)
but never raise its verdict or carry a measurement.
"""
from __future__ import annotations

import json
import os
import sys

from cudaperf import torch_measure


class Launcher:
    def __init__(self, w, torch, plan, device):
        """Set-up before the lock-down: the FIFOs, the shared buffers (IPC handles or shared files), the
        IPC events."""
        self.w, self.torch, self.plan, self.device = w, torch, plan, device
        # RDWR, not RDONLY: a FIFO read with no writer returns end-of-file at once, and the reference
        # opens its end only after "go" (the loop below would end before the first command)
        self.cmd = os.open(plan["cmd_fifo"], os.O_RDWR)
        self.rep = os.open(plan["rep_fifo"], os.O_RDWR)  # RDWR: no wait for the reader (the reference opens later)
        self.cmd_file = os.fdopen(self.cmd, "r", buffering=1)
        with open(os.path.join(plan["xdir"], "shared.json"), encoding="utf-8") as f:
            desc = json.load(f)
        self.configs = {}
        for name, c in desc["configs"].items():
            ins = [torch_measure.open_shared(torch, device, d) if d["kind"] == "tensor" else None for d in c["inputs"]]
            outs = [torch_measure.open_shared(torch, device, d) for d in c["outputs"]]
            self.configs[name] = {"index": c["index"], "inputs": ins, "outputs": outs}
        self.events = None
        if device == "cuda":
            dev = torch.cuda.current_device()
            self.events = {n: torch.cuda.Event.from_ipc_handle(dev, bytes.fromhex(h))
                           for n, h in desc["events"].items()}
        # the null call's kernel: with no kernel between "ready" and "done" the GPU never switches to
        # this process's context inside the window
        self.probe = torch.zeros(1, device=device) if device == "cuda" else None
        self.model = None
        self.materialized = 0  # calls whose outputs included a view made dense inside the window

    def reply(self, obj):
        os.write(self.rep, (json.dumps(obj, default=str) + "\n").encode())

    def _read(self):
        """The next command, or None at the end of the FIFO or on a line that is not JSON."""
        line = self.cmd_file.readline()
        try:
            return json.loads(line) if line else None
        except ValueError:
            return None

    def null_calls(self):
        """Before the candidate's import (no candidate code has run): answers the reference's null calls
        (the handshake, one trusted one-element kernel, the copy of trusted outputs of the config's size)
        until its first other command, which it returns."""
        scratch = {}  # config -> trusted tensors shaped as its outputs (what a null call copies out)
        while (cmd := self._read()) is not None and cmd.get("cmd") == "null":
            stream = self.torch.cuda.current_stream() if self.device == "cuda" else None
            c = self.configs.get(cmd.get("config"))
            outs = c["outputs"] if c is not None else []
            if c is not None and cmd["config"] not in scratch:
                scratch[cmd["config"]] = [self.torch.zeros_like(s) for s in outs]
            if stream is not None:
                stream.wait_event(self.events["ready"])
                self.probe.add_(1)  # the context switch into this process, as a real call's first kernel
                self.events["done"].record(stream)
            for s, o in zip(outs, scratch.get(cmd.get("config"), [])):
                s.copy_(o)  # as a real call copies its outputs out, after "done"
            if stream is not None:
                self.events["copied"].record(stream)
            self.reply({"ok": True, "enqueued": True})
            self.w.sync(self.device)
            self.reply({"ok": True})
        del scratch
        if self.device == "cuda":
            self.torch.cuda.empty_cache()  # the scratch outputs' memory back to the device for the candidate
        return cmd

    def serve(self, first, model_new, loader_sources, own_required, test_mode):
        """The command loop, after the lock-down and the candidate's import; `first`: the command
        null_calls stopped at."""
        w = self.w
        own_names = w.torch_static.kernel_names(loader_sources)
        cmd = first
        while cmd is not None:
            op = cmd.get("cmd")
            if op == "exit":
                return
            if op == "model":
                self.reply(self.build(model_new, cmd.get("config"), cmd.get("mode"), cmd.get("init_seed")))
            elif op == "call":
                self.call(cmd, own_names, own_required, test_mode)
            cmd = self._read()

    def build(self, model_new, name, mode=None, init_seed=None):
        """strict: ModelNew(*init) with the reference's weights (load_state_dict, strict=True), eval();
        kernelbench: as KernelBench builds it, ModelNew(*init) under the reference's construction seed,
        training mode, no weights copied (parameters may have other names)."""
        torch = self.torch
        if mode == "kernelbench":
            return self._build_kernelbench(model_new, name, init_seed)
        c = self.configs.get(name)
        if c is None:
            return {"ok": False, "status": "runtime_error", "message": f"unknown config {name!r}"}
        d = os.path.join(self.plan["xdir"], f"cfg{c['index']}")
        try:
            init = torch.load(os.path.join(d, "init.pt"), weights_only=True)
            state = torch.load(os.path.join(d, "state.pt"), weights_only=True)
        except Exception as ex:
            return {"ok": False, "status": "runtime_error", "message": f"internal: cannot read the weights: {ex}"}
        self.model = None
        try:
            m = model_new(*init)
            m.load_state_dict(state, strict=True)
            self.model = m.to(self.device).eval()
        except Exception as ex:
            return {"ok": False, "status": "runtime_error",
                    "message": f"ModelNew(*get_init_inputs()) with the reference weights (load_state_dict, "
                               f"strict=True) failed: {type(ex).__name__}: {str(ex)[:800]}"}
        return {"ok": True}

    def _build_kernelbench(self, model_new, name, init_seed):
        torch, w = self.torch, self.w
        c = self.configs.get(name)
        if c is None or not isinstance(init_seed, int):
            return {"ok": False, "status": "runtime_error", "message": f"unknown config {name!r} or no seed"}
        try:
            init = torch.load(os.path.join(self.plan["xdir"], f"cfg{c['index']}", "init.pt"), weights_only=True)
        except Exception as ex:
            return {"ok": False, "status": "runtime_error", "message": f"internal: cannot read the init inputs: {ex}"}
        self.model = None
        try:
            w.set_seed(init_seed)
            self.model = model_new(*init).to(self.device)
        except Exception as ex:
            return {"ok": False, "status": "runtime_error",
                    "message": f"ModelNew(*get_init_inputs()) failed: {type(ex).__name__}: {str(ex)[:800]}"}
        return {"ok": True}

    def call(self, cmd, own_names, own_required, test_mode):
        torch, w = self.torch, self.w
        c = self.configs.get(cmd.get("config"))
        if c is None or self.model is None:
            self.reply({"ok": False, "status": "runtime_error", "message": "a call before its model"})
            return
        args = [t if t is not None else v for t, v in zip(c["inputs"], cmd.get("values") or [])]
        err, why = None, ""
        kernels = ops = kernel_us = None

        def forward():
            """The candidate's outputs, plain dense tensors on the device, each made dense here (a view's
            layout work runs inside the window, and inside a profiled call's profile, not in the copy
            after "done")."""
            items = w.flatten_outputs(self.model(*args))
            for i, o in enumerate(items):
                if o.device.type != self.device or o.layout != torch.strided or o.is_meta:
                    raise w.OutputTypeError(f"output {i} is on {o.device} ({o.layout}), expected a dense "
                                            f"{self.device} tensor")
            dense = [w.materialize(o) for o in items]
            self.materialized += any(m for _, m in dense)
            return [o for o, _ in dense]

        with w.Watchdog(self.plan.get("call_timeout_s", 10.0)):
            stream = torch.cuda.current_stream() if self.device == "cuda" else None
            try:
                if stream is not None:
                    stream.wait_event(self.events["ready"])
                if cmd.get("profile") and not test_mode:
                    items, kernels, ops, kernel_us = w.profile_call(torch, forward, self.device)
                else:
                    items = forward()
                if len(items) != len(c["outputs"]):
                    raise w.OutputMismatch(f"{len(items)} outputs, expected {len(c['outputs'])}")
                for i, (o, s) in enumerate(zip(items, c["outputs"])):
                    if o.shape != s.shape or o.dtype != s.dtype:
                        raise w.OutputMismatch(f"output {i} has shape {list(o.shape)} {o.dtype}, expected "
                                               f"{list(s.shape)} {s.dtype}")
            except w.OutputTypeError as ex:
                err = {"ok": False, "status": "hack_suspected", "message": f"rule output_type: {ex}"}
            except w.OutputMismatch as ex:
                err = {"ok": False, "status": "wrong_answer", "message": str(ex)}
            except Exception as ex:
                err = {"ok": False, "status": "runtime_error", "message": f"{type(ex).__name__}: {str(ex)[:800]}"}
            # Always both events (the reference's stream waits on them), then the outputs' copy.
            if stream is not None:
                self.events["done"].record(stream)
            if err is None:
                for o, s in zip(items, c["outputs"]):
                    s.copy_(o)
            if stream is not None:
                self.events["copied"].record(stream)
            if err is not None:
                self.reply(err)
                return
            self.reply({"ok": True, "enqueued": True})
            try:
                w.sync(self.device)
            except Exception as ex:
                self.reply({"ok": False, "status": "runtime_error", "message": f"{type(ex).__name__}: {str(ex)[:800]}"})
                return
        if kernels is not None and own_required:
            why = w.judge_profile(kernels, ops, own_names, own_required, kernel_us)
        if why:
            self.reply({"ok": False, "status": "hack_suspected", "message": why + " (a profiled call)"})
        else:
            self.reply({"ok": True})


def fail_fast(reply, status, message):
    """A reply for the reference when the candidate cannot start (its module does not load)."""
    try:
        reply({"ok": False, "status": status, "message": message})
    except OSError:
        print(message, file=sys.stderr)
