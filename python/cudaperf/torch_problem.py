"""A problem module (reference.py, or a candidate's file) as the torch workers run it: loaded from its
path, a config's globals applied, seeded from the run's secret, its inputs drawn on the run's device,
its Model built with the run's weights in the evaluation mode's precision (docs/torch2cuda.md,
"Evaluation modes"). torch is passed in or imported lazily (this module is importable without it)."""
from __future__ import annotations

import contextlib
import hashlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cudaperf import torch_hidden

if TYPE_CHECKING:
    from torch import Tensor
    from torch.nn import Module

Plan = dict[str, Any]  # the run's plan (JSON from the supervisor; the reference adds "families")
Config = dict[str, Any]  # one entry of plan["configs"]


def load_module(path: str, name: str) -> ModuleType:
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    # None only for a path without a source suffix: module_from_spec raises then (AttributeError)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = mod
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def set_seed(seed: int) -> None:
    import torch
    torch.manual_seed(seed % (2 ** 63))


def derive_seed(secret: Any, *parts: Any) -> int:
    h = hashlib.sha256(repr((secret,) + parts).encode()).digest()
    return int.from_bytes(h[:8], "little") & ((1 << 63) - 1)


def apply_config(mod: ModuleType, originals: dict[str, Any], cfg: Config) -> None:
    for k, v in originals.items():
        setattr(mod, k, v)
    for k, v in cfg.get("globals", {}).items():
        setattr(mod, k, tuple(v) if isinstance(v, list) and isinstance(getattr(mod, k, None), tuple) else v)


def call_family(plan: Plan, seed: int, config: str | None) -> str:
    """The input family of one call (torch_hidden): from its seed among the families the reference
    kept at that config (plan["families"][config], set by the reference; else the problem's own)."""
    return torch_hidden.pick_family((plan.get("families") or {}).get(config) or ["as_written"], seed)


def draw_inputs(torch: ModuleType, mod: ModuleType, plan: Plan, seed: int, family: str | None = None,
                config: str | None = None) -> list[Any]:
    """The inputs of one call, drawn on the run's device: get_inputs() is written for the CPU, but its
    factory calls without a device land on the GPU here (perf inputs of hundreds of MB take
    milliseconds there, seconds on the CPU). Tensors it puts on the CPU explicitly stay there. In the
    strict mode torch.rand/randn draw from the call's hidden family (torch_hidden.HiddenInputs)."""
    device = plan.get("device", "cpu")
    family = family or call_family(plan, seed, config)
    for where in (device, None):  # None: as written (a get_inputs with its own CPU torch.Generator)
        set_seed(seed)
        try:
            with torch.device(where) if where else contextlib.nullcontext():
                with torch_hidden.HiddenInputs(torch, family, derive_seed(seed, "hidden"), device):
                    return list(mod.get_inputs())
        except RuntimeError:
            if where is None or where == "cpu":
                raise
    raise AssertionError("unreachable")


def shapes(torch: ModuleType, values: list[Any]) -> list[Any]:
    """What the engine fixes per config from its first call (the shared buffers): each tensor's shape and
    dtype, each other value's type."""
    return [(tuple(x.shape), str(x.dtype).replace("torch.", "")) if isinstance(x, torch.Tensor) else type(x).__name__
            for x in values]


def shape_change(torch: ModuleType, what: str, first: list[Any], got: list[Any]) -> str:
    """'' when `got` (the inputs or outputs of a later call) has the shapes and dtypes of `first`, else what
    changed: what = "get_inputs()" or "the reference Model" (its outputs)."""
    a, b = shapes(torch, first), shapes(torch, got)
    if a == b:
        return ""
    return (f"{what} returned other shapes under another seed ({a} vs {b}): every call of a config must give "
            f"the same shapes and dtypes (draw ragged sizes inside a fixed total)")


def to_device(xs: list[Any], device: str) -> list[Any]:
    import torch
    return [x.to(device) if isinstance(x, torch.Tensor) else x for x in xs]


def eval_mode(plan: Plan) -> str:
    """"strict" (default) or "kernelbench" (docs/torch2cuda.md, "Evaluation modes")."""
    return "kernelbench" if plan.get("eval_mode") == "kernelbench" else "strict"


def set_precision(torch: ModuleType, plan: Plan) -> None:
    """strict: float32 computed as float32 (fp32_strict); kernelbench: PyTorch's defaults, as
    KernelBench leaves them (cuDNN may use TF32; matmuls do not unless the problem says so)."""
    if eval_mode(plan) == "strict":
        fp32_strict(torch)


def fp32_strict(torch: ModuleType) -> None:
    """Reference, baselines and warm-up compute float32 as float32: no TF32 in matmuls or cuDNN
    convolutions (cuDNN allows it by default). The dataset's tolerances assume this
    (data/tasks/torch2cuda/README.md), and the eager / torch.compile baselines are then the fp32 work
    a candidate is asked to do."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def reference_model(torch: ModuleType, mod: ModuleType, init: list[Any], state: dict[str, Tensor], device: str,
                    train: bool = False) -> Module:
    """The reference Model with the run's weights: eval() mode (strict) or training mode (kernelbench)."""
    model = mod.Model(*init).to(device)
    model.train(train)
    model.load_state_dict(state, strict=True)
    return model
