"""Chains of 2-4 elementwise steps on one tensor: activations, scalings, shifts, clamps."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, lit, mat_configs, rscalar, spec
from .. import tshapes

NAME = "pt_act_chain"


def generate(rng, seed):
    py, cu, used, desc = "x", "v", [], []
    for _ in range(rng.randint(2, 4)):
        k = rng.random()
        if k < 0.6:
            a = rng.choice(sorted(ACTS))
            py, cu = act_py(a, py), act_cu(a, cu)
            used.append(a)
            desc.append(a)
        elif k < 0.75:
            c = lit(rscalar(rng))
            py, cu = f"({py}) * {c[0]}", f"({cu}) * {c[1]}"
            desc.append("scale")
        elif k < 0.88:
            c = lit(rscalar(rng, 0.1, 1.5))
            py, cu = f"({py}) + {c[0]}", f"({cu}) + {c[1]}"
            desc.append("shift")
        else:
            lo = round(rng.uniform(-2, -0.1), 2)
            hi = round(rng.uniform(0.1, 2), 2)
            py, cu = f"torch.clamp({py}, min={lit(lo)[0]}, max={lit(hi)[0]})", f"fminf(fmaxf({cu}, {lit(lo)[1]}), {lit(hi)[1]})"
            desc.append("clamp")
    if not used:
        a = rng.choice(sorted(ACTS))
        py, cu = act_py(a, py), act_cu(a, cu)
        used.append(a)
        desc.append(a)
    impls = tshapes.map_impls("chain", [("x", "float")], [], [], "auto out = torch::empty_like(x_c);",
                              f"  const float v = x[idx];\n  return {cu};", helpers=act_helpers(used), call="_ext.{fn}(x)")
    return spec(NAME, seed, "elementwise chain: " + " -> ".join(desc), mat_configs(),
                [In("x", ("batch_size", "dim"), scale="3.0")], [f"return {py}"], impls, rtol=1e-4, atol=1e-5, field="elementwise")
