"""Row-pair measures along one dim: cosine similarity, pairwise distance (p = 1, 2), dot products, weighted sums."""
from ._common import In, cube_configs, lit, spec
from .. import tshapes

NAME = "pt_pairwise_rows"


def generate(rng, seed):
    dim = rng.choice([1, 2, -1, 0])
    kind = rng.choice(["cos", "dist2", "dist1", "dot", "dot_scaled_tanh", "sqdist_exp"])
    eps = lit(rng.choice([1e-8, 1e-6]))
    keep = kind in ("dot", "dist1") and rng.random() < 0.5
    kd = ", keepdim=True" if keep else ""
    if kind == "cos":
        fwd = f"F.cosine_similarity(x, y, dim={dim}, eps={eps[0]})"
        ph = [[("a0", "add", "AT(x) * AT(y)"), ("a1", "add", "AT(x) * AT(x)"), ("a2", "add", "AT(y) * AT(y)")]]
        fin = f"a0 / (fmax(sqrt(a1), (double){eps[1]}) * fmax(sqrt(a2), (double){eps[1]}))"
        fin = f"a0 / sqrt(fmax(a1 * a2, (double){eps[1]} * (double){eps[1]}))"
    elif kind == "dist2":
        fwd = f"torch.linalg.vector_norm(x - y, ord=2, dim={dim})"
        ph, fin = [[("a0", "add", "(AT(x) - AT(y)) * (AT(x) - AT(y))")]], "sqrt(a0)"
    elif kind == "dist1":
        fwd = f"torch.sum(torch.abs(x - y), dim={dim}{kd})"
        ph, fin = [[("a0", "add", "fabsf(AT(x) - AT(y))")]], "a0"
    elif kind == "dot":
        fwd, ph, fin = f"torch.sum(x * y, dim={dim}{kd})", [[("a0", "add", "AT(x) * AT(y)")]], "a0"
    elif kind == "dot_scaled_tanh":
        fwd = f"torch.tanh(torch.sum(x * y, dim={dim}) / math.sqrt(x.shape[{dim}]))"
        ph, fin = [[("a0", "add", "AT(x) * AT(y)")]], "tanh(a0 / sqrt(Rd))"
    else:
        g = lit(round(rng.uniform(0.01, 0.5), 3))
        fwd = f"torch.exp(-{g[0]} * torch.sum((x - y) ** 2, dim={dim}))"
        ph, fin = [[("a0", "add", "(AT(x) - AT(y)) * (AT(x) - AT(y))")]], f"exp(-(double){g[1]} * a0)"
    impls = tshapes.lines_impls("pair", "x", dim, [("x", "float"), ("y", "float")], [], [], ph, final=fin, keep=keep, call="_ext.{fn}(x, y)")
    ins = [In("x", ("d0", "d1", "d2")), In("y", ("d0", "d1", "d2"), scale="1.5")]
    return spec(NAME, seed, f"{kind} of x and y along dim {dim}", cube_configs(), ins, [f"return {fwd}"], impls,
                rtol=1e-4, atol=1e-3 if kind in ("dist1", "dot") else 1e-4, deterministic=False, field="reduction")
