"""index_select / torch.gather along a dim with int64 indices, then an elementwise step or a weight."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, spec
from .. import tshapes

NAME = "pt_gather_index"


def generate(rng, seed):
    kind = rng.choice(["index_select0", "index_select1", "gather1", "gather0"])
    act = rng.choice(sorted(ACTS)) if rng.random() < 0.6 else None
    mul = rng.random() < 0.3
    ins = [In("x", ("rows", "cols"))]
    if kind == "index_select0":
        ins.append(In("idx", ("n_idx",), draw="randint", high="rows", dtype="int64"))
        fwd, oshape, src = "torch.index_select(x, 0, idx)", "{ind_c.size(0), x_c.size(1)}", "x[ind[idx_o / C] * C + idx_o % C]"
    elif kind == "index_select1":
        ins.append(In("idx", ("n_idx",), draw="randint", high="cols", dtype="int64"))
        fwd, oshape, src = "torch.index_select(x, 1, idx)", "{x_c.size(0), ind_c.size(0)}", "x[(idx_o / NI) * C + ind[idx_o % NI]]"
    elif kind == "gather1":
        ins.append(In("idx", ("rows", "n_idx"), draw="randint", high="cols", dtype="int64"))
        fwd, oshape, src = "torch.gather(x, 1, idx)", "{ind_c.size(0), ind_c.size(1)}", "x[(idx_o / NI) * C + ind[idx_o]]"
    else:
        ins.append(In("idx", ("n_idx", "cols"), draw="randint", high="rows", dtype="int64"))
        fwd, oshape, src = "torch.gather(x, 0, idx)", "{ind_c.size(0), ind_c.size(1)}", "x[ind[idx_o] * C + idx_o % C]"
    cu = src.replace("idx_o", "idx")
    lines = [f"h = {fwd}"]
    if act:
        lines.append(f"h = {act_py(act, 'h')}")
        cu = act_cu(act, cu)
    if mul:
        wide = kind in ("index_select1", "gather1")
        ins.append(In("w", ("n_idx" if wide else "cols",)))
        lines.append("h = h * w")
        cu = f"({cu}) * w[idx % {'NI' if wide else 'C'}]"
    lines.append("return h")
    tensors = [("ind" if i.name == "idx" else i.name, "int64_t" if i.dtype == "int64" else "float") for i in ins]  # idx: the flat output index in the kernels
    dims = [("C", "x_c.size(1)"), ("NI", "ind_c.size(ind_c.dim() - 1)")]
    impls = tshapes.map_impls("gat", tensors, [], dims, f"auto out = torch::empty({oshape}, x_c.options());", f"  return {cu};",
                              helpers=act_helpers([act] if act else []), call="_ext.{fn}(" + ", ".join(i.name for i in ins) + ")")
    cfg = [{"name": "tiny", "rows": 5, "cols": 7, "n_idx": 4}, {"name": "odd", "rows": 101, "cols": 333, "n_idx": 77},
           {"name": "odd_many", "rows": 33, "cols": 65, "n_idx": 1001}, {"name": "perf", "rows": 8192, "cols": 4096, "n_idx": 4096}]
    return spec(NAME, seed, f"{kind}{' then ' + act if act else ''}{' times w' if mul else ''}", cfg, ins, lines, impls,
                rtol=1e-4, atol=1e-5, field="gather")
