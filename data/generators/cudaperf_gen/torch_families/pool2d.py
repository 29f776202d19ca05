"""2-D pooling over NCHW: avg / max, square or rectangular windows, stride, padding, optional post-scale or activation."""
from ._common import In, lit, spec
from .. import tshapes

NAME = "pt_pool2d"


def generate(rng, seed):
    kind = rng.choice(["avg", "max", "avg_nopad"])
    kh, kw = rng.choice([(2, 2), (3, 3), (2, 3), (3, 2), (4, 4), (5, 5), (1, 3)])
    sh, sw = rng.choice([(1, 1), (2, 2), (kh, kw), (1, 2)])
    ph, pw = (rng.choice([0, kh // 2]), rng.choice([0, kw // 2]))
    post = rng.choice(["none", "none", "relu_after", "scale"])
    fn = "max_pool2d" if kind == "max" else "avg_pool2d"
    extra = ", count_include_pad=False" if kind == "avg_nopad" else ""
    fwd = f"F.{fn}(x, kernel_size=({kh}, {kw}), stride=({sh}, {sw}), padding=({ph}, {pw}){extra})"
    init, comb = ("-INFINITY", "acc = fmaxf(acc, v);") if kind == "max" else ("0.0f", "acc += v; ++cnt;")
    fin = {"max": "acc", "avg": f"acc / {kh * kw}.0f", "avg_nopad": "acc / (float)cnt"}[kind]
    if post == "relu_after":
        fwd, fin = f"torch.relu({fwd} - 0.25)", f"fmaxf({fin} - 0.25f, 0.0f)"
    elif post == "scale":
        c = lit(round(rng.uniform(0.5, 3), 2))
        fwd, fin = f"{fwd} * {c[0]}", f"({fin}) * {c[1]}"
    body = f"""  const int64_t ow = idx % WO, oh = (idx / WO) % HO, bc = idx / (WO * HO);
  float acc = {init};
  int cnt = 0;
  for (int i = 0; i < {kh}; ++i)
    for (int j = 0; j < {kw}; ++j) {{
      const int64_t h = oh * {sh} - {ph} + i, w = ow * {sw} - {pw} + j;
      if (h < 0 || h >= H || w < 0 || w >= W) continue;
      const float v = x[(bc * H + h) * W + w];
      {comb}
    }}
  (void)cnt;
  return {fin};"""
    dims = [("H", "x_c.size(2)"), ("W", "x_c.size(3)"), ("HO", f"(x_c.size(2) + 2 * {ph} - {kh}) / {sh} + 1"),
            ("WO", f"(x_c.size(3) + 2 * {pw} - {kw}) / {sw} + 1")]
    impls = tshapes.map_impls("pool2", [("x", "float")], [], dims,
                              "TORCH_CHECK(HO > 0 && WO > 0, \"input too small\");\n  auto out = torch::empty({x_c.size(0), x_c.size(1), HO, WO}, x_c.options());",
                              body, call="_ext.{fn}(x)")
    cfg = [{"name": "tiny", "batch_size": 1, "channels": 2, "height": 7, "width": 9},
           {"name": "odd", "batch_size": 2, "channels": 5, "height": 33, "width": 47},
           {"name": "odd_wide", "batch_size": 1, "channels": 3, "height": 9, "width": 301},
           {"name": "perf", "batch_size": 32, "channels": 64, "height": 128, "width": 128}]
    return spec(NAME, seed, f"{kind} pool2d k=({kh},{kw}) s=({sh},{sw}) p=({ph},{pw}), {post}", cfg,
                [In("x", ("batch_size", "channels", "height", "width"))], [f"return {fwd}"], impls, rtol=1e-4, atol=1e-5, field="pooling")
