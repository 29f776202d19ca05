"""CUDA for the torch2cuda families: four kernel shapes, each with the deliberately weak `naive`
strategy and one better one, parametric over the family's element code (docs/generators.md).

  map    out[idx] = elem(idx)                    naive: a thread per run of 16 outputs; grid_stride
  lines  reduce / reduce-then-map over one dim   naive: a thread per line; block_per_line (smem trees)
  scan   inclusive scan over one dim             naive: a thread per line; warp_scan (__shfl_up_sync)
  gemm   batched C = op(A) op(B), epilogue       naive: a thread per output, row index fastest; smem_tiled

Tensors are made contiguous on the host; kernels run on at::cuda::getCurrentCUDAStream()."""
from .temit import Impl

CT = {"float": ("float", "torch::kFloat32"), "int64_t": ("int64_t", "torch::kInt64"), "bool": ("bool", "torch::kBool")}


def _host_head(tensors):
    out = []
    for n, ct in tensors:
        out.append(f'  TORCH_CHECK({n}.is_cuda(), "{n} must be a CUDA tensor");')
        out.append(f'  TORCH_CHECK({n}.scalar_type() == {CT[ct][1]}, "{n} must be {ct}");')
        out.append(f"  auto {n}_c = {n}.contiguous();")
    return "\n".join(out)


def _decl(fn, tensors, scalars):
    args = [f"torch::Tensor {n}" for n, _ in tensors] + [f"{t} {n}" for n, t in scalars]
    return f"torch::Tensor {fn}({', '.join(args)})"


def _kparams(tensors, scalars, dims, out_ct):
    ps = [f"const {ct}* __restrict__ {n}" for n, ct in tensors] + [f"{out_ct}* __restrict__ out"]
    ps += [f"int64_t {n}" for n, _ in dims] + [f"{'float' if t == 'double' else t} {n}" for n, t in scalars]
    return ", ".join(ps)


def _kargs(tensors, scalars, dims, out_ct):
    a = [f"{n}_c.data_ptr<{CT[ct][0]}>()" for n, ct in tensors] + [f"out.data_ptr<{CT[out_ct][0]}>()"]
    a += [n for n, _ in dims] + [f"(float){n}" if t == "double" else n for n, t in scalars]
    return ", ".join(a)


def _names(tensors, scalars, dims):
    return ", ".join([n for n, _ in tensors] + ["out"] * 0 + [n for n, _ in dims] + [n for n, _ in scalars])


def _elem_params(tensors, scalars, dims):
    ps = [f"const {ct}* __restrict__ {n}" for n, ct in tensors]
    ps += [f"int64_t {n}" for n, _ in dims] + [f"{'float' if t == 'double' else t} {n}" for n, t in scalars]
    return ", ".join(ps)


def map_impls(key, tensors, scalars, dims, out_alloc, body, out_ct="float", helpers="", call=""):
    """body: statements of `__device__ OUT elem(int64_t idx, ...)` ending in a return. dims: [(name,
    host C++ expression)] int64 values the kernels get. out_alloc: host statement defining `out`."""
    ep = _elem_params(tensors, scalars, dims)
    elem = (f"{helpers.strip()}\n" if helpers.strip() else "") + \
        f"__device__ __forceinline__ {out_ct} elem_{key}(int64_t idx, {ep}) {{\n{body.rstrip()}\n}}\n"
    names = _names(tensors, scalars, dims)
    kp = _kparams(tensors, scalars, dims, out_ct)
    dims_host = "".join(f"  const int64_t {n} = {e};\n" for n, e in dims)
    impls = {}
    for strat, desc, kern, launch in [
        ("naive", "naive (weak) — each thread computes its own contiguous run of 16 outputs with scalar loads, so a warp's accesses are strided and uncoalesced",
         f"""__global__ void {key}_chunk_kernel({kp}, int64_t n) {{
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t begin = t * 16;
  int64_t end = begin + 16;
  if (end > n) end = n;
  for (int64_t idx = begin; idx < end; ++idx) out[idx] = elem_{key}(idx, {names});
}}""",
         f"""  const int threads = 128;
  const int64_t chunks = (n + 15) / 16;
  const int64_t blocks = (chunks + threads - 1) / threads;
  {key}_chunk_kernel<<<(unsigned)blocks, threads, 0, stream>>>({_kargs(tensors, scalars, dims, out_ct)}, n);"""),
        ("grid_stride", "grid_stride — one output per thread per iteration, consecutive threads on consecutive outputs (coalesced), grid sized to a few waves of the SMs",
         f"""__global__ void {key}_grid_kernel({kp}, int64_t n) {{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += stride)
    out[idx] = elem_{key}(idx, {names});
}}""",
         f"""  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  const int64_t cap = (int64_t)sms * 16;
  if (blocks > cap) blocks = cap;
  {key}_grid_kernel<<<(unsigned)blocks, threads, 0, stream>>>({_kargs(tensors, scalars, dims, out_ct)}, n);""")]:
        fn = f"{key}_{strat}_forward"
        host = f"""{_decl(fn, tensors, scalars)} {{
{_host_head(tensors)}
{dims_host}  {out_alloc}
  const int64_t n = out.numel();
  if (n == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
{launch}
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}}"""
        impls[strat] = Impl(desc, elem + "\n" + kern + "\n\n" + host + "\n", _decl(fn, tensors, scalars) + ";", fn,
                            call.format(fn=fn))
    return impls


OPS = {"add": ("0.0", "({a} + {b})"), "mul": ("1.0", "({a} * {b})"), "max": ("-INFINITY", "fmax({a}, {b})"),
       "min": ("INFINITY", "fmin({a}, {b})")}


def _lines_host(x, dim, keep, reduced, out_ct):
    h = f"""  const int64_t nd = {x}_c.dim();
  const int64_t d = {dim} < 0 ? {dim} + nd : {dim};
  TORCH_CHECK(d >= 0 && d < nd, "dim out of range");
  int64_t O = 1, I = 1;
  const int64_t R = {x}_c.size(d);
  for (int64_t k = 0; k < d; ++k) O *= {x}_c.size(k);
  for (int64_t k = d + 1; k < nd; ++k) I *= {x}_c.size(k);
"""
    if reduced:
        h += f"""  auto sizes = {x}_c.sizes().vec();
  {"sizes[d] = 1;" if keep else "sizes.erase(sizes.begin() + d);"}
  auto out = torch::empty(sizes, {x}_c.options().dtype({CT[out_ct][1]}));
"""
    else:
        h += f"  auto out = torch::empty_like({x}_c);\n"
    return h


def lines_impls(key, x, dim, tensors, vecs, scalars, phases, final=None, rowmap=None, keep=False, out_ct="float", call="",
                arg=None):
    """Reductions over dim of `x` viewed as (O, R, I). Element reads: AT(p) = p[base + r * I] for tensors
    of x's shape, p[r] for vecs (length R). phases: [[(acc, op, expr)]] (double accumulators; a later
    phase may use earlier ones). final: the reduced output (an expression of the accumulators, Rd = (double)R);
    rowmap: the output at (o, r, i) instead. arg: ("max"|"min", expr) an argmax/argmin (int64 output)."""
    allt = tensors + [(v, "float") for v in vecs]
    ep = _elem_params(allt, scalars, [])
    names = ", ".join([n for n, _ in allt] + [n for n, _ in scalars])
    kp = _kparams(allt, scalars, [("O", ""), ("R", ""), ("I", "")], out_ct)
    kargs = _kargs(allt, scalars, [("O", ""), ("R", ""), ("I", "")], out_ct)
    del ep, names
    macro = "#define AT(p) ((p)[base + (int64_t)r * I])\n"

    def accumulate(ph, loop):
        """One phase's accumulators: initialised, then updated over the rows `loop` visits."""
        lines = [f"  double {a} = {OPS[op][0]};" for a, op, _ in ph] + [f"  {loop} {{"]
        lines += [f"    {a} = " + OPS[op][1].format(a=a, b=f"(double)({e})") + ";" for a, op, e in ph]
        return lines + ["  }"]

    def naive_body():
        s = ["  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;", "  if (t >= O * I) return;",
             "  const int64_t o = t / I, i = t % I;", "  const int64_t base = o * R * I + i;", "  const double Rd = (double)R;",
             "  (void)Rd;"]
        if arg:
            cmp = ">" if arg[0] == "max" else "<"
            s += ["  double best = 0.0; int64_t bi = -1;",
                  f"  for (int64_t r = 0; r < R; ++r) {{ const double v = {arg[1]}; if (bi < 0 || v {cmp} best) {{ best = v; bi = r; }} }}",
                  "  out[t] = bi < 0 ? 0 : bi;"]
            return "\n".join(s)
        for ph in phases:
            s += accumulate(ph, "for (int64_t r = 0; r < R; ++r)")
        if final is not None:
            s.append(f"  out[t] = ({out_ct})({final});")
        else:
            s.append(f"  for (int64_t r = 0; r < R; ++r) AT(out) = (float)({rowmap});")
        return "\n".join(s)

    def block_body():
        s = ["  const int64_t t = blockIdx.x;", "  const int64_t o = t / I, i = t % I;", "  const int64_t base = o * R * I + i;",
             "  const double Rd = (double)R;", "  (void)Rd;", "  __shared__ double sh[256];", "  __shared__ int64_t shi[256];",
             "  (void)shi;"]
        if arg:
            cmp = ">" if arg[0] == "max" else "<"
            s += ["  double best = 0.0; int64_t bi = -1;",
                  f"  for (int64_t r = threadIdx.x; r < R; r += blockDim.x) {{ const double v = {arg[1]}; if (bi < 0 || v {cmp} best) {{ best = v; bi = r; }} }}",
                  "  sh[threadIdx.x] = best; shi[threadIdx.x] = bi;", "  __syncthreads();",
                  "  for (int w = blockDim.x / 2; w > 0; w >>= 1) {", "    if (threadIdx.x < w) {",
                  "      const double ov = sh[threadIdx.x + w]; const int64_t oi = shi[threadIdx.x + w];",
                  "      const int64_t mi = shi[threadIdx.x];",
                  f"      if (oi >= 0 && (mi < 0 || ov {cmp} sh[threadIdx.x] || (ov == sh[threadIdx.x] && oi < mi))) {{ sh[threadIdx.x] = ov; shi[threadIdx.x] = oi; }}",
                  "    }", "    __syncthreads();", "  }", "  if (threadIdx.x == 0) out[t] = shi[0] < 0 ? 0 : shi[0];"]
            return "\n".join(s)
        for ph in phases:
            s += accumulate(ph, "for (int64_t r = threadIdx.x; r < R; r += blockDim.x)")
            for a, op, _ in ph:
                s += [f"  sh[threadIdx.x] = {a};", "  __syncthreads();", "  for (int w = blockDim.x / 2; w > 0; w >>= 1) {",
                      "    if (threadIdx.x < w) sh[threadIdx.x] = " + OPS[op][1].format(a="sh[threadIdx.x]", b="sh[threadIdx.x + w]") + ";",
                      "    __syncthreads();", "  }", f"  {a} = sh[0];", "  __syncthreads();"]
        if final is not None:
            s.append(f"  if (threadIdx.x == 0) out[t] = ({out_ct})({final});")
        else:
            s.append(f"  for (int64_t r = threadIdx.x; r < R; r += blockDim.x) AT(out) = (float)({rowmap});")
        return "\n".join(s)

    impls = {}
    for strat, desc, kname, body, launch in [
        ("naive", "naive (weak) — one thread per reduced line walking the whole line sequentially (double accumulators), few threads and uncoalesced reads",
         f"{key}_line_kernel", naive_body(),
         f"  const int threads = 64;\n  {key}_line_kernel<<<(unsigned)((O * I + threads - 1) / threads), threads, 0, stream>>>({kargs});"),
        ("block_per_line", "block_per_line — one 256-thread block per reduced line: strided partial accumulators, shared-memory tree reductions, the line's map by the whole block",
         f"{key}_block_kernel", block_body(),
         f"  {key}_block_kernel<<<(unsigned)(O * I), 256, 0, stream>>>({kargs});")]:
        fn = f"{key}_{strat}_forward"
        host = f"""{_decl(fn, allt, scalars)} {{
{_host_head(allt)}
{_lines_host(x, dim, keep, final is not None or arg is not None, out_ct)}  if (out.numel() == 0 || R == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
{launch}
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}}"""
        kern = f"__global__ void {kname}({kp}) {{\n{body}\n}}"
        impls[strat] = Impl(desc, macro + "\n" + kern + "\n\n" + host + "\n", _decl(fn, allt, scalars) + ";", fn, call.format(fn=fn))
    return impls


def scan_impls(key, x, dim, pre, op, post, reverse=False, call=""):
    """Inclusive scan over dim of x viewed as (O, R, I): s_r = op(s_{r-1}, pre) (double), out = post(s)
    (pre reads AT(x); post uses s and AT(x)); reverse: from the end of the line."""
    tensors = [(x, "float")]
    kp = _kparams(tensors, [], [("O", ""), ("R", ""), ("I", "")], "float")
    kargs = _kargs(tensors, [], [("O", ""), ("R", ""), ("I", "")], "float")
    ident, comb = OPS[op]
    ridx = "(R - 1 - k)" if reverse else "k"
    naive = f"""__global__ void {key}_line_kernel({kp}) {{
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= O * I) return;
  const int64_t o = t / I, i = t % I;
  const int64_t base = o * R * I + i;
  double s = {ident};
  for (int64_t k = 0; k < R; ++k) {{
    const int64_t r = {ridx};
    s = {comb.format(a="s", b=f"(double)({pre})")};
    AT(out) = (float)({post});
  }}
}}"""
    warp = f"""__global__ void {key}_warp_kernel({kp}) {{
  const int64_t line = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (line >= O * I) return;  // uniform over the warp
  const int64_t o = line / I, i = line % I;
  const int64_t base = o * R * I + i;
  double carry = {ident};
  for (int64_t c0 = 0; c0 < R; c0 += 32) {{
    const int64_t k = c0 + lane;
    const int64_t r = {ridx};
    double v = {ident};
    if (k < R) v = (double)({pre});
    for (int off = 1; off < 32; off <<= 1) {{
      const double y = __shfl_up_sync(0xffffffffu, v, off);
      if (lane >= off) v = {comb.format(a="y", b="v")};
    }}
    const double s = {comb.format(a="carry", b="v")};
    if (k < R) AT(out) = (float)({post});
    carry = __shfl_sync(0xffffffffu, s, 31);
  }}
}}"""
    impls = {}
    for strat, desc, kern, launch in [
        ("naive", "naive (weak) — one thread per line scanning it sequentially (double running value); few threads, uncoalesced",
         naive, f"  const int threads = 64;\n  {key}_line_kernel<<<(unsigned)((O * I + threads - 1) / threads), threads, 0, stream>>>({kargs});"),
        ("warp_scan", "warp_scan — one warp per line: 32-element chunks scanned with __shfl_up_sync (Kogge-Stone), the running value carried from lane 31",
         warp, f"  const int64_t lines = O * I;\n  {key}_warp_kernel<<<(unsigned)((lines * 32 + 127) / 128), 128, 0, stream>>>({kargs});")]:
        fn = f"{key}_{strat}_forward"
        host = f"""{_decl(fn, tensors, [])} {{
{_host_head(tensors)}
{_lines_host(x, dim, False, False, "float")}  if (out.numel() == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
{launch}
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}}"""
        impls[strat] = Impl(desc, "#define AT(p) ((p)[base + (int64_t)r * I])\n\n" + kern + "\n\n" + host + "\n",
                            _decl(fn, tensors, []) + ";", fn, call.format(fn=fn))
    return impls


def gemm_impls(key, tensors, scalars, dims, out_alloc, a_at, b_at, epi, call=""):
    """C[bb, m, n] = epi(acc = sum_k A(bb, m, k) * B(bb, k, n)). dims must define NB, M, N, K (host
    expressions); a_at / b_at: C expressions of bb, m, k / bb, k, n reading the tensors; epi: an
    expression of acc (float), bb, m, n. out_alloc defines `out` of NB * M * N elements."""
    kp = _kparams(tensors, scalars, dims, "float")
    kargs = _kargs(tensors, scalars, dims, "float")
    dims_host = "".join(f"  const int64_t {n} = {e};\n" for n, e in dims)
    macros = f"#define A_AT(bb, m, k) ({a_at})\n#define B_AT(bb, k, n) ({b_at})\n"
    naive = f"""__global__ void {key}_naive_kernel({kp}) {{
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= NB * M * N) return;
  const int64_t m = t % M, n = (t / M) % N, bb = t / (M * N);  // m fastest: strided writes
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += A_AT(bb, m, k) * B_AT(bb, k, n);
  out[(bb * M + m) * N + n] = {epi};
}}"""
    tiled = f"""__global__ void {key}_tiled_kernel({kp}) {{
  __shared__ float As[16][17];
  __shared__ float Bs[16][17];
  const int64_t bb = blockIdx.z;
  const int64_t m = (int64_t)blockIdx.y * 16 + threadIdx.y;
  const int64_t n = (int64_t)blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int64_t k0 = 0; k0 < K; k0 += 16) {{
    const int64_t ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (m < M && ka < K) ? A_AT(bb, m, ka) : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (kb < K && n < N) ? B_AT(bb, kb, n) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 16; ++kk) acc += As[threadIdx.y][kk] * Bs[kk][threadIdx.x];
    __syncthreads();
  }}
  if (m < M && n < N) out[(bb * M + m) * N + n] = {epi};
}}"""
    impls = {}
    for strat, desc, kern, launch in [
        ("naive", "naive (weak) — one thread per output with the row index fastest (strided writes, no reuse of A or B)",
         naive, f"  const int threads = 128;\n  {key}_naive_kernel<<<(unsigned)((NB * M * N + threads - 1) / threads), threads, 0, stream>>>({kargs});"),
        ("smem_tiled", "smem_tiled — 16x16 output tiles, A and B staged through shared memory 16 columns of K at a time",
         tiled, f"  TORCH_CHECK(NB <= 65535, \"batch too large for this grid\");\n  {key}_tiled_kernel<<<dim3((unsigned)((N + 15) / 16), (unsigned)((M + 15) / 16), (unsigned)NB), dim3(16, 16), 0, stream>>>({kargs});")]:
        fn = f"{key}_{strat}_forward"
        host = f"""{_decl(fn, tensors, scalars)} {{
{_host_head(tensors)}
{dims_host}  {out_alloc}
  if (out.numel() == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
{launch}
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}}"""
        impls[strat] = Impl(desc, macros + "\n" + kern + "\n\n" + host + "\n", _decl(fn, tensors, scalars) + ";", fn, call.format(fn=fn))
    return impls
