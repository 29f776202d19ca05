"""Selections: torch.where on a comparison or a bool mask, masked_fill, between two elementwise branches."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, lit, mat_configs, rscalar, spec
from .. import tshapes

NAME = "pt_where_mask"


def generate(rng, seed):
    cond = rng.choice(["gt_thresh", "gt_other", "mask", "abs_lt", "mask_fill"])
    a1, a2 = rng.sample(sorted(ACTS), 2)
    thr = lit(round(rng.uniform(-1, 1), 2))
    tensors, inputs, args = [("x", "float")], [In("x", ("batch_size", "dim"), scale="2.0")], ["x"]
    if cond in ("gt_other",) or rng.random() < 0.3:
        tensors.append(("y", "float"))
        inputs.append(In("y", ("batch_size", "dim"), scale="2.0"))
        args.append("y")
    if cond in ("mask", "mask_fill"):
        tensors.append(("m", "bool"))
        inputs.append(In("m", ("batch_size", "dim"), draw="bool", scale=str(round(rng.uniform(0.2, 0.8), 2)), dtype="bool"))
        args.append("m")
    other_py, other_cu = ("y", "y[idx]") if "y" in args else ("x", "x[idx]")
    b1_py, b1_cu = act_py(a1, "x"), act_cu(a1, "x[idx]")
    c = lit(rscalar(rng))
    b2_py, b2_cu = f"{act_py(a2, other_py)} * {c[0]}", f"{act_cu(a2, other_cu)} * {c[1]}"
    if cond == "gt_thresh":
        cp, cc = f"x > {thr[0]}", f"x[idx] > {thr[1]}"
    elif cond == "gt_other":
        cp, cc = "x > y", "x[idx] > y[idx]"
    elif cond == "abs_lt":
        t = lit(round(rng.uniform(0.2, 1.5), 2))
        cp, cc = f"torch.abs({other_py}) < {t[0]}", f"fabsf({other_cu}) < {t[1]}"
    else:
        cp, cc = "m", "m[idx]"
    if cond == "mask_fill":
        fill = lit(round(rng.uniform(-3, 3), 2))
        fwd = [f"return {b1_py}.masked_fill(m, {fill[0]})" if "y" not in args else f"return ({b1_py} + {other_py}).masked_fill(m, {fill[0]})"]
        val = b1_cu if "y" not in args else f"({b1_cu} + y[idx])"
        body = f"  return m[idx] ? {fill[1]} : {val};"
        desc = "masked_fill"
    else:
        fwd = [f"return torch.where({cp}, {b1_py}, {b2_py})"]
        body = f"  return ({cc}) ? {b1_cu} : {b2_cu};"
        desc = f"where({cond})"
    impls = tshapes.map_impls("sel", tensors, [], [], "auto out = torch::empty_like(x_c);", body, helpers=act_helpers([a1, a2]),
                              call="_ext.{fn}(" + ", ".join(args) + ")")
    return spec(NAME, seed, f"{desc} between {a1} and {a2} branches", mat_configs(), inputs, fwd, impls, rtol=1e-4, atol=1e-5,
                field="elementwise")
