"""Counter-based random numbers: out[i] = a transform of hash(seed, i) (uniform, normal by Box-Muller, exponential, bernoulli counts)."""
from ..common import build, n_configs
from ..emit import P
from .. import shapes

NAME = "rng_counter"
MIXERS = {
    "splitmix": "DEV uint64_t mix64(uint64_t z) {{ z += 0x9E3779B97F4A7C15ull; z = (z ^ (z >> {a})) * 0x{m1:x}ull; z = (z ^ (z >> {b})) * 0x{m2:x}ull; return z ^ (z >> {c}); }}\n",
    "murmur": "DEV uint64_t mix64(uint64_t z) {{ z ^= z >> {a}; z *= 0x{m1:x}ull; z ^= z >> {b}; z *= 0x{m2:x}ull; z ^= z >> {c}; return z; }}\n",
    "xorshift": "DEV uint64_t mix64(uint64_t z) {{ z ^= z << {a}; z ^= z >> {b}; z ^= z << {c}; return z * 0x{m1:x}ull + 0x{m2:x}ull; }}\n",
}


def generate(rng, seed):
    mixer = rng.choice(sorted(MIXERS))
    h = MIXERS[mixer].format(a=rng.randrange(13, 33), b=rng.randrange(13, 33), c=rng.randrange(13, 33),
                             m1=rng.getrandbits(64) | 1, m2=rng.getrandbits(64) | 1)
    rounds = rng.choice([1, 2])
    h += "DEV uint64_t hash2(uint64_t s, uint64_t i) { " + ("return mix64(mix64(s) ^ i);" if rounds == 1 else "return mix64(mix64(s ^ mix64(i)) + i);") + " }\n"
    h += "DEV double u01(uint64_t v) { return (double)(v >> 11) * (1.0 / 9007199254740992.0); }\n"
    kind = rng.choice(["uniform", "normal", "exponential", "bernoulli_count", "range_int", "normal_pair"])
    params = [P("n", "int", "size"), P("seed", "unsigned long long", "scalar", value=rng.randrange(1, 2 ** 31))]
    ot = "float"
    if kind == "uniform":
        lo, hi = sorted([round(rng.uniform(-5, 5), 2) for _ in range(2)])
        hi += 1
        body = f"out[i] = (float)({lo!r} + ({hi - lo!r}) * u01(hash2(seed, (uint64_t)i)));"
    elif kind == "normal":
        body = ("const double u1 = u01(hash2(seed, 2 * (uint64_t)i)) + 1e-12, u2 = u01(hash2(seed, 2 * (uint64_t)i + 1));\n"
                "out[i] = (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));")
    elif kind == "normal_pair":
        body = ("const double u1 = u01(hash2(seed, (uint64_t)i)) + 1e-12, u2 = u01(hash2(seed ^ 0x5bd1e995ull, (uint64_t)i));\n"
                "const double rr = sqrt(-2.0 * log(u1));\nout[2 * i] = (float)(rr * cos(6.283185307179586 * u2));\nout[2 * i + 1] = (float)(rr * sin(6.283185307179586 * u2));")
    elif kind == "exponential":
        lam = round(rng.uniform(0.5, 4), 2)
        body = f"out[i] = (float)(-log(1.0 - u01(hash2(seed, (uint64_t)i))) / {lam!r});"
    elif kind == "bernoulli_count":
        ot, k, p = "int", rng.randrange(4, 17), round(rng.uniform(0.1, 0.9), 3)
        body = f"int c = 0;\nfor (int q = 0; q < {k}; ++q) c += u01(hash2(seed, (uint64_t)i * {k} + q)) < {p!r};\nout[i] = c;"
    else:
        ot, m = "int", rng.randrange(3, 1000)
        body = f"out[i] = (int)(hash2(seed, (uint64_t)i) % {m}u) - {m // 2};"
    pairs = kind == "normal_pair"
    params.append(P("out", f"{ot}*", "out", len="2*n" if pairs else "n"))
    ref, impls = shapes.map_shape(params, "n", body, helpers=h, what="counter")
    tol = (0, 0) if ot == "int" else (1e-5, 1e-5)
    perf = 2 ** 25 if pairs else 2 ** 26
    return build(NAME, seed, "random", "none", f"counter-based RNG ({mixer} mixer): {kind} variates, one per counter",
                 params, n_configs(rng, perf), tol, ("n", f"{8 if pairs else 4}*n"), ref, impls, helpers=h)
