"""LayerNorm / RMSNorm over the last dim with learned weight (and bias), eps, optional residual input and activation."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, lit, mat_configs, spec
from .. import tshapes

NAME = "pt_norm_last"


def generate(rng, seed):
    kind = rng.choice(["layer", "rms"])
    bias = kind == "layer" and rng.random() < 0.7 or kind == "rms" and rng.random() < 0.3
    resid = rng.random() < 0.4
    act = rng.choice(sorted(ACTS)) if rng.random() < 0.4 else None
    eps = lit(rng.choice([1e-6, 1e-5, 1e-4]))
    init = ["self.weight = nn.Parameter(torch.randn(dim) * 0.5 + 1.0)"]
    if bias:
        init.append("self.bias = nn.Parameter(torch.randn(dim) * 0.5)")
    src_py, src_cu = ("x + r", "(AT(x) + AT(res))") if resid else ("x", "AT(x)")  # res: r is the kernels' index
    lines = [f"h = {src_py}"]
    if kind == "layer":
        lines.append(f"h = F.layer_norm(h, (h.shape[-1],), self.weight, {'self.bias' if bias else 'None'}, eps={eps[0]})")
        ph = [[("a0", "add", src_cu)], [("a1", "add", f"({src_cu} - a0 / Rd) * ({src_cu} - a0 / Rd)")]]
        rm = f"({src_cu} - a0 / Rd) / sqrt(a1 / Rd + (double){eps[1]}) * weight[r]"
    else:
        lines.append(f"h = h * torch.rsqrt(torch.mean(h * h, dim=-1, keepdim=True) + {eps[0]}) * self.weight")
        if bias:
            lines.append("h = h + self.bias")
        ph = [[("a0", "add", f"{src_cu} * {src_cu}")]]
        rm = f"{src_cu} / sqrt(a0 / Rd + (double){eps[1]}) * weight[r]"
    if bias:
        rm = f"({rm}) + bias[r]"
    if act:
        lines.append(f"h = {act_py(act, 'h')}")
        rm = act_cu(act, f"(float)({rm})")
    lines.append("return h")
    tensors = [("x", "float")] + ([("res", "float")] if resid else [])
    vecs = ["weight"] + (["bias"] if bias else [])
    args = ", ".join(["x"] + (["r"] if resid else []) + [f"self.{v}" for v in vecs])
    impls = tshapes.lines_impls("ln", "x", -1, tensors, vecs, [], ph, rowmap=rm, call="_ext.{fn}(" + args + ")")
    helpers = act_helpers([act] if act else [])
    for im in impls.values():
        im.cuda = helpers + im.cuda
    ins = [In("x", ("batch_size", "dim"), scale="2.0", shift="0.5")] + ([In("r", ("batch_size", "dim"))] if resid else [])
    return spec(NAME, seed, f"{kind}norm over the last dim{' + bias' if bias else ''}{' of x + residual' if resid else ''}{' then ' + act if act else ''}",
                mat_configs(perf=(8192, 4096)), ins, lines, impls, init=init, init_args=[("dim", "dim")], rtol=1e-4, atol=1e-4, deterministic=False, field="ml")
