"""Variance / standard deviation over one dim (correction 0 or 1), optionally of a transform or combined with the mean."""
from ._common import In, cube_configs, spec
from .. import tshapes

NAME = "pt_var_std"


def generate(rng, seed):
    dim = rng.choice([0, 1, 2, -1])
    corr = rng.choice([0, 1])
    keep = rng.random() < 0.4
    kind = rng.choice(["var", "std", "cv", "var_plus_mean", "std_of_abs", "zscore_max"])
    kd = ", keepdim=True" if keep else ""
    src_py, src_cu = ("torch.abs(x)", "fabsf(AT(x))") if kind == "std_of_abs" else ("x", "AT(x)")
    ph = [[("a0", "add", src_cu)], [("a1", "add", f"({src_cu} - a0 / Rd) * ({src_cu} - a0 / Rd)")]]
    v = f"(a1 / (Rd - {corr}.0))"
    if kind == "var":
        fwd, final = f"torch.var(x, dim={dim}, correction={corr}{kd})", v
    elif kind in ("std", "std_of_abs"):
        fwd, final = f"torch.std({src_py}, dim={dim}, correction={corr}{kd})", f"sqrt({v})"
    elif kind == "cv":
        fwd = f"torch.std(x, dim={dim}, correction={corr}{kd}) / (torch.abs(torch.mean(x, dim={dim}{kd})) + 1.0)"
        final = f"sqrt({v}) / (fabs(a0 / Rd) + 1.0)"
    elif kind == "var_plus_mean":
        fwd = f"torch.var(x, dim={dim}, correction={corr}{kd}) + torch.mean(x, dim={dim}{kd})"
        final = f"{v} + a0 / Rd"
    else:
        ph.append([("a2", "max", f"({src_cu} - a0 / Rd) / sqrt({v} + 1e-5)")])
        fwd = (f"torch.amax((x - torch.mean(x, dim={dim}, keepdim=True)) / torch.sqrt(torch.var(x, dim={dim}, "
               f"correction={corr}, keepdim=True) + 1e-5), dim={dim}{kd})")
        final = "a2"
    impls = tshapes.lines_impls("var", "x", dim, [("x", "float")], [], [], ph, final=final, keep=keep, call="_ext.{fn}(x)")
    cfg = cube_configs()
    for c in cfg:  # every reduced line holds at least 2 values (correction 1)
        for k in ("d0", "d1", "d2"):
            c[k] = max(c[k], 2)
    return spec(NAME, seed, f"{kind} over dim {dim}, correction {corr}{' (keepdim)' if keep else ''}", cfg,
                [In("x", ("d0", "d1", "d2"), scale="2.0", shift="0.5")], [f"return {fwd}"], impls, rtol=1e-4, atol=1e-4,
                deterministic=False, field="reduction")
