"""Fused epilogues on a rows x cols matrix: out = act(scale * x + bias[col]) with optional residual and second activation."""
from ..common import build, act, ACTS, flt, float_tol
from ..emit import P
from .. import shapes

NAME = "epilogue_bias_act"


def generate(rng, seed):
    t = "float"
    a1 = rng.choice(ACTS[:-3] + ["mish"])
    a2 = rng.choice(["identity"] * 3 + ACTS)
    per = rng.choice(["col", "row"])
    resid = rng.random() < 0.5
    gate = rng.random() < 0.3
    pre = f"scale * x[i] + bias[{'i % cols' if per == 'col' else 'i / cols'}]"
    v = act(a1, "v0", t)
    body = f"const float v0 = {pre};\nfloat v1 = {v};\n"
    if gate:
        body += "v1 = v1 * g[i];\n"
    if resid:
        body += "v1 = v1 + beta * res[i];\n"
    body += f"out[i] = {act(a2, 'v1', t)};"
    params = [P("rows", "int", "size"), P("cols", "int", "size"), P("scale", t, "scalar", value=round(rng.uniform(0.5, 1.5), 3)),
              P("x", "const float*", "in", len="rows*cols", dist=rng.choice(["normal(0, 1)", "uniform(-3, 3)", "mixed(-3, 3)"])),
              P("bias", "const float*", "in", len="cols" if per == "col" else "rows", dist="uniform(-0.5, 0.5)")]
    nin = 1
    if gate:
        params.append(P("g", "const float*", "in", len="rows*cols", dist="uniform(0, 1)")); nin += 1
    if resid:
        params.insert(2, P("beta", t, "scalar", value=round(rng.uniform(0.25, 1.0), 3)))
        params.append(P("res", "const float*", "in", len="rows*cols", dist="uniform(-1, 1)")); nin += 1
    params.append(P("out", "float*", "out", len="rows*cols"))
    cols = rng.choice([1024, 4096, 768, 3072])
    configs = [{"name": "tiny", "rows": 3, "cols": 5}, {"name": "odd", "rows": 257, "cols": 383},
               {"name": "odd_wide", "rows": 5, "cols": 10007}, {"name": "perf", "rows": (2 ** 26 // (nin + 1) * 2) // cols, "cols": cols}]
    ref, impls = shapes.map_shape(params, "(long long)rows * cols", body)
    return build(NAME, seed, "ml", "none", f"fused epilogue: {a2}(({a1}(scale*x + bias per {per})){' * gate' if gate else ''}{' + beta*residual' if resid else ''})",
                 params, configs, float_tol(t, 10), ("rows*cols", f"{4 * (nin + 1)}*rows*cols"), ref, impls)
