"""Normalisations along one dim: F.normalize (p = 1, 2), centring, abs-max scaling, min-max scaling, sum-to-one."""
from ._common import In, cube_configs, lit, spec
from .. import tshapes

NAME = "pt_normalize_dim"


def generate(rng, seed):
    dim = rng.choice([0, 1, 2, -1])
    kind = rng.choice(["l2", "l1", "center", "absmax", "minmax", "sum1_abs", "center_scale"])
    eps = lit(rng.choice([1e-6, 1e-5, 1e-4, 1e-3]))
    if kind == "l2":
        fwd, ph, rm = f"F.normalize(x, p=2.0, dim={dim}, eps={eps[0]})", [[("a0", "add", "AT(x) * AT(x)")]], f"AT(x) / fmax(sqrt(a0), (double){eps[1]})"
    elif kind == "l1":
        fwd, ph, rm = f"F.normalize(x, p=1.0, dim={dim}, eps={eps[0]})", [[("a0", "add", "fabsf(AT(x))")]], f"AT(x) / fmax(a0, (double){eps[1]})"
    elif kind == "center":
        fwd, ph, rm = f"x - torch.mean(x, dim={dim}, keepdim=True)", [[("a0", "add", "AT(x)")]], "AT(x) - a0 / Rd"
    elif kind == "absmax":
        fwd, ph, rm = f"x / (torch.amax(torch.abs(x), dim={dim}, keepdim=True) + {eps[0]})", [[("a0", "max", "fabsf(AT(x))")]], f"AT(x) / (a0 + (double){eps[1]})"
    elif kind == "minmax":
        fwd = (f"(x - torch.amin(x, dim={dim}, keepdim=True)) / (torch.amax(x, dim={dim}, keepdim=True) - "
               f"torch.amin(x, dim={dim}, keepdim=True) + {eps[0]})")
        ph, rm = [[("a0", "min", "AT(x)"), ("a1", "max", "AT(x)")]], f"(AT(x) - a0) / (a1 - a0 + (double){eps[1]})"
    elif kind == "sum1_abs":
        fwd, ph, rm = f"torch.abs(x) / (torch.sum(torch.abs(x), dim={dim}, keepdim=True) + {eps[0]})", [[("a0", "add", "fabsf(AT(x))")]], f"fabs((double)AT(x)) / (a0 + (double){eps[1]})"
    else:
        c = lit(round(rng.uniform(0.5, 3), 2))
        fwd = f"(x - torch.mean(x, dim={dim}, keepdim=True)) * {c[0]}"
        ph, rm = [[("a0", "add", "AT(x)")]], f"(AT(x) - a0 / Rd) * {c[1]}"
    impls = tshapes.lines_impls("nrm", "x", dim, [("x", "float")], [], [], ph, rowmap=rm, call="_ext.{fn}(x)")
    return spec(NAME, seed, f"{kind} normalisation over dim {dim}", cube_configs(), [In("x", ("d0", "d1", "d2"), scale="2.0", shift="0.3")],
                [f"return {fwd}"], impls, rtol=1e-4, atol=1e-5, deterministic=False, field="ml")
