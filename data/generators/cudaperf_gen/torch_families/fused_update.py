"""Optimizer-style fused updates over 3-4 same-shaped tensors: SGD momentum, Adam-like, lerp / EMA, weight decay, clipping."""
import re

from ._common import In, lit, mat_configs, spec
from .. import tshapes

NAME = "pt_fused_update"


def generate(rng, seed):
    kind = rng.choice(["sgd_mom", "adam_like", "lerp", "ema_clip", "rmsprop_like", "decay_sign"])
    lr, b, eps, wd = (lit(round(rng.uniform(0.001, 0.1), 4)), lit(round(rng.uniform(0.8, 0.99), 3)),
                      lit(rng.choice([1e-8, 1e-6, 1e-3])), lit(round(rng.uniform(0.0, 0.05), 3)))
    ins = [In("p", ("batch_size", "dim")), In("g", ("batch_size", "dim"))]
    if kind == "sgd_mom":
        ins.append(In("m", ("batch_size", "dim")))
        fwd = f"p - {lr[0]} * ({b[0]} * m + g + {wd[0]} * p)"
        cu = f"p[idx] - {lr[1]} * ({b[1]} * m[idx] + g[idx] + {wd[1]} * p[idx])"
    elif kind == "adam_like":
        ins += [In("m", ("batch_size", "dim")), In("v", ("batch_size", "dim"), draw="rand")]
        fwd = f"p - {lr[0]} * ({b[0]} * m + (1.0 - {b[0]}) * g) / (torch.sqrt(v) + {eps[0]})"
        cu = f"p[idx] - {lr[1]} * ({b[1]} * m[idx] + (1.0f - {b[1]}) * g[idx]) / (sqrtf(v[idx]) + {eps[1]})"
    elif kind == "lerp":
        fwd, cu = f"torch.lerp(p, g, {lr[0]})", f"p[idx] + {lr[1]} * (g[idx] - p[idx])"
    elif kind == "ema_clip":
        fwd = f"torch.clamp({b[0]} * p + (1.0 - {b[0]}) * g, min=-1.0, max=1.0)"
        cu = f"fminf(fmaxf({b[1]} * p[idx] + (1.0f - {b[1]}) * g[idx], -1.0f), 1.0f)"
    elif kind == "rmsprop_like":
        ins.append(In("v", ("batch_size", "dim"), draw="rand"))
        fwd = f"p - {lr[0]} * g / torch.sqrt({b[0]} * v + (1.0 - {b[0]}) * g * g + {eps[0]})"
        cu = f"p[idx] - {lr[1]} * g[idx] / sqrtf({b[1]} * v[idx] + (1.0f - {b[1]}) * g[idx] * g[idx] + {eps[1]})"
    else:
        fwd = f"p * (1.0 - {wd[0]}) - {lr[0]} * torch.sign(g)"
        cu = f"p[idx] * (1.0f - {wd[1]}) - {lr[1]} * (float)((g[idx] > 0.0f) - (g[idx] < 0.0f))"
    gt = rng.choice(["g", "clip", "wd", "scaled"])  # the gradient's transform, applied first
    if gt == "clip":
        fwd, cu = re.sub(r"\bg\b", "torch.clamp(g, min=-0.5, max=0.5)", fwd), cu.replace("g[idx]", "fminf(fmaxf(g[idx], -0.5f), 0.5f)")
    elif gt == "wd":
        fwd, cu = re.sub(r"\bg\b", f"(g + {wd[0]} * p)", fwd), cu.replace("g[idx]", f"(g[idx] + {wd[1]} * p[idx])")
    elif gt == "scaled":
        fwd, cu = re.sub(r"\bg\b", "(g * 0.5)", fwd), cu.replace("g[idx]", "(g[idx] * 0.5f)")
    if rng.random() < 0.5:
        fwd, cu = f"torch.clamp({fwd}, min=-3.0, max=3.0)", f"fminf(fmaxf({cu}, -3.0f), 3.0f)"
    names = [i.name for i in ins]
    impls = tshapes.map_impls("upd", [(n, "float") for n in names], [], [], "auto out = torch::empty_like(p_c);", f"  return {cu};",
                              call="_ext.{fn}(" + ", ".join(names) + ")")
    return spec(NAME, seed, f"fused {kind} update, gradient {gt}", mat_configs(), ins, [f"return {fwd}"], impls, rtol=1e-4, atol=1e-5, field="optimizer")
