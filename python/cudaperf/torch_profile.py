"""The profile of a candidate's profiled call (torch_launch.Launcher, inside the candidate's process:
CUPTI is per process): which kernels and PyTorch operators ran, and the rules they are judged by
(own_kernel, torch_fallback). A finding can only lower the verdict (docs/torch2cuda.md, "Threat
model"). torch is passed in (this module is importable without it)."""
from __future__ import annotations

import re
from types import ModuleType
from typing import Any, Callable

from cudaperf.torch_timer import sync

# Allocation, metadata, views and copies: the ops a candidate's forward may run besides its kernels.
ALLOWED_ATEN = {
    "aten::empty", "aten::empty_like", "aten::empty_strided", "aten::zeros", "aten::zeros_like", "aten::ones",
    "aten::ones_like", "aten::full", "aten::full_like", "aten::fill_", "aten::zero_", "aten::view", "aten::reshape",
    "aten::_reshape_alias", "aten::as_strided", "aten::contiguous", "aten::clone", "aten::copy_", "aten::to",
    "aten::_to_copy", "aten::detach", "aten::detach_", "aten::t", "aten::transpose", "aten::permute", "aten::expand",
    "aten::unsqueeze", "aten::squeeze", "aten::flatten", "aten::slice", "aten::select", "aten::narrow",
    "aten::size", "aten::stride", "aten::is_contiguous", "aten::numel", "aten::lift_fresh", "aten::alias",
    "aten::resize_", "aten::set_", "aten::new_empty", "aten::new_empty_strided", "aten::new_zeros",
    "aten::view_as", "aten::expand_as", "aten::reshape_as", "aten::unbind", "aten::split", "aten::chunk",
    "aten::_unsafe_view", "aten::item", "aten::_local_scalar_dense", "aten::empty.memory_format",
    "aten::record_stream", "aten::scalar_tensor",
    # the harness's own output check inside the window (torch_outputs.materialize): a no-op on a tensor
    # without a conjugate or negative bit, else a copy that the copy-kernel rule below weighs
    "aten::resolve_conj", "aten::resolve_neg",
}
# PyTorch's copy and fill kernels may run in a call (an output zeroed for atomics, an input made
# contiguous) but not do the call's work: beyond COPY_SLACK_US they may take at most COPY_RATIO times the
# candidate's own kernels' time (a profiled call; CUPTI's times). The ratio leaves an honest zero-filled
# output that the candidate's kernel then writes half of (a triangular mask) on the right side.
COPY_SLACK_US = 20.0
COPY_RATIO = 2.0
HARNESS_KERNEL = re.compile(r"fill|copy|memset|memcpy|Memset|Memcpy", re.I)


def profile_call(torch: ModuleType, fn: Callable[[], Any],
                 device: str) -> tuple[Any, list[str], list[str], list[float]]:
    """Runs fn() under the profiler: (result, kernel names, aten op names, each kernel's GPU time in µs)."""
    from torch.profiler import ProfilerActivity, profile
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    with profile(activities=acts) as prof:
        out = fn()
        sync(device)
    kernels: list[str] = []
    kernel_us: list[float] = []
    ops: list[str] = []
    for ev in prof.events():
        dt = str(getattr(ev, "device_type", ""))
        name = ev.name
        if dt.endswith("CUDA") and not name.startswith(("cuda", "aten::")):
            kernels.append(name)
            kernel_us.append(float(ev.time_range.elapsed_us()))
        elif name.startswith("aten::"):
            ops.append(name)
    return out, kernels, ops, kernel_us


def judge_profile(kernels: list[str], ops: list[str], own_names: list[str], own_required: bool,
                  kernel_us: list[float] | None = None) -> str:
    """'' or the rule that fired: own kernel never launched, a torch op/kernel doing compute, or PyTorch's
    copy and fill kernels taking more of the call's GPU time than the candidate's own kernels (data
    movement, a transpose or a concatenation, left to PyTorch beside a token kernel of its own)."""
    own = [k for k in kernels if any(re.search(r"(?<![A-Za-z0-9_])" + re.escape(n) + r"(?![A-Za-z0-9_])", k)
                                     for n in own_names)]
    if own_required and not own:
        return ("rule own_kernel: none of the candidate's kernels (" + ", ".join(own_names[:6]) +
                ") ran in the call" + (f"; kernels that ran: {', '.join(sorted(set(kernels))[:4])}" if kernels else ""))
    bad_ops = sorted({o for o in ops if o not in ALLOWED_ATEN})
    if bad_ops:
        return f"rule torch_fallback: PyTorch operators ran inside the call: {', '.join(bad_ops[:6])}"
    foreign = sorted({k for k in kernels if k not in own and not HARNESS_KERNEL.search(k)})
    if foreign:
        return ("rule torch_fallback: kernels that are not the candidate's ran: "
                f"{', '.join(f[:80] for f in foreign[:3])}")
    if own_required and kernel_us is not None and len(kernel_us) == len(kernels):
        own_set = set(own)
        mine = sum(us for k, us in zip(kernels, kernel_us) if k in own_set)
        moved = sum(us for k, us in zip(kernels, kernel_us) if k not in own_set)
        if moved > COPY_RATIO * mine + COPY_SLACK_US:
            return (f"rule torch_fallback: PyTorch's copy and fill kernels took {moved:.1f} µs of the call's GPU "
                    f"time, the candidate's own kernels {mine:.1f} µs (the work left to PyTorch's data movement)")
    return ""
