"""The eager PyTorch and torch.compile baselines of a torch2cuda task, timed by the reference
(torch_timer.Timer, torch_timing.measure) on the inputs the candidates were timed on; and the warm
role, which fills the on-disk Inductor cache before the timed baselines ask for it."""
from __future__ import annotations

import argparse
import functools
import json
import os
import time
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from cudaperf import torch_timing
from cudaperf.torch_channel import emit
from cudaperf.torch_problem import (
    Config,
    Plan,
    apply_config,
    draw_inputs,
    eval_mode,
    load_module,
    reference_model,
    set_precision,
    set_seed,
    to_device,
)
from cudaperf.torch_timer import Timer, sync

if TYPE_CHECKING:
    from torch import Tensor


def warm_role(args: argparse.Namespace) -> int:
    """torch.compile of the reference at each perf config, run once, so that the on-disk Inductor
    cache holds the compiled graphs before the timed baselines ask for them (a task's compile takes
    seconds to a minute; many tasks warm in parallel). Nothing here is timed or trusted."""
    import torch
    plan = json.load(open(args.plan, encoding="utf-8"))
    set_precision(torch, plan)
    device = plan["device"]
    mod = load_module(plan["reference"], f"cudaperf_warm_{os.getpid()}")
    originals = {k: getattr(mod, k) for c in plan["configs"] for k in c.get("globals", {}) if hasattr(mod, k)}
    torch.set_grad_enabled(False)
    for cfg in plan["configs"]:
        if not cfg["perf"]:
            continue
        t0 = time.monotonic()
        try:
            apply_config(mod, originals, cfg)
            set_seed(1)
            model = mod.Model(*list(mod.get_init_inputs())).to(device)
            model.train(eval_mode(plan) == "kernelbench")
            xs = to_device(draw_inputs(torch, mod, plan, 2, "as_written"), device)
            torch.compile(model)(*xs)
            sync(device)
            emit({"event": "done", "config": cfg["name"], "seconds": time.monotonic() - t0})
        except Exception as ex:
            emit({"event": "fatal", "config": cfg["name"], "message": f"{type(ex).__name__}: {str(ex)[:300]}"})
        finally:
            if device == "cuda":
                torch.cuda.empty_cache()
    return 0


def preimport_compile() -> None:
    """Imports torch.compile's modules (dynamo, Inductor) in a thread beside the candidates' runs."""
    try:  # at lower priority (Linux: per thread): the candidate beside it has the CPU first. Not
        # below the background builds (`nice 10` in tools/gpu-check.sh): at nice 15 it starved behind
        # them and the baselines waited 6-24 s for it (2026-12-01 H200 run, 3 of 24 tasks).
        import threading
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 5)
    except (AttributeError, OSError):
        pass
    try:
        import torch._dynamo  # noqa: F401
        import torch._inductor.compile_fx  # noqa: F401
    except Exception:  # the baselines report their own errors
        pass



def time_baselines(torch: ModuleType, mod: ModuleType, plan: Plan, cfg: Config,
                   model_state: tuple[list[Any], dict[str, Tensor]], sets: list[list[Any]]) -> None:
    device = plan["device"]
    init, state = model_state
    name = cfg["name"]
    timer = Timer(device)
    for kind in ("eager", "compile"):
        t0 = time.monotonic()
        try:
            model = reference_model(torch, mod, init, state, device, train=eval_mode(plan) == "kernelbench")
            fn = model
            if kind == "compile":
                fn = torch.compile(model)
            priv = [to_device(s, device) for s in sets]
            stats, warm_s, timed_s = time_calls(torch, timer, fn, priv, plan.get("timing", {}))
            emit(dict(stats, event="baseline", config=name, kind=kind, warmup_s=warm_s,
                      timed_s=timed_s, setup_s=time.monotonic() - t0))
        except Exception as ex:
            emit({"event": "baseline", "config": name, "kind": kind,
                  "error": f"{type(ex).__name__}: {str(ex).splitlines()[0][:300] if str(ex) else ''}"})
        finally:
            if device == "cuda":
                torch.cuda.empty_cache()


def time_calls(torch: ModuleType, timer: Timer, fn: Callable[..., Any], priv: list[list[Any]],
               t: dict[str, Any]) -> tuple[dict[str, Any], float, float]:
    """(stats, warm-up seconds, timed seconds) of fn on the two input sets priv, alternating, after two
    warm-up calls; t: the plan's "timing" (torch_timing.measure's stopping rule)."""
    call_in = [x.clone() if isinstance(x, torch.Tensor) else x for x in priv[0]]

    def call() -> Any:
        return fn(*call_in)

    def prepare(k: int) -> None:
        for dst, src in zip(call_in, priv[k]):
            if isinstance(dst, torch.Tensor):
                dst.copy_(src)
    first = time.monotonic()
    for k in (0, 1):  # warm-up, identical to the timed calls (compiles here)
        timer.run(call, functools.partial(prepare, k))
    warm_s = time.monotonic() - first
    idx = [0]

    def sample() -> tuple[float, bool]:
        k = idx[0] % 2
        idx[0] += 1
        _, ms, _ = timer.run(call, lambda: prepare(k))
        return ms, timer.throttled()
    t_loop = time.monotonic()
    stats = torch_timing.measure(sample, **torch_timing.stopping_rule(t))
    return stats, warm_s, time.monotonic() - t_loop
