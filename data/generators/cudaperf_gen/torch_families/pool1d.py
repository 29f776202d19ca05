"""1-D pooling over (batch, channels, length): avg / max / lp (p=2), kernel, stride, padding, optional pre-activation."""
from ._common import In, spec
from .. import tshapes

NAME = "pt_pool1d"


def generate(rng, seed):
    kind = rng.choice(["avg", "max", "avg_nopad_count", "lp2"])
    k = rng.choice([2, 3, 4, 5, 7])
    s = rng.choice([1, 2, k])
    p = rng.choice([0, k // 2]) if kind != "lp2" else 0
    pre = rng.choice(["none", "abs", "relu"])
    xp, xc = {"none": ("x", "v"), "abs": ("torch.abs(x)", "fabsf(v)"), "relu": ("torch.relu(x)", "fmaxf(v, 0.0f)")}[pre]
    if kind == "max":
        fwd = f"F.max_pool1d({xp}, kernel_size={k}, stride={s}, padding={p})"
        init, comb, fin = "-INFINITY", f"acc = fmaxf(acc, {xc});", "acc"
    elif kind == "avg":
        fwd = f"F.avg_pool1d({xp}, kernel_size={k}, stride={s}, padding={p})"
        init, comb, fin = "0.0f", f"acc += {xc};", f"acc / {k}.0f"
    elif kind == "avg_nopad_count":
        fwd = f"F.avg_pool1d({xp}, kernel_size={k}, stride={s}, padding={p}, count_include_pad=False)"
        init, comb, fin = "0.0f", f"acc += {xc}; ++cnt;", "acc / (float)cnt"
    else:
        fwd = f"F.lp_pool1d({xp}, 2.0, kernel_size={k}, stride={s})"
        init, comb, fin = "0.0f", f"acc += ({xc}) * ({xc});", "sqrtf(acc)"
    body = f"""  const int64_t t = idx % LO, bc = idx / LO;
  float acc = {init};
  int cnt = 0;
  for (int j = 0; j < {k}; ++j) {{
    const int64_t l = t * {s} - {p} + j;
    if (l < 0 || l >= L) continue;
    const float v = x[bc * L + l];
    {comb}
  }}
  (void)cnt;
  return {fin};"""
    dims = [("L", "x_c.size(2)"), ("LO", f"(x_c.size(2) + 2 * {p} - {k}) / {s} + 1")]
    impls = tshapes.map_impls("pool", [("x", "float")], [], dims,
                              "TORCH_CHECK(LO > 0, \"input too short\");\n  auto out = torch::empty({x_c.size(0), x_c.size(1), LO}, x_c.options());",
                              body, call="_ext.{fn}(x)")
    cfg = [{"name": "tiny", "batch_size": 2, "channels": 3, "length": 11}, {"name": "odd", "batch_size": 3, "channels": 17, "length": 1001},
           {"name": "odd_long", "batch_size": 1, "channels": 5, "length": 10007}, {"name": "perf", "batch_size": 64, "channels": 64, "length": 16384}]
    return spec(NAME, seed, f"{kind} pool1d k={k} s={s} p={p} of {pre}(x)", cfg, [In("x", ("batch_size", "channels", "length"))],
                [f"return {fwd}"], impls, rtol=1e-4, atol=1e-5, field="pooling")
