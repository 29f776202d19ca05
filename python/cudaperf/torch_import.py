"""Small configs for imported KernelBench problems (`cudaperf import-kernelbench`, docs/torch2cuda.md).

A KernelBench file has one size (its module-level constants); the null-solution battery and the
small-config checks need a smaller one. Candidates are derived from the constants that get_inputs /
get_init_inputs use: every integer of at least 16 divided by the same factor (64, 16, 4, 2: most
aggressive first; a common factor keeps ratios such as dim / num_heads), floored at 4; then only the
batch-like constants (names with "batch") set to 2. With torch, each candidate is run on the CPU
(Model built, get_inputs, one forward) and the first that runs with finite outputs and at least 64
output elements is taken ("checked"; when none has 64, the one with the most output elements, the
least scaled one when the count does not follow the sizes, as for a loss); without torch the factor-16
candidate is written, unchecked (validate runs it).

    python3 -m cudaperf.torch_import small FILE...   one JSON line per file: {"file", "small", "checked", "note"}

The standard library only until a check runs (torch is imported then, once for all files).
"""
from __future__ import annotations

import json
import signal
import sys

FACTORS = (64, 16, 4, 2)
MIN_SIZE = 16
FLOOR = 4
MIN_OUTPUT_ELEMENTS = 64


def size_constants(constants):
    return [c for c in constants if c.get("used") and type(c.get("value")) is int and c["value"] >= MIN_SIZE]  # noqa: E721


def candidates(constants):
    """The small configs to try, in order: [(label, {name: value})]."""
    sizes = size_constants(constants)
    out, seen = [], set()
    for f in FACTORS:
        cfg = {c["name"]: max(FLOOR, c["value"] // f) for c in sizes}
        key = tuple(sorted(cfg.items()))
        if cfg and key not in seen:
            seen.add(key)
            out.append((f"sizes / {f}", cfg))
    batch = {c["name"]: 2 for c in constants if c.get("used") and type(c.get("value")) is int  # noqa: E721
             and "batch" in c["name"].lower() and c["value"] > 2}
    if batch and tuple(sorted(batch.items())) not in seen:
        out.append(("batch only", batch))
    if not constants or not sizes and not batch:
        out.append(("the file's own sizes (all small)", {}))
    return out


class _Timeout(Exception):
    pass


def _alarm(*_a):
    raise _Timeout()


def runs(torch, path, cfg, timeout_s=60):
    """(why not or '', output elements): '' when the problem runs on the CPU at cfg with finite outputs."""
    from cudaperf import torch_network, torch_outputs, torch_problem
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout_s)
    try:
        mod = torch_problem.load_module(path, f"cudaperf_import_{abs(hash((path, tuple(cfg.items()))))}")
        for k, v in cfg.items():
            setattr(mod, k, v)
        torch.manual_seed(0)
        with torch.no_grad():
            model = mod.Model(*list(mod.get_init_inputs())).eval()
            outs = torch_outputs.flatten_outputs(model(*list(mod.get_inputs())))
        if not torch_finite(torch, outs):
            return "outputs not finite", 0
        return "", sum(o.numel() for o in outs)
    except _Timeout:
        return f"did not finish within {timeout_s} s", 0
    except ModuleNotFoundError as ex:
        return f"missing module '{ex.name}'", 0
    except Exception as ex:
        if torch_network.NETWORK_TRIES:
            return f"needs network access ({torch_network.NETWORK_TRIES[0]})", 0
        return f"{type(ex).__name__}: {str(ex)[:200]}", 0
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def torch_finite(torch, outs):
    return all(not o.is_floating_point() or bool(torch.isfinite(o).all()) for o in outs)


def small_config(path, torch):
    """{"small": {...} or None, "checked": bool, "note": str} for one problem file."""
    from cudaperf import torch_static
    info = torch_static.kb_constants(path)
    if "error" in info:
        return {"small": None, "checked": False, "note": info["error"]}
    cands = candidates(info["constants"])
    if not cands:
        return {"small": None, "checked": False, "note": "no size constants"}
    if torch is None:
        label, cfg = next(((lb, c) for lb, c in cands if lb == "sizes / 16"), cands[0])
        return {"small": cfg, "checked": False, "note": f"{label}; not run (torch is not importable here)"}
    why, ran = [], []
    for label, cfg in cands:
        problem, n = runs(torch, path, cfg)
        if not problem and (n >= MIN_OUTPUT_ELEMENTS or not cfg):
            return {"small": cfg, "checked": True, "note": f"{label}; ran on the CPU"}
        if not problem:
            ran.append((label, cfg, n))
            problem = f"{n} output element(s)"
        why.append(f"{label}: {problem}")
        if problem.startswith(("missing module", "needs network")):
            break
    # the output count does not follow the sizes (a loss): the least scaled
    if ran and len({n for _, _, n in ran}) == 1:
        label, cfg, n = ran[-1]
        return {"small": cfg, "checked": True, "note": f"{label}; ran on the CPU ({n} output element(s) at any size)"}
    if ran:  # the largest output among the sizes that ran
        label, cfg, n = max(ran, key=lambda r: r[2])
        return {"small": cfg, "checked": True, "note": f"{label}; ran on the CPU ({n} output elements)"}
    return {"small": None, "checked": False, "note": "no smaller size ran (" + "; ".join(why)[:600] + ")"}


def main(argv):
    if len(argv) < 3 or argv[1] != "small":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import torch
        torch.set_num_threads(max(1, min(4, torch.get_num_threads())))
        from cudaperf import torch_network
        torch_network.refuse_network()
    except ImportError:
        torch = None
    for path in argv[2:]:
        try:
            r = small_config(path, torch)
        except Exception as ex:  # one file's failure is its own line
            r = {"small": None, "checked": False, "note": f"{type(ex).__name__}: {str(ex)[:300]}"}
        r["file"] = path
        print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stdout.flush()
    import os
    os._exit(code)  # no torch teardown
