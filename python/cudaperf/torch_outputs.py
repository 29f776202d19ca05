"""A call's outputs as the torch workers judge them: which outputs are acceptable at all (plain dense
tensors), how they are described, and how they compare with the expected ones (bitwise, or within a
tolerance). torch is imported lazily (this module is importable without it)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from torch import Tensor


class OutputTypeError(Exception):
    """An output that is not a plain dense tensor on the device (hack_suspected, rule output_type)."""


class OutputMismatch(Exception):
    """An output of the wrong count, shape or dtype (wrong_answer)."""


def same(a: Tensor, b: Tensor) -> bool:
    """Bitwise-equal contents (NaN equal to NaN)."""
    import torch
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point():
        return bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all())
    return torch.equal(a, b)


def flatten_outputs(out: Any) -> list[Tensor]:
    """Outputs as a list of tensors, or raise with why they are not acceptable."""
    import torch
    items = list(out) if isinstance(out, (tuple, list)) else [out]
    for i, o in enumerate(items):
        if type(o) is not torch.Tensor:  # noqa: E721 - subclasses (fake/lazy tensors, Parameters) are refused
            raise OutputTypeError(f"output {i} is a {type(o).__module__}.{type(o).__qualname__}, "
                                  f"not a plain torch.Tensor")
    return items


def materialize(t: Tensor) -> tuple[Tensor, bool]:
    """(t, False) when t's bytes already lie as a dense row-major tensor; else (a dense copy, True), made
    now, on the current stream, inside the timed window. The harness copies each output into the shared
    buffer after "done": a view (a permute, a transpose, an expand, a conjugate or negative bit) would
    otherwise have that copy do the candidate's layout work outside the window."""
    r = t.resolve_conj().resolve_neg()
    if not r.is_contiguous():
        r = r.contiguous()
    return r, r is not t


def describe_meta(items: list[Tensor]) -> list[dict[str, Any]]:
    return [{"shape": list(t.shape), "dtype": str(t.dtype)} for t in items]


def compare(expected: Tensor, got: Tensor, rtol: float, atol: float, name: str, chunk: int = 1 << 25) -> str:
    """'' when got matches expected elementwise (|g-e| <= atol + rtol*|e|; NaN only matches NaN,
    inf only itself), else the first mismatch and a count. Runs on the expected tensor's device
    (the GPU in the reference worker), in float64, a chunk at a time."""
    import torch
    if tuple(got.shape) != tuple(expected.shape):
        return f"{name}: shape {tuple(got.shape)}, expected {tuple(expected.shape)}"
    if got.dtype != expected.dtype:
        return f"{name}: dtype {got.dtype}, expected {expected.dtype}"
    e = expected.detach().reshape(-1)
    g = got.detach().to(e.device).reshape(-1)
    n_bad, first = 0, -1
    for lo in range(0, e.numel(), chunk):
        e64, g64 = e[lo:lo + chunk].double(), g[lo:lo + chunk].double()
        close = (g64 - e64).abs() <= atol + rtol * e64.abs()
        if e.is_floating_point() or e.is_complex():
            enan, gnan = torch.isnan(e64), torch.isnan(g64)
            einf, ginf = torch.isinf(e64), torch.isinf(g64)
            close = torch.where(enan | gnan, enan & gnan, close)
            close = torch.where((einf | ginf) & ~(enan | gnan), e64 == g64, close)
        bad = ~close
        nb = int(bad.sum())
        if nb and first < 0:
            first = lo + int(bad.nonzero()[0])
        n_bad += nb
    if n_bad == 0:
        return ""
    ev, gv = e[first].double().item(), g[first].double().item()
    return (f"{name}[{first}] (flat index): expected {ev:.9g}, got {gv:.9g} ({n_bad} of {e.numel()} elements "
            f"differ; rtol {rtol:g}, atol {atol:g})")
