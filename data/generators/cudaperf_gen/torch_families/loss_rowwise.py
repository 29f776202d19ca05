"""Per-sample losses (reduction over the class / feature dim, reduction='none' over the batch): cross-entropy with
int64 targets (optional label smoothing), NLL of log-softmax, MSE / L1 / Huber / log-cosh row means, KL of softmaxes."""
from ._common import In, lit, mat_configs, spec
from .. import tshapes

NAME = "pt_loss_rowwise"


def generate(rng, seed):
    kind = rng.choice(["ce", "ce_smooth", "mse", "l1", "huber", "logcosh", "kl_soft", "bce_logits"])
    ins = [In("x", ("batch_size", "dim"), scale="2.0")]
    tensors, args = [("x", "float")], "x"
    w = lit(round(rng.uniform(0.5, 2.0), 2)) if rng.random() < 0.3 else None
    if kind in ("ce", "ce_smooth"):
        ins.append(In("t", ("batch_size",), draw="randint", high="dim", dtype="int64"))
        tensors.append(("tgt", "int64_t"))  # t is the kernels' line index
        args = "x, t"
        ls = lit(round(rng.uniform(0.05, 0.3), 2)) if kind == "ce_smooth" else None
        temp = rng.random() < 0.5
        fwd = f"F.cross_entropy({'x / self.temperature' if temp else 'x'}, t, reduction='none'{', label_smoothing=' + ls[0] if ls else ''})"
        ph = [[("a0", "max", "AT(x)")], [("a1", "add", "exp((double)AT(x) - a0)"), ("a2", "add", "(r == tgt[o] ? (double)AT(x) : 0.0)"),
                                          ("a3", "add", "(double)AT(x)")]]
        lse = "(a0 + log(a1))"
        fin = f"{lse} - a2" if not ls else f"(1.0 - (double){ls[1]}) * ({lse} - a2) + (double){ls[1]} * ({lse} - a3 / Rd)"
    elif kind == "kl_soft":
        ins.append(In("y", ("batch_size", "dim"), scale="2.0"))
        tensors.append(("y", "float"))
        args = "x, y"
        fwd = "torch.sum(F.softmax(y, dim=1) * (F.log_softmax(y, dim=1) - F.log_softmax(x, dim=1)), dim=1)"
        ph = [[("a0", "max", "AT(x)"), ("b0", "max", "AT(y)")],
              [("a1", "add", "exp((double)AT(x) - a0)"), ("b1", "add", "exp((double)AT(y) - b0)")],
              [("c0", "add", "exp((double)AT(y) - b0) / b1 * (((double)AT(y) - b0 - log(b1)) - ((double)AT(x) - a0 - log(a1)))")]]
        fin = "c0"
    else:
        ins.append(In("y", ("batch_size", "dim"), draw="rand" if kind == "bce_logits" else "randn"))
        tensors.append(("y", "float"))
        args = "x, y"
        d = "(double)(AT(x) - AT(y))"
        e = {"mse": (f"F.mse_loss(x, y, reduction='none')", f"{d} * {d}"),
             "l1": ("F.l1_loss(x, y, reduction='none')", f"fabs({d})"),
             "huber": ("F.huber_loss(x, y, reduction='none', delta=1.0)", f"(fabs({d}) < 1.0 ? 0.5 * {d} * {d} : fabs({d}) - 0.5)"),
             "logcosh": ("torch.log(torch.cosh(x - y))", f"log(cosh({d}))"),
             "bce_logits": ("F.binary_cross_entropy_with_logits(x, y, reduction='none')",
                            "(fmax((double)AT(x), 0.0) - (double)AT(x) * (double)AT(y) + log1p(exp(-fabs((double)AT(x)))))")}[kind]
        agg = rng.choice(["mean", "sum"])
        fwd = f"torch.{agg}({e[0]}, dim=1)"
        ph, fin = [[("a0", "add", e[1])]], "a0 / Rd" if agg == "mean" else "a0"
    if w:
        fwd, fin = f"{fwd} * {w[0]}", f"({fin}) * {w[1]}"
    scal = []
    if kind in ("ce", "ce_smooth") and temp:  # a module attribute: the logits divided by the temperature
        ph = [[(a, op, e.replace("AT(x)", "(AT(x) / temperature)")) for a, op, e in p] for p in ph]
        scal = [("temperature", "double")]
        args += ", float(self.temperature)"
    impls = tshapes.lines_impls("loss", "x", 1, tensors, [], scal, ph, final=fin, call="_ext.{fn}(" + args + ")")
    if kind in ("ce", "ce_smooth"):  # t is per line (o), not per element: AT is not used on it
        pass
    cfg = mat_configs(perf=(32768, 1024))
    ia = [("temperature", lit(round(rng.uniform(0.5, 2.0), 2))[0])] if scal else []
    return spec(NAME, seed, f"per-sample {kind} loss{' scaled' if w else ''}", cfg, ins, [f"return {fwd}"], impls,
                init_args=ia, rtol=1e-4, atol=1e-4, deterministic=False, field="loss")
