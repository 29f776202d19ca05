"""Embedding-bag style: rows of a learned table picked by (batch, bag) indices, combined by sum / mean / max, optional per-index weights."""
from ._common import In, lit, spec
from .. import tshapes

NAME = "pt_embedding_bag"


def generate(rng, seed):
    mode = rng.choice(["sum", "mean", "max"])
    weighted = mode == "sum" and rng.random() < 0.5
    post = rng.choice(["none", "scale", "tanh"])
    init = ["self.table = nn.Parameter(torch.randn(num_embeddings, dim))"]
    ins = [In("idx", ("batch_size", "bag"), draw="randint", high="num_embeddings", dtype="int64")]
    pre = rng.choice(["none", "tanh", "relu", "abs"])
    e = {"none": "self.table[idx]", "tanh": "torch.tanh(self.table[idx])", "relu": "torch.relu(self.table[idx])",
         "abs": "torch.abs(self.table[idx])"}[pre]
    rowf = {"none": "{v}", "tanh": "tanhf({v})", "relu": "fmaxf({v}, 0.0f)", "abs": "fabsf({v})"}[pre]
    if weighted:
        ins.append(In("wt", ("batch_size", "bag"), draw="rand"))
        red = f"torch.sum({e} * wt.unsqueeze(-1), dim=1)"
        comb, ini = "acc += table[idx[b * L + j] * D + d] * wt[b * L + j];", "0.0f"
    elif mode == "max":
        red, comb, ini = f"torch.amax({e}, dim=1)", "acc = fmaxf(acc, table[idx[b * L + j] * D + d]);", "-INFINITY"
    else:
        red, comb, ini = f"torch.{mode}({e}, dim=1)", "acc += table[idx[b * L + j] * D + d];", "0.0f"
    comb = comb.replace("table[idx[b * L + j] * D + d]", rowf.format(v="table[idx[b * L + j] * D + d]"))
    fin = "acc / (float)L" if mode == "mean" else "acc"
    if post == "scale":
        c = lit(round(rng.uniform(0.2, 3), 2))
        red, fin = f"{red} * {c[0]}", f"({fin}) * {c[1]}"
    elif post == "tanh":
        red, fin = f"torch.tanh({red})", f"tanhf({fin})"
    body = f"""  const int64_t d = idx_o % D, b = idx_o / D;
  float acc = {ini};
  for (int64_t j = 0; j < L; ++j) {{ {comb} }}
  return {fin};""".replace("idx_o", "idx_out")
    body = body.replace("idx_out", "o_")
    body = "  const int64_t o_ = idx;\n" + body.replace("idx[", "ids[")
    tensors = [("ids", "int64_t")] + ([("wt", "float")] if weighted else []) + [("table", "float")]
    dims = [("L", "ids_c.size(1)"), ("D", "table_c.size(1)")]
    args = "idx" + (", wt" if weighted else "") + ", self.table"
    impls = tshapes.map_impls("bag", tensors, [], dims, "auto out = torch::empty({ids_c.size(0), table_c.size(1)}, table_c.options());",
                              body, call="_ext.{fn}(" + args + ")")
    fwd_args = ["idx"] + (["wt"] if weighted else [])
    cfg = [{"name": "tiny", "batch_size": 3, "bag": 4, "num_embeddings": 11, "dim": 5},
           {"name": "odd", "batch_size": 37, "bag": 7, "num_embeddings": 301, "dim": 33},
           {"name": "odd_bags", "batch_size": 5, "bag": 129, "num_embeddings": 1001, "dim": 3},
           {"name": "perf", "batch_size": 4096, "bag": 32, "num_embeddings": 65536, "dim": 512}]
    s = spec(NAME, seed, f"embedding bag ({mode}{', weighted' if weighted else ''}) of {pre} rows, {post}", cfg, ins, [f"return {red}"], impls,
             init=init, init_args=[("num_embeddings", "num_embeddings"), ("dim", "dim")], rtol=1e-4, atol=1e-4 if mode != "max" else 1e-6, field="gather")
    s.forward_args = fwd_args
    return s
