"""uint32 bit-manipulation maps: random chains of xor / shifts / rotates / multiplies / adds (exact)."""
from ..common import build, n_configs
from ..emit import P
from .. import shapes

NAME = "ew_bits_u32"
HELPERS = "DEV uint32_t rotl32(uint32_t v, int s) { return (v << s) | (v >> (32 - s)); }\n"


def step(rng, v, leaves):
    k = rng.choice(["xor", "add", "mul", "shr", "shl", "rot", "and", "or", "popmix", "sel"])
    c = rng.randrange(1, 2 ** 32) | 1
    s = rng.randrange(1, 31)
    o = rng.choice(leaves)
    return {
        "xor": f"({v} ^ {o})", "add": f"({v} + {o})", "mul": f"({v} * {c}u)", "shr": f"({v} ^ ({v} >> {s}))",
        "shl": f"({v} ^ ({v} << {s}))", "rot": f"rotl32({v}, {s})", "and": f"({v} & ({o} | {c}u))",
        "or": f"({v} | ({o} & {c}u))", "popmix": f"({v} + (({v} >> {s}) & {c}u))", "sel": f"(({v} & 1u) ? {v} : ({v} ^ {o}))",
    }[k]


def generate(rng, seed):
    names = ["a", "b"][: rng.choice([1, 2])]
    leaves = [f"{v}[i]" for v in names] + ["(uint32_t)i"] * rng.choice([0, 1])
    e = f"{names[0]}[i]"
    for _ in range(rng.randrange(3, 8)):
        e = step(rng, e, leaves)
    used = [v for v in names if f"{v}[i]" in e]
    params = [P("n", "int", "size")] + [P(v, "const uint32_t*", "in", len="n", dist="uniform(0, 4294967295)") for v in used]
    params.append(P("out", "uint32_t*", "out", len="n"))
    k = len(used)
    ref, impls = shapes.map_shape(params, "n", f"out[i] = {e};", helpers=HELPERS)
    return build(NAME, seed, "elementwise", "none", "uint32 bit-mixing map (xor, shifts, rotates, multiplies; wraps mod 2^32)",
                 params, n_configs(rng, 2 ** 26 if k == 1 else 2 ** 25), (0, 0), ("n", f"{4 * (k + 1)}*n"), ref, impls, helpers=HELPERS)
