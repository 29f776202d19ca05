"""torch.cat of two elementwise branches along a dim, then an optional shared step."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, lit, rscalar, spec
from .. import tshapes

NAME = "pt_cat_ew"


def generate(rng, seed):
    dim = rng.choice([0, 1])
    a1, a2 = rng.choice(sorted(ACTS)), rng.choice(sorted(ACTS))
    c = lit(rscalar(rng))
    post = rng.choice(["none", "none"] + sorted(ACTS))
    fwd = f"torch.cat([{act_py(a1, 'x')}, {act_py(a2, 'y')} * {c[0]}], dim={dim})"
    if dim == 1:
        head = "  const int64_t r = idx / (CX + CY), k = idx % (CX + CY);\n"
        sel = f"k < CX ? {act_cu(a1, 'x[r * CX + k]')} : {act_cu(a2, 'y[r * CY + (k - CX)]')} * {c[1]}"
        shape = "{x_c.size(0), CX + CY}"
        shp = (("rows", "cols"), ("rows", "cols2"))
    else:
        head = "  const int64_t nx = x_c_numel;\n"
        sel = f"idx < nx ? {act_cu(a1, 'x[idx]')} : {act_cu(a2, 'y[idx - nx]')} * {c[1]}"
        shape = "{x_c.size(0) + y_c.size(0), CX}"
        shp = (("rows", "cols"), ("rows2", "cols"))
    val = f"({sel})"
    used = [a1, a2]
    if post != "none":
        fwd, val = act_py(post, fwd), act_cu(post, val)
        used.append(post)
    dims = [("CX", "x_c.size(1)"), ("CY", "y_c.size(1)"), ("x_c_numel", "x_c.numel()")]
    impls = tshapes.map_impls("cat", [("x", "float"), ("y", "float")], [], dims, f"auto out = torch::empty({shape}, x_c.options());",
                              head + "  (void)CY; (void)x_c_numel;\n" + f"  return {val};", helpers=act_helpers(used), call="_ext.{fn}(x, y)")
    cfg = [{"name": "tiny", "rows": 2, "cols": 5}, {"name": "odd", "rows": 37, "cols": 333}, {"name": "odd_rows", "rows": 1001, "cols": 3},
           {"name": "perf", "rows": 4096, "cols": 8192}]
    other = "cols2" if dim == 1 else "rows2"
    for k in cfg:
        k[other] = k["cols" if dim == 1 else "rows"] * 2 - 1 if k["name"] != "perf" else k["cols" if dim == 1 else "rows"]
    ins = [In("x", shp[0], scale="2.0"), In("y", shp[1], scale="2.0")]
    return spec(NAME, seed, f"cat([{a1}(x), {a2}(y) * c], dim={dim}){', then ' + post if post != 'none' else ''}", cfg, ins,
                [f"return {fwd}"], impls, rtol=1e-4, atol=1e-5, field="elementwise")
