"""Hidden inputs of the `strict` evaluation mode (docs/torch2cuda.md, "Evaluation modes"): what the
reference process draws and randomises so that a candidate cannot pass on the problem's own
degenerate inputs or parameters (ReLU of torch.rand, BatchNorm with bias 0 and scale 1).

- Input families: while get_inputs() runs for one call, torch.rand/randn/rand_like/randn_like draw
  from ONE family chosen for that call from the secret seed: the problem's own ("as_written"), signed
  normal, signed uniform, wide magnitudes (x100) or values near zero. The reference keeps only the
  families under which its own outputs are finite (probe_families).
- Parameters: every floating parameter or buffer whose elements are all equal (an identity element:
  LayerNorm/BatchNorm weight 1 and bias 0, running mean 0 and variance 1) is replaced by random values
  of the same sign (randomize_identities).
- Scalars: the float arguments of get_init_inputs() (scale factors, slopes, epsilons) are scaled by a
  random factor in [0.7, 0.95] or [1.05, 1.3] (perturb_scalars).
- Tolerance: a call drawn from a family whose outputs are larger than the problem's own compares with
  atol scaled by the ratio of the outputs' RMS (tol_scale), so float32 accumulation-order differences
  of an honest candidate stay within the task's tolerance at x100 magnitudes.

- Conditioning: a hidden draw can make the problem ill-conditioned (a LayerNorm row whose spread is
  1e-4 of its mean), where the float32 reference's own rounding error reaches the task's tolerance and
  two honest kernels disagree with it (H200, 2026-12-03: both layernorm implementations). A float64 copy
  of the reference runs on each hidden-family call's inputs (reference_error); a comparison adds
  SLACK_FACTOR times that error to atol, and a small config's draw whose error is above
  MAX_SLACK_OF_RMS of its output's RMS uses the problem's own inputs instead.

Everything here runs in the trusted reference process; the candidate sees only the inputs and weights
that result. torch is passed in (this module imports without it).
"""
from __future__ import annotations

import hashlib
import math
import random

FAMILIES = ("as_written", "signed", "uniform_signed", "wide", "near_zero")
WIDE = 100.0


def rng(secret, *parts):
    """A Python generator seeded from the secret and a purpose (never the torch RNG: the reference's
    own draws stay as they are)."""
    return random.Random(hashlib.sha256(repr((secret,) + parts).encode()).hexdigest())


def pick_family(families, seed):
    """The family of one call: from the call's seed (itself derived from the secret)."""
    fams = list(families or ["as_written"])
    return fams[rng(seed, "family").randrange(len(fams))]


def trial_families(families, secret, config, n):
    """The families of a small config's n calls: the problem's own first (its outputs set the output
    scale), then every other family once in a secret order, then again."""
    rest = [f for f in families if f != "as_written"]
    rng(secret, config, "trials").shuffle(rest)
    order = ["as_written"] + rest
    return [order[k % len(order)] for k in range(n)]


class HiddenInputs:
    """Patches torch.rand/randn/rand_like/randn_like while get_inputs() runs so that they draw from
    one family (the values on `device`, from a generator seeded by `seed`)."""

    def __init__(self, torch, family, seed, device="cpu"):
        self.torch, self.family, self.device = torch, family, device
        self.gd = None if family == "as_written" else torch.Generator(device=device).manual_seed(seed % (2 ** 63))
        self.saved = {}

    def draw(self, *size, dtype=None, **kw):
        t = self.torch
        if len(size) == 1 and isinstance(size[0], (tuple, list, t.Size)):
            size = tuple(size[0])
        dtype = dtype or t.get_default_dtype()
        work = t.float64 if dtype == t.float64 else t.float32
        randn, rand = self.saved["randn"], self.saved["rand"]  # the real ones
        kw_d = dict(generator=self.gd, dtype=work, device=self.device)
        if self.family == "uniform_signed":
            x = rand(size, **kw_d) * 2 - 1
        elif self.family == "wide":
            x = randn(size, **kw_d) * WIDE
        elif self.family == "near_zero":
            x = randn(size, **kw_d) * 1e-3
        else:  # signed
            x = randn(size, **kw_d)
        return x.to(dtype).to(kw.get("device") or self.device)

    def __enter__(self):
        t = self.torch
        if self.family == "as_written":
            return self
        for n in ("rand", "randn", "rand_like", "randn_like"):
            self.saved[n] = getattr(t, n)
        t.rand = t.randn = self.draw
        t.rand_like = t.randn_like = lambda x, dtype=None, **kw: self.draw(tuple(x.shape), dtype=dtype or x.dtype)
        return self

    def __exit__(self, *exc):
        for n, f in self.saved.items():
            setattr(self.torch, n, f)
        self.saved = {}


def perturb_scalars(init, r):
    """The float arguments of get_init_inputs() scaled by a random factor away from 1 (ints, bools and
    tensors unchanged); (new list, how many changed)."""
    out, n = [], 0
    for v in init:
        if type(v) is float and math.isfinite(v):  # noqa: E721 - bool and int are sizes and flags
            f = r.uniform(1.05, 1.3) if r.random() < 0.5 else r.uniform(0.7, 0.95)
            out.append(v * f if v != 0.0 else r.uniform(0.05, 0.3))
            n += 1
        else:
            out.append(v)
    return out, n


def randomize_identities(torch, model, seed):
    """Every floating parameter or buffer whose elements are all equal gets random values of the same
    sign around that value (zeros: N(0, 0.3)); returns the names changed."""
    g = torch.Generator().manual_seed(seed % (2 ** 63))
    changed = []
    with torch.no_grad():
        tensors = list(model.named_parameters()) + list(model.named_buffers())
        for name, p in tensors:
            if not p.is_floating_point() or p.numel() == 0:
                continue
            first = p.reshape(-1)[0]
            if not bool((p == first).all()) or not bool(torch.isfinite(first)):
                continue
            c = float(first)
            noise = torch.rand(p.shape, generator=g, dtype=torch.float64)
            if c == 0.0:
                vals = torch.randn(p.shape, generator=g, dtype=torch.float64) * 0.3
            else:  # same sign, magnitude in [0.5, 1.5] x |c|: variances stay positive
                vals = c * (0.5 + noise)
            p.copy_(vals.to(p.dtype).to(p.device))
            changed.append(name)
    return changed


def rms(torch, t):
    """Root mean square of the finite elements of a floating tensor (0.0 otherwise)."""
    if not t.is_floating_point() or t.numel() == 0:
        return 0.0
    x = torch.where(torch.isfinite(t), t, torch.zeros((), dtype=t.dtype, device=t.device)).float()
    return float(x.norm()) / math.sqrt(t.numel())


def tol_scale(torch, expected, ref_rms):
    """The factor on atol for one output: its RMS over the RMS of the problem's own output at this
    config, at least 1 (the problem's own inputs compare exactly as the task says)."""
    if not ref_rms or ref_rms <= 0:
        return 1.0
    s = rms(torch, expected) / ref_rms
    return max(1.0, s) if math.isfinite(s) else 1.0


def outputs_finite(torch, outs):
    return all(not o.is_floating_point() or bool(torch.isfinite(o).all()) for o in outs)


# a comparison's atol gains this many times the float32 reference's own error on the call's inputs: its
# distance from the float64 truth (once), and as much again for an honest candidate's own rounding (twice)
SLACK_FACTOR = 3.0
# a small config's hidden draw whose reference error is above this share of its output's RMS tests
# nothing (the float32 answer is mostly rounding): the call uses the problem's own inputs
MAX_SLACK_OF_RMS = 0.01
# a float64 copy of the reference runs only on inputs up to this size (the perf configs of large problems
# are compared without it)
FLOAT64_MAX_INPUT_BYTES = 1 << 30


def float64_model(model):
    """A float64 copy of the reference (an eval-mode Model), or None when it cannot be made."""
    import copy
    try:
        return copy.deepcopy(model).double()
    except Exception:
        return None


def reference_error(torch, model64, xs, outs):
    """Per output: the largest |float32 reference - float64 reference| over the elements finite in both,
    on inputs xs (the float32 reference's own rounding error there); 0.0 for an output that is not
    float32/float16/bfloat16, and for all of them when there is no float64 model, the inputs are larger
    than FLOAT64_MAX_INPUT_BYTES, or the float64 run fails or returns other shapes."""
    zero = [0.0] * len(outs)
    tensors = [x for x in xs if isinstance(x, torch.Tensor)]
    if model64 is None or sum(x.numel() * x.element_size() for x in tensors) > FLOAT64_MAX_INPUT_BYTES:
        return zero
    from cudaperf.torch_outputs import flatten_outputs
    try:
        args = [x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in xs]
        got = flatten_outputs(model64(*args))
    except Exception:
        return zero
    if len(got) != len(outs):
        return zero
    err = []
    for o, g in zip(outs, got):
        if not o.is_floating_point() or o.dtype == torch.float64 or tuple(g.shape) != tuple(o.shape):
            err.append(0.0)
            continue
        a, b = o.detach().double(), g.detach().double().to(o.device)
        ok = torch.isfinite(a) & torch.isfinite(b)
        err.append(float((a - b).abs()[ok].max()) if bool(ok.any()) else 0.0)
    return err

