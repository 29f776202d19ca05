"""argmax / argmin over one dim of an elementwise transform (int64 output, compared exactly)."""
from ._common import In, cube_configs, lit, spec
from .. import tshapes

NAME = "pt_argreduce"
PRE = {"id": ("x", "AT(x)"), "abs": ("torch.abs(x)", "fabsf(AT(x))"), "neg_sq": ("-(x * x)", "-(AT(x) * AT(x))"),
       "sin": ("torch.sin(x)", "sinf(AT(x))"), "shift_abs": ("torch.abs(x - {c})", "fabsf(AT(x) - {cf})"),
       "prod_y": ("x * y", "AT(x) * AT(y)"), "sum_y": ("x + y", "AT(x) + AT(y)")}


def generate(rng, seed):
    dim = rng.choice([0, 1, 2, -1])
    which = rng.choice(["max", "min"])
    keep = rng.random() < 0.3
    pre = rng.choice(sorted(PRE))
    c = lit(round(rng.uniform(-1, 1), 2))
    pp, pc = PRE[pre][0].format(c=c[0]), PRE[pre][1].format(cf=c[1])
    two = "y" in pp
    tensors = [("x", "float")] + ([("y", "float")] if two else [])
    kd = ", keepdim=True" if keep else ""
    impls = tshapes.lines_impls("arg", "x", dim, tensors, [], [], [], keep=keep, out_ct="int64_t", arg=(which, pc),
                                call="_ext.{fn}(" + ("x, y" if two else "x") + ")")
    ins = [In("x", ("d0", "d1", "d2"))] + ([In("y", ("d0", "d1", "d2"))] if two else [])
    return spec(NAME, seed, f"arg{which} of {pre} over dim {dim}", cube_configs(), ins,
                [f"return torch.arg{which}({pp}, dim={dim}{kd})"], impls, rtol=0.0, atol=0.0, field="reduction")
