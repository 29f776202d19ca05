"""The reference role of the torch worker (docs/torch2cuda.md, "Process model"): TRUSTED. Loads
reference.py, draws inputs from the secret seed (read from stdin), computes the expected outputs and
keeps them in this process (not dumpable); then measures each candidate through its FIFOs
(torch_measure.Measurer), compares its outputs and times the eager and torch.compile baselines
(torch_baselines). Nothing of it is reachable from a candidate's process."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING, Any

from cudaperf import torch_hidden
from cudaperf.torch_baselines import preimport_compile, time_baselines
from cudaperf.torch_channel import emit, fatal
from cudaperf.torch_network import NETWORK_TRIES, refuse_network
from cudaperf.torch_outputs import compare, describe_meta, flatten_outputs, same
from cudaperf.torch_problem import (
    Plan,
    apply_config,
    call_family,
    derive_seed,
    draw_inputs,
    eval_mode,
    load_module,
    reference_model,
    set_precision,
    set_seed,
    shape_change,
    to_device,
)
from cudaperf.torch_timer import sync

if TYPE_CHECKING:
    from torch import Tensor
    from torch.nn import Module


def load_reference(plan: Plan, name: str) -> ModuleType:
    """reference.py as a module, or fatal() with what it needs: a module that is not installed, or the
    network at import time (a model downloaded from a hub)."""
    refuse_network()
    try:
        return load_module(plan["reference"], name)
    except ModuleNotFoundError as ex:
        fatal(f"reference.py needs the module '{ex.name}', which is not installed for {sys.executable} "
              f"(missing module; install it where the torch worker runs)")
    except Exception as ex:
        if NETWORK_TRIES:
            fatal(f"reference.py needs network access at import time (tried {NETWORK_TRIES[0]}; the reference runs "
                  f"without a network: vendor what it downloads): {type(ex).__name__}: {str(ex)[:300]}")
        fatal(f"reference.py does not import: {type(ex).__name__}: {str(ex)[:1500]}")


def build_reference(torch: ModuleType, mod: ModuleType, plan: Plan, secret: int, name: str,
                    device: str) -> tuple[list[Any], Module, dict[str, Any]]:
    """The reference Model of one config: (init, model, notes). Built under its seed; strict: float
    scalars of get_init_inputs perturbed and identity-valued parameters randomised (torch_hidden),
    eval() mode; kernelbench: as KernelBench builds it (training mode, nothing changed). When the
    perturbed scalars do not build, the problem's own are kept (noted)."""
    init_seed = derive_seed(secret, name, "init")
    set_seed(init_seed)
    init = list(mod.get_init_inputs())
    notes: dict[str, Any] = {}
    tries = [init]
    if eval_mode(plan) == "strict":
        perturbed, n = torch_hidden.perturb_scalars(init, torch_hidden.rng(secret, name, "scalars"))
        if n:
            tries.insert(0, perturbed)
    for k, args in enumerate(tries):
        set_seed(init_seed)
        try:
            model = mod.Model(*args).to(device)
        except Exception:
            if k + 1 < len(tries):
                notes["scalars"] = "as written (the perturbed ones do not build)"
                continue
            raise
        if eval_mode(plan) == "strict":
            model.eval()
            if len(tries) == 2 and k == 0:
                notes["scalars_perturbed"] = sum(type(v) is float for v in init)  # noqa: E721
            notes["params_randomized"] = len(torch_hidden.randomize_identities(
                torch, model, derive_seed(secret, name, "params")))
        return args, model, notes
    raise AssertionError("unreachable")


PROBES = 3


def probe_families(torch: ModuleType, mod: ModuleType, plan: Plan, model: Module, secret: int, name: str,
                   device: str) -> list[str]:
    """The hidden families whose inputs give finite outputs of this reference at this config (strict
    mode; the problem's own always): PROBES draws each, every output finite."""
    if eval_mode(plan) != "strict":
        return ["as_written"]
    kept = ["as_written"]
    for fam in torch_hidden.FAMILIES[1:]:
        try:
            for j in range(PROBES):
                xs = to_device(draw_inputs(torch, mod, plan, derive_seed(secret, name, "probe", fam, j), fam), device)
                if not torch_hidden.outputs_finite(torch, flatten_outputs(model(*xs))):
                    break
            else:
                kept.append(fam)
        except Exception:  # a family the problem's inputs cannot take (a domain error): left out
            pass
        finally:
            if device == "cuda":
                torch.cuda.empty_cache()
    return kept


def reference_role(args: argparse.Namespace, t_start: float, from_spare: bool) -> int:
    """t_start: when this role began (a spare's: when its role came); from_spare: started ahead as a
    spare (torch imported before its role came)."""
    import torch
    plan = json.load(open(args.plan, encoding="utf-8"))
    set_precision(torch, plan)
    secret_line = sys.stdin.readline()
    try:
        secret = int(json.loads(secret_line)["seed"])
    except (ValueError, KeyError, TypeError):
        fatal("no secret seed on standard input")
    device = plan["device"]
    mod = load_reference(plan, f"cudaperf_reference_{os.getpid()}")
    originals = {k: getattr(mod, k) for c in plan["configs"] for k in c.get("globals", {}) if hasattr(mod, k)}
    validate = plan.get("mode") == "validate"
    xdir = plan["xdir"]
    torch.set_grad_enabled(False)
    expected, pristine_inputs, models = {}, {}, {}
    ref_errors = {}  # per config, per call, per output: the float32 reference's error (torch_hidden.reference_error)
    problems, metas = [], []
    stages = {"import_s": time.monotonic() - t_start, "inputs_s": 0.0, "save_s": 0.0,  # where the reference's time goes
              "from_spare": int(from_spare)}
    plan["families"] = {}  # per config, decided below (probe_families)
    hidden = {"mode": eval_mode(plan), "families": plan["families"]}
    for ci, cfg in enumerate(plan["configs"]):
        if validate and cfg["perf"]:
            continue
        name = cfg["name"]
        apply_config(mod, originals, cfg)
        try:
            init, model, notes = build_reference(torch, mod, plan, secret, name, device)
            state = {k: v.detach().to("cpu").clone() for k, v in model.state_dict().items()}
        except Exception as ex:
            fatal(f"config '{name}': the reference Model cannot be built: {type(ex).__name__}: {ex}")
        hidden.setdefault("configs", {})[name] = notes
        kept = plan["families"][name] = probe_families(torch, mod, plan, model, secret, name, device)
        trials = int(plan.get("trials", 3))
        n = 2 if cfg["perf"] else max(trials, len(kept) if eval_mode(plan) == "strict" else trials)
        # perf: the problem's own inputs (the baselines and calibration use them); small: one call per family
        fams = ["as_written"] * n if cfg["perf"] else torch_hidden.trial_families(kept, secret, name, n)
        sets, outs, errs = [], [], []
        # the float32 reference's own error on hidden draws (torch_hidden, "Conditioning"): strict mode only
        # (training mode's dropout draws differently in a float64 copy)
        model64 = (torch_hidden.float64_model(model) if eval_mode(plan) == "strict" and
                   any(f != "as_written" for f in fams) else None)
        for k in range(n):
            try:
                seed_k = derive_seed(secret, name, "inputs", k)
                xs, pristine, out = draw_and_run(torch, mod, plan, model, seed_k, fams[k], device, stages)
                if fams[k] != "as_written" and not torch_hidden.outputs_finite(torch, out):
                    fams[k] = "as_written"  # an unlucky draw of a kept family: this call uses the problem's own
                    xs, pristine, out = draw_and_run(torch, mod, plan, model, seed_k, fams[k], device, stages)
                err = [0.0] * len(out)
                if fams[k] != "as_written" and model64 is not None:
                    err = torch_hidden.reference_error(torch, model64, to_device(pristine, device), out)
                    if any(e > torch_hidden.MAX_SLACK_OF_RMS * torch_hidden.rms(torch, o) for e, o in zip(err, out)):
                        fams[k] = "as_written"  # ill-conditioned: the float32 answer is mostly rounding
                        xs, pristine, out = draw_and_run(torch, mod, plan, model, seed_k, fams[k], device, stages)
                        err = [0.0] * len(out)
                out = [o.detach().clone() for o in out]  # kept on the device: compared there
                if validate:
                    run2 = to_device([x.clone() if isinstance(x, torch.Tensor) else x for x in xs], device)
                    out2 = [o.detach() for o in flatten_outputs(model(*run2))]
                    for i, (a, b) in enumerate(zip(out, out2)):
                        if not same(a, b):
                            hint = ("; training mode: dropout or batch statistics?" if eval_mode(plan) == "kernelbench"
                                    else "")
                            problems.append(f"config '{name}': the reference is not deterministic (output {i} "
                                            f"differs bitwise between two runs on the same inputs{hint})")
                        if a.is_floating_point() and not bool(torch.isfinite(a).all()):
                            problems.append(f"config '{name}': the reference produced NaN or inf in output {i}")
            except Exception as ex:
                if NETWORK_TRIES:
                    fatal(f"config '{name}': the reference needs network access (tried {NETWORK_TRIES[0]}): "
                          f"{type(ex).__name__}: {str(ex)[:300]}")
                fatal(f"config '{name}': the reference failed: {type(ex).__name__}: {ex}")
            sets.append(pristine)
            outs.append(out)
            errs.append(err)
        # The engine reuses each config's input and output buffers across calls (allocated from call 0):
        # one shape per input and output. validate: a problem; a run: a task error (fatal before "ready",
        # reported as the task's, never as a candidate's verdict).
        changed = next((m for k in range(1, n) for m in (shape_change(torch, "get_inputs()", sets[0], sets[k]),
                                                          shape_change(torch, "the reference Model", outs[0], outs[k]))
                        if m), "")
        if changed and validate:
            problems.append(f"config '{name}': {changed}")
        elif changed:
            fatal(f"config '{name}': {changed}")
        expected[name] = outs
        ref_errors[name] = errs
        del model64
        pristine_inputs[name] = sets
        models[name] = (init, state)
        # the output scale of the problem's own inputs (set 0): atol of other families scales from it
        ref_rms = [torch_hidden.rms(torch, o) for o in outs[0]]
        meta = {"config": name, "index": ci, "perf": cfg["perf"], "trials": n, "outputs": describe_meta(outs[0]),
                "families": fams, "ref_rms": ref_rms}
        metas.append(meta)
        if not validate:
            t_save = time.monotonic()
            d = os.path.join(xdir, f"cfg{ci}")
            os.makedirs(d, exist_ok=True)
            torch.save(init, os.path.join(d, "init.pt"))
            torch.save(state, os.path.join(d, "state.pt"))
            stages["save_s"] += time.monotonic() - t_save
        del model
    if validate:
        nulls = null_battery(torch, plan, expected, pristine_inputs, {m["config"]: m["ref_rms"] for m in metas})
        emit({"event": "validate", "problems": sorted(set(problems)), "nulls": nulls, "hidden": hidden})
        emit({"event": "done"})
        return 0
    if device == "cuda":
        torch.cuda.empty_cache()
    for meta in metas:  # what the roofline floor counts: input and output bytes, FLOPs where known
        name = meta["config"]
        meta["input_bytes"] = sum(x.numel() * x.element_size() for x in pristine_inputs[name][0]
                                  if isinstance(x, torch.Tensor))
        meta["output_bytes"] = sum(o.numel() * o.element_size() for o in expected[name][0])
        cfg = next(c for c in plan["configs"] if c["name"] == name)
        if "floor_bytes" in cfg:  # task.toml cost: what a correct kernel must move, in place of the sum above
            meta["floor_bytes"] = cfg["floor_bytes"]
        apply_config(mod, originals, cfg)
        meta["flops"] = count_flops(torch, mod, plan, models[name], pristine_inputs[name][0], device)
    from cudaperf import torch_measure
    measurer = torch_measure.Measurer(measurer_helpers(), torch, plan, mod, secret, metas, expected,
                                      pristine_inputs, models, lambda m, c: apply_config(m, originals, c),
                                      ref_errors=ref_errors)
    emit({"event": "ready", "configs": metas, "stages": stages, "hidden": hidden})
    preimport = None
    if plan.get("baselines"):
        # torch.compile's modules (dynamo, Inductor, Triton) take seconds to import: import them now,
        # beside the candidates' runs (this process only waits for commands then), not when the
        # baselines start (they wait for it: no two threads importing Inductor at once). CPU only.
        import threading
        preimport = threading.Thread(target=preimport_compile, daemon=True)
        preimport.start()
    # Phase 2: the supervisor runs each candidate in turn, then asks for its comparison:
    #   "compare K PATH"  the outputs candidate K wrote to PATH; events carry "candidate": K and end
    #                     with {"event": "compared", "candidate": K}
    #   "baselines"       eager PyTorch and torch.compile, timed on the same inputs
    # until its standard input closes.
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        cmd = line.split()
        if cmd[:1] == ["run"] and len(cmd) == 4:
            # "run K CMD REP": measure candidate K through its FIFOs (torch_measure.Measurer.run)
            k = int(cmd[1])
            try:
                chan = torch_measure.Channel(cmd[2], cmd[3])
            except OSError as ex:
                emit({"event": "measured", "candidate": k, "usable": True, "error": f"cannot open its channel: {ex}"})
                continue
            usable = measurer.run(k, chan)
            chan.close()
            emit({"event": "measured", "candidate": k, "usable": usable})
            if not usable:  # a call left this process's stream waiting on the candidate: a fresh reference goes on
                emit({"event": "done", "stages": stages})
                return 0
        elif cmd == ["baselines"] and plan.get("baselines"):
            if preimport is not None:
                preimport.join()
            for cfg in plan["configs"]:
                if cfg["perf"] and cfg["name"] in expected:
                    apply_config(mod, originals, cfg)
                    time_baselines(torch, mod, plan, cfg, models[cfg["name"]], pristine_inputs[cfg["name"]])
    emit({"event": "done"})
    return 0


def draw_and_run(torch: ModuleType, mod: ModuleType, plan: Plan, model: Any, seed: int, family: str, device: str,
                 stages: dict[str, Any]) -> tuple[list[Any], list[Any], list[Tensor]]:
    """One reference-set call's inputs drawn from `family` (as drawn, and a pristine copy) and the
    reference's outputs on them; the drawing time is added to stages["inputs_s"]."""
    t_in = time.monotonic()
    xs = draw_inputs(torch, mod, plan, seed, family)
    sync(device)
    stages["inputs_s"] += time.monotonic() - t_in
    pristine = [x.clone() if isinstance(x, torch.Tensor) else x for x in xs]
    run = to_device([x.clone() if isinstance(x, torch.Tensor) else x for x in xs], device)
    return xs, pristine, flatten_outputs(model(*run))


def count_flops(torch: ModuleType, mod: ModuleType, plan: Plan, model_state: tuple[list[Any], dict[str, Tensor]],
                xs: list[Any], device: str) -> int:
    """FLOPs of one reference call where PyTorch knows them (matmuls, convolutions, attention:
    torch.utils.flop_counter); 0 when it cannot count."""
    try:
        from torch.utils.flop_counter import FlopCounterMode
        model = reference_model(torch, mod, *model_state, device, train=eval_mode(plan) == "kernelbench")
        with FlopCounterMode(display=False) as fc:
            model(*to_device(xs, device))
        return int(fc.get_total_flops())
    except Exception:
        return 0


def null_battery(torch: ModuleType, plan: Plan, expected: dict[str, list[list[Tensor]]],
                 inputs: dict[str, list[list[Any]]], ref_rms: dict[str, list[float]]) -> dict[str, dict[str, int]]:
    """zeros, a constant (the output's mean), a copy of the first input: each must fail somewhere
    (compared as candidates are: atol scaled per call by torch_hidden.tol_scale)."""
    rtol, atol = plan["rtol"], plan["atol"]
    res = {}
    for null in ("zeros", "constant", "input_copy"):
        tested = rejected = 0
        for name, outs in expected.items():
            if null == "constant" and all(e.numel() <= 1 for e in outs[0]):
                continue  # a scalar's own mean is its value: not a null answer
            tested += 1
            bad = False
            for k, want in enumerate(outs):
                xs = inputs[name][k]
                for i, e in enumerate(want):
                    if null == "zeros":
                        g = torch.zeros_like(e)
                    elif null == "constant":
                        g = torch.full_like(e, float(e.double().mean()) if e.numel() else 0.0) if \
                            e.is_floating_point() else torch.full_like(e, int(e.double().mean()) if e.numel() else 0)
                    else:
                        first = next((x for x in xs if isinstance(x, torch.Tensor)), None)
                        if first is None or first.shape != e.shape:
                            bad = True
                            break
                        g = first.to(e.dtype)
                    if compare(e, g, rtol, atol * torch_hidden.tol_scale(torch, e, ref_rms[name][i]), "out"):
                        bad = True
                        break
                if bad:
                    break
            rejected += bad
        res[null] = {"tested": tested, "rejected": rejected}
    return res


def measurer_helpers() -> SimpleNamespace:
    """What torch_measure.Measurer calls back into (its `w`)."""
    return SimpleNamespace(emit=emit, eval_mode=eval_mode, derive_seed=derive_seed, compare=compare, same=same,
                           draw_inputs=draw_inputs, shape_change=shape_change, to_device=to_device,
                           flatten_outputs=flatten_outputs, reference_model=reference_model, call_family=call_family)
