"""Pieces several families share: random expression trees, activations, typical configs."""
from .emit import P, TaskSpec
from . import shapes


def flt(v, t):
    """A C literal of type t ('float' or 'double')."""
    s = repr(float(v))
    if "e" not in s and "." not in s:
        s += ".0"
    return s + ("f" if t == "float" else "")


def fn(name, t):
    """The <math.h> spelling of name for type t (expf / exp)."""
    return name + "f" if t == "float" else name


def rconst(rng, t, lo=0.25, hi=2.0, neg=True):
    v = round(rng.uniform(lo, hi), 3)
    if neg and rng.random() < 0.4:
        v = -v
    return flt(v, t)


def expr_tree(rng, leaves, t, depth):
    """A random well-conditioned float expression over leaves (C expressions of type t): values stay
    bounded for inputs in [-2, 2] and no operation has a pole. It always uses a leaf (a constant
    expression would make the task's answer a constant)."""
    for _ in range(100):
        e = _tree(rng, leaves, t, depth)
        if any(leaf in e for leaf in leaves):
            return e
    return leaves[0]


def _tree(rng, leaves, t, depth):
    if depth <= 0 or rng.random() < 0.2:
        if rng.random() < 0.15:
            return rconst(rng, t)
        return rng.choice(leaves)
    kind = rng.random()
    if kind < 0.55:
        a = _tree(rng, leaves, t, depth - 1)
        b = _tree(rng, leaves, t, depth - 1)
        op = rng.choice(["+", "-", "*", "min", "max", "div1", "hyp"])
        if op == "min":
            return f"{fn('fmin', t)}({a}, {b})"
        if op == "max":
            return f"{fn('fmax', t)}({a}, {b})"
        if op == "div1":
            return f"({a} / ({flt(1, t)} + {fn('fabs', t)}({b})))"
        if op == "hyp":
            return f"{fn('sqrt', t)}({a} * {a} + {b} * {b} + {flt(0.5, t)})"
        return f"({a} {op} {b})"
    if kind < 0.7:
        a = _tree(rng, leaves, t, depth - 1)
        return f"({rconst(rng, t)} * {a} + {rconst(rng, t)})"
    a = _tree(rng, leaves, t, depth - 1)
    u = rng.choice(["tanh", "sin", "cos", "atan", "fabs", "sqrtabs", "log1pabs", "expneg", "soft"])
    if u == "sqrtabs":
        return f"{fn('sqrt', t)}({fn('fabs', t)}({a}) + {flt(0.25, t)})"
    if u == "log1pabs":
        return f"{fn('log1p', t)}({fn('fabs', t)}({a}))"
    if u == "expneg":
        return f"{fn('exp', t)}(-{fn('fabs', t)}({a}))"
    if u == "soft":
        return f"({a} / ({flt(1, t)} + {fn('fabs', t)}({a})))"
    return f"{fn(u, t)}({a})"


ACTS = ["relu", "leaky", "gelu_tanh", "sigmoid", "tanh", "silu", "softplus", "elu", "hardtanh", "identity", "square_relu", "mish"]


def act(name, x, t):
    one = flt(1, t)
    e = lambda v: f"{fn('exp', t)}({v})"
    return {
        "relu": f"{fn('fmax', t)}({x}, {flt(0, t)})",
        "leaky": f"({x} > {flt(0, t)} ? {x} : {flt(0.01, t)} * {x})",
        "gelu_tanh": f"({flt(0.5, t)} * {x} * ({one} + {fn('tanh', t)}({flt(0.7978845608, t)} * ({x} + {flt(0.044715, t)} * {x} * {x} * {x}))))",
        "sigmoid": f"({one} / ({one} + {e('-' + x)}))",
        "tanh": f"{fn('tanh', t)}({x})",
        "silu": f"({x} / ({one} + {e('-' + x)}))",
        "softplus": f"{fn('log1p', t)}({e('-' + fn('fabs', t) + '(' + x + ')')}) + {fn('fmax', t)}({x}, {flt(0, t)})",
        "elu": f"({x} > {flt(0, t)} ? {x} : {fn('expm1', t)}({x}))",
        "hardtanh": f"{fn('fmin', t)}({fn('fmax', t)}({x}, -{one}), {one})",
        "identity": f"({x})",
        "square_relu": f"({fn('fmax', t)}({x}, {flt(0, t)}) * {fn('fmax', t)}({x}, {flt(0, t)}))",
        "mish": f"({x} * {fn('tanh', t)}({fn('log1p', t)}({e('-' + fn('fabs', t) + '(' + x + ')')}) + {fn('fmax', t)}({x}, {flt(0, t)})))",
    }[name]


def float_tol(t, scale=1.0):
    return (1e-4, 1e-4 * scale) if t == "float" else (1e-9, 1e-9 * scale)


def build(family, seed, field, coop, summary, params, configs, tol, cost, ref_body, impls, helpers="",
          deterministic=True, extra_c_helpers=""):
    spec = TaskSpec(family=family, seed=seed, field=field, coop=coop, summary=summary, params=params,
                    configs=configs, rtol=tol[0], atol=tol[1], flops=cost[0], bytes=cost[1],
                    reference_body=ref_body, impls={}, helpers_c=shapes.c_helpers(helpers) + extra_c_helpers,
                    deterministic=deterministic)
    spec.impls = shapes.finalize(impls, spec.function)
    return spec


def sz(t):
    return {"float": 4, "double": 8, "int": 4, "unsigned int": 4, "signed char": 1, "unsigned char": 1,
            "long long": 8}[t]


def n_configs(rng, perf_n, key="n"):
    return [{"name": "tiny", key: rng.choice([7, 13, 29])},
            {"name": "odd", key: rng.choice([100003, 65537, 77777])},
            {"name": "odd_small", key: rng.choice([999, 1001, 4099])},
            {"name": "perf", key: perf_n}]


def matrix_configs(cols, perf_elems):
    """The configs of a rows x cols elementwise task: tiny, two odd shapes, perf of about perf_elems elements."""
    return [{"name": "tiny", "rows": 3, "cols": 7}, {"name": "odd", "rows": 301, "cols": 333},
            {"name": "odd_tall", "rows": 4099, "cols": 3}, {"name": "perf", "rows": perf_elems // cols, "cols": cols}]
