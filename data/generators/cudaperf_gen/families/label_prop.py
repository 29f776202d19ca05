"""Graph relaxation on CSR graphs: one connected-components label-propagation step (min or max label over
neighbours), optionally masked by active vertices or edge weights, optionally counting changes."""
from ..common import build
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "label_prop"


def generate(rng, seed):
    op = rng.choice(["min", "max"])
    self_incl = rng.random() < 0.7
    mode = rng.choice(["plain", "edge_mask", "active", "weighted_thresh", "hash_label"])
    nb = "label[adj[j]]"
    if mode == "edge_mask":
        nb = f"(emask[j] ? label[adj[j]] : {'2147483647' if op == 'min' else '(-2147483647 - 1)'})"
    elif mode == "weighted_thresh":
        nb = f"(w[j] <= thr ? label[adj[j]] : {'2147483647' if op == 'min' else '(-2147483647 - 1)'})"
    elif mode == "hash_label":
        nb = "(int)(((unsigned)label[adj[j]] * 2654435761u) >> 8)"
    own = "label[r]" if mode != "hash_label" else "(int)(((unsigned)label[r] * 2654435761u) >> 8)"
    red = Red("best", "int", op, nb)
    cmpf = (lambda a, b: f"({a} < {b} ? {a} : {b})") if op == "min" else (lambda a, b: f"({a} > {b} ? {a} : {b})")
    v = cmpf("best", own) if self_incl else f"(rowptr[r + 1] > rowptr[r] ? best : {own})"
    if mode == "active":
        v = f"(active[r] ? {v} : label[r])"
    count = rng.random() < 0.4
    finish = f"const int nl = {v};\nout[r] = nl;" + ("\nchanged[r] = nl != label[r];" if count else "")
    params = [P("nv", "int", "size"), P("ne", "int", "size")]
    if mode == "weighted_thresh":
        params.append(P("thr", "int", "scalar", value=rng.randrange(10, 90)))
    params += [P("rowptr", "const int*", "in", len="nv+1", dist="rowptr(ne)"), P("adj", "const int*", "in", len="ne", dist="index(0, nv)"),
               P("label", "const int*", "in", len="nv", dist=rng.choice(["permutation()", "index(0, nv)"]))]
    if mode == "edge_mask":
        params.append(P("emask", "const unsigned char*", "in", len="ne", dist="uniform(0, 1)"))
    if mode == "weighted_thresh":
        params.append(P("w", "const int*", "in", len="ne", dist="uniform(0, 100)"))
    if mode == "active":
        params.append(P("active", "const unsigned char*", "in", len="nv", dist="uniform(0, 1)"))
    params.append(P("out", "int*", "out", len="nv"))
    if count:
        params.append(P("changed", "unsigned char*", "out", len="nv"))
    deg = rng.choice([4, 8, 16, 32])
    nv = 2 ** 26 // deg
    configs = [{"name": "tiny", "nv": 6, "ne": 11}, {"name": "odd", "nv": 10001, "ne": 50001},
               {"name": "odd_sparse", "nv": 3001, "ne": 999}, {"name": "perf", "nv": nv, "ne": nv * deg}]
    ref, impls = shapes.rowred_shape(params, "nv", "rowptr[r]", "rowptr[r + 1]", [red], finish, what="vertex")
    return build(NAME, seed, "graph", "warp", f"connected-components label propagation step ({op} label, {mode}{', self included' if self_incl else ''}{', change flags' if count else ''})",
                 params, configs, (0, 0), ("ne", "4*ne + 8*nv"), ref, impls)
