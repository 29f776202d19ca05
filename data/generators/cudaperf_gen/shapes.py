"""Kernel shapes shared by the families: each turns a family's element code into the C reference
body and three CUDA implementations of distinct strategies (one deliberately weak, `naive`).

Element code is C that is also valid CUDA. Helpers are written once with the macro DEV in front of
each function; the reference defines it as `static inline`, the impls as
`static __device__ __forceinline__`. FMUL(a, b) is a float product that is never fused into an FMA
(the C reference has no FMA), for element code whose rounding must be bit-exact (quantisation)."""

C_DEFS = "#define DEV static inline\n#define FMUL(a, b) ((a) * (b))\n"
CUDA_DEFS = "#define DEV static __device__ __forceinline__\n#define FMUL(a, b) __fmul_rn((a), (b))\n"


def c_helpers(helpers):
    return C_DEFS + helpers


def cu_prefix(helpers):
    return CUDA_DEFS + helpers + "\n"


def params_decl(params):
    return ", ".join(p.c_decl() for p in params)


def args(params):
    return ", ".join(p.name for p in params)


def indent(code, n):
    pad = " " * n
    return "\n".join(pad + l if l.strip() else l for l in code.strip("\n").splitlines())


# The launchers of the row shapes (row reduction, scan): a thread, a warp or a block per row.
ROW_LAUNCH = {"naive": "k_naive<<<(unsigned)((R_ + 127) / 128), 128, 0, stream>>>",
              "warp": "k_warp<<<(unsigned)((R_ + 7) / 8), 256, 0, stream>>>",
              "block": "k_block<<<(unsigned)(R_ < 65535 ? R_ : 65535), 256, 0, stream>>>"}


def row_launch(kind, decl, rows, a):
    return f"""extern "C" void FN({decl}, cudaStream_t stream) {{
  const long long R_ = {rows};
  if (R_ <= 0) return;
  {ROW_LAUNCH[kind]}({a});
}}"""


# ---------------------------------------------------------------------------------------------
# MAP: for i in [0, N_): BODY(i). BODY may write several outputs; every output element is written
# by exactly one i.
def map_shape(params, count, body, helpers="", what="element"):
    decl, a = params_decl(params), args(params)
    pre = cu_prefix(helpers)
    ref = f"  const long long N_ = {count};\n  for (long long i = 0; i < N_; ++i) {{\n{indent(body, 4)}\n  }}"
    naive = pre + f"""
__global__ void k_naive({decl}) {{
  const long long N_ = {count};
  const long long i0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 16;
  for (long long i = i0; i < i0 + 16 && i < N_; ++i) {{
{indent(body, 4)}
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
  const long long N_ = {count};
  if (N_ <= 0) return;
  const long long threads = (N_ + 15) / 16;
  k_naive<<<(unsigned)((threads + 63) / 64), 64, 0, stream>>>({a});
}}"""
    grid = pre + f"""
__global__ void k_grid({decl}) {{
  const long long N_ = {count};
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N_; i += stride) {{
{indent(body, 4)}
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
  const long long N_ = {count};
  if (N_ <= 0) return;
  long long blocks = (N_ + 255) / 256;
  if (blocks > 132 * 16) blocks = 132 * 16;
  k_grid<<<(unsigned)blocks, 256, 0, stream>>>({a});
}}"""
    unroll = pre + f"""
__global__ void k_unroll({decl}) {{
  const long long N_ = {count};
  const long long base = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
  for (int u = 0; u < 4; ++u) {{
    const long long i = base + (long long)u * blockDim.x;
    if (i < N_) {{
{indent(body, 6)}
    }}
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
  const long long N_ = {count};
  if (N_ <= 0) return;
  k_unroll<<<(unsigned)((N_ + 1023) / 1024), 256, 0, stream>>>({a});
}}"""
    impls = {
        "naive": (f"(weak) one thread per run of 16 consecutive {what}s (uncoalesced: a warp touches 32 separate runs), 64-thread blocks", naive),
        "grid_stride": (f"coalesced grid-stride loop, one {what} per thread per step, 256-thread blocks, grid capped at 16 blocks per SM", grid),
        "block_unroll4": (f"each 256-thread block covers 1024 consecutive {what}s, four coalesced unrolled steps per thread", unroll),
    }
    return ref, impls


# ---------------------------------------------------------------------------------------------
# ROWRED: for r in [0, ROWS): reductions over j in [LO, HI), then FINISH (one thread) and an
# optional ROWMAP over j in [LO, HI) that may use the reduction results.
class Red:
    def __init__(self, name, ctype, op, elem, init=None):
        self.name, self.ctype, self.op, self.elem = name, ctype, op, elem
        self.init = init if init is not None else identity(op, ctype)


def identity(op, ctype):
    if op == "add":
        return "0"
    big = {"double": "1e300", "float": "3.0e38f", "int": "2147483647", "long long": "9223372036854775807LL",
           "unsigned int": "4294967295u"}[ctype]
    if op == "min":
        return big
    if ctype == "unsigned int":
        return "0u"
    return f"(-{big})" if "LL" not in big else "(-9223372036854775807LL - 1)"


def combine(op, a, b):
    return {"add": f"({a} + {b})", "max": f"({a} > {b} ? {a} : {b})", "min": f"({a} < {b} ? {a} : {b})"}[op]


def rowred_shape(params, rows, lo, hi, reds, finish, rowmap="", helpers="", what="row", row_pre=""):
    decl, a = params_decl(params), args(params)
    pre = cu_prefix(helpers)
    # reference: serial
    ref = [f"  const long long R_ = {rows};", "  for (long long r = 0; r < R_; ++r) {",
           f"    const long long lo = {lo}, hi = {hi};"]
    if row_pre:
        ref.append(indent(row_pre, 4))
    for rd in reds:
        ref += [f"    {rd.ctype} {rd.name} = {rd.init};",
                f"    for (long long j = lo; j < hi; ++j) {{ {rd.ctype} e_ = {rd.elem}; {rd.name} = {combine(rd.op, rd.name, 'e_')}; }}"]
    if finish:
        ref.append(indent(finish, 4))
    if rowmap:
        ref += ["    for (long long j = lo; j < hi; ++j) {", indent(rowmap, 6), "    }"]
    ref += ["    (void)lo; (void)hi;", "  }"]
    ref = "\n".join(ref)

    def serial_body(pad):
        out = []
        for rd in reds:
            out += [f"{rd.ctype} {rd.name} = {rd.init};",
                    f"for (long long j = lo; j < hi; ++j) {{ {rd.ctype} e_ = {rd.elem}; {rd.name} = {combine(rd.op, rd.name, 'e_')}; }}"]
        if finish:
            out.append(finish.strip())
        if rowmap:
            out += ["for (long long j = lo; j < hi; ++j) {", indent(rowmap, 2), "}"]
        return indent("\n".join(out), pad)

    naive = pre + f"""
__global__ void k_naive({decl}) {{
  const long long R_ = {rows};
  const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R_) return;
  const long long lo = {lo}, hi = {hi};
{indent(row_pre, 2) if row_pre else ""}
{serial_body(2)}
}}

{row_launch("naive", decl, rows, a)}"""

    # warp per row: lanes stride the row, butterfly shuffles give every lane the result
    w = []
    for rd in reds:
        w += [f"{rd.ctype} {rd.name} = {rd.init};",
              f"for (long long j = lo + lane; j < hi; j += 32) {{ {rd.ctype} e_ = {rd.elem}; {rd.name} = {combine(rd.op, rd.name, 'e_')}; }}",
              f"for (int off = 16; off > 0; off >>= 1) {{ {rd.ctype} o_ = __shfl_xor_sync(0xffffffffu, {rd.name}, off); {rd.name} = {combine(rd.op, rd.name, 'o_')}; }}"]
    if finish:
        w += ["if (lane == 0) {", indent(finish, 2), "}"]
    if rowmap:
        w += ["for (long long j = lo + lane; j < hi; j += 32) {", indent(rowmap, 2), "}"]
    warp = pre + f"""
__global__ void k_warp({decl}) {{
  const long long R_ = {rows};
  const long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (r >= R_) return;  // whole warps leave together
  const long long lo = {lo}, hi = {hi};
{indent(row_pre, 2) if row_pre else ""}
{indent(chr(10).join(w), 2)}
}}

{row_launch("warp", decl, rows, a)}"""

    # block per row: shared-memory tree per reduction, result broadcast through shared memory
    b = []
    shared = []
    for k, rd in enumerate(reds):
        shared.append(f"__shared__ {rd.ctype} s{k}_[256];")
        b += [f"{rd.ctype} {rd.name} = {rd.init};",
              f"for (long long j = lo + t; j < hi; j += 256) {{ {rd.ctype} e_ = {rd.elem}; {rd.name} = {combine(rd.op, rd.name, 'e_')}; }}",
              f"s{k}_[t] = {rd.name};", "__syncthreads();",
              f"for (int h = 128; h > 0; h >>= 1) {{ if (t < h) s{k}_[t] = {combine(rd.op, f's{k}_[t]', f's{k}_[t + h]')}; __syncthreads(); }}",
              f"{rd.name} = s{k}_[0];", "__syncthreads();"]
    if finish:
        b += ["if (t == 0) {", indent(finish, 2), "}"]
    if rowmap:
        b += ["for (long long j = lo + t; j < hi; j += 256) {", indent(rowmap, 2), "}"]
    block = pre + f"""
__global__ void k_block({decl}) {{
{indent(chr(10).join(shared), 2)}
  const long long R_ = {rows};
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < R_; r += gridDim.x) {{
    const long long lo = {lo}, hi = {hi};
{indent(row_pre, 4) if row_pre else ""}
{indent(chr(10).join(b), 4)}
  }}
}}

{row_launch("block", decl, rows, a)}"""
    impls = {
        "naive": (f"(weak) one thread per {what} walks it serially (neighbouring threads read addresses a {what} apart: uncoalesced)", naive),
        "warp_per_row": (f"one warp per {what}: lanes stride the {what}, butterfly __shfl_xor_sync reductions, every lane writes its share", warp),
        "block_per_row": (f"one 256-thread block per {what}: strided partials, a shared-memory tree per reduction, results broadcast through shared memory", block),
    }
    return ref, impls


# ---------------------------------------------------------------------------------------------
# SCAN: per row r of ROWS rows of length LEN: v_j = ELEM(r, j) (type ctype), flag_j = FLAG (0/1,
# resets the running value at j), out[r*LEN + j] = STORE(inclusive or exclusive prefix).
def scan_shape(params, rows, length, ctype, op, elem, flag, store, exclusive, helpers="", what="row"):
    decl, a = params_decl(params), args(params)
    pre = cu_prefix(helpers)
    ident = identity(op, ctype)
    comb = lambda x, y: combine(op, x, y)
    # one row, serially: the reference's loop body and the naive kernel's whole work
    serial = f"""{ctype} acc = {ident};
for (long long j = 0; j < L_; ++j) {{
  const {ctype} v = {elem};
  const int f = {flag};
  {ctype} before = f ? {ident} : acc;
  acc = {comb('before', 'v')};
  const {ctype} s = {'before' if exclusive else 'acc'};
  {store}
}}"""
    ref = f"""  const long long R_ = {rows}, L_ = {length};
  for (long long r = 0; r < R_; ++r) {{
{indent(serial, 4)}
  }}"""
    naive = pre + f"""
__global__ void k_naive({decl}) {{
  const long long R_ = {rows}, L_ = {length};
  const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R_) return;
{indent(serial, 2)}
}}

{row_launch("naive", decl, rows, a)}"""
    warp = pre + f"""
__global__ void k_warp({decl}) {{
  const long long R_ = {rows}, L_ = {length};
  const long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (r >= R_) return;  // whole warps leave together
  {ctype} carry = {ident};
  for (long long c = 0; c < L_; c += 32) {{
    const long long j = c + lane;
    {ctype} v = {ident};
    int f = 0;
    if (j < L_) {{ v = {elem}; f = {flag}; }}
    // Kogge-Stone over (flag, value) pairs: a flag stops what comes from the left
    for (int off = 1; off < 32; off <<= 1) {{
      const {ctype} vu = __shfl_up_sync(0xffffffffu, v, off);
      const int fu = __shfl_up_sync(0xffffffffu, f, off);
      if (lane >= off) {{ if (!f) v = {comb('vu', 'v')}; f |= fu; }}
    }}
    const {ctype} inc = f ? v : {comb('carry', 'v')};
    {ctype} exc = __shfl_up_sync(0xffffffffu, inc, 1);
    if (lane == 0) exc = carry;
    if (j < L_) {{
      const int fj = {flag};
      if (fj) exc = {ident};
      const {ctype} s = {'exc' if exclusive else 'inc'};
      {store}
    }}
    carry = __shfl_sync(0xffffffffu, inc, 31);
  }}
}}

{row_launch("warp", decl, rows, a)}"""
    block = pre + f"""
__global__ void k_block({decl}) {{
  __shared__ {ctype} sv[256];
  __shared__ int sf[256];
  __shared__ {ctype} scarry;
  const long long R_ = {rows}, L_ = {length};
  const int t = threadIdx.x;
  for (long long r = blockIdx.x; r < R_; r += gridDim.x) {{
    if (t == 0) scarry = {ident};
    __syncthreads();
    for (long long c = 0; c < L_; c += 256) {{
      const long long j = c + t;
      {ctype} v = {ident};
      int f = 0;
      if (j < L_) {{ v = {elem}; f = {flag}; }}
      sv[t] = v; sf[t] = f;
      __syncthreads();
      // Hillis-Steele in shared memory over (flag, value) pairs
      for (int off = 1; off < 256; off <<= 1) {{
        {ctype} vu = {ident};
        int fu = 0;
        if (t >= off) {{ vu = sv[t - off]; fu = sf[t - off]; }}
        __syncthreads();
        if (t >= off) {{ if (!f) v = {comb('vu', 'v')}; f |= fu; }}
        sv[t] = v; sf[t] = f;
        __syncthreads();
      }}
      const {ctype} carry = scarry;
      const {ctype} inc = f ? v : {comb('carry', 'v')};
      __syncthreads();
      sv[t] = inc;
      __syncthreads();
      {ctype} exc = t == 0 ? carry : sv[t - 1];
      if (j < L_) {{
        const int fj = {flag};
        if (fj) exc = {ident};
        const {ctype} s = {'exc' if exclusive else 'inc'};
        {store}
      }}
      if (t == 255) scarry = inc;
      __syncthreads();
    }}
  }}
}}

{row_launch("block", decl, rows, a)}"""
    impls = {
        "naive": (f"(weak) one thread per {what} scans it serially (uncoalesced across the warp)", naive),
        "warp_scan": (f"one warp per {what}: 32-element chunks, Kogge-Stone __shfl_up_sync scan of (flag, value) pairs, carry broadcast from lane 31", warp),
        "block_scan": (f"one 256-thread block per {what}: Hillis-Steele scan in shared memory per 256-element chunk, carry kept in shared memory", block),
    }
    return ref, impls


# ---------------------------------------------------------------------------------------------
# GEMM: out[b, i, j] = EPI(acc, b, i, j), acc = sum_k A(b, i, k) * B(b, k, j), A/B given as C
# index expressions (macros) so the transposes are the family's choice.
def gemm_shape(params, batch, m, n, k, a_at, b_at, epi, helpers="", acc="float"):
    decl, a = params_decl(params), args(params)
    pre = cu_prefix(helpers)
    macros = f"#define A_AT(b, i, k) ({a_at})\n#define B_AT(b, k, j) ({b_at})\n"
    ref_body = f"""  const int BATCH_ = {batch}, M_ = {m}, N_ = {n}, K_ = {k};
  for (int b = 0; b < BATCH_; ++b)
    for (int i = 0; i < M_; ++i)
      for (int j = 0; j < N_; ++j) {{
        double acc = 0;
        for (int kk = 0; kk < K_; ++kk) acc += (double)A_AT(b, i, kk) * (double)B_AT(b, kk, j);
{indent(epi, 8)}
      }}"""
    naive = pre + macros + f"""
__global__ void k_naive({decl}) {{
  const int BATCH_ = {batch}, M_ = {m}, N_ = {n}, K_ = {k};
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)BATCH_ * M_ * N_) return;
  const int i = (int)(t % M_), j = (int)((t / M_) % N_), b = (int)(t / ((long long)M_ * N_));  // i fastest: strided stores
  {acc} acc = 0;
  for (int kk = 0; kk < K_; ++kk) acc += ({acc})A_AT(b, i, kk) * ({acc})B_AT(b, kk, j);
{indent(epi, 2)}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
  const long long total = (long long)({batch}) * ({m}) * ({n});
  if (total <= 0) return;
  k_naive<<<(unsigned)((total + 127) / 128), 128, 0, stream>>>({a});
}}"""
    coal = pre + macros + f"""
__global__ void k_coalesced({decl}) {{
  const int BATCH_ = {batch}, M_ = {m}, N_ = {n}, K_ = {k};
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M_ || j >= N_) return;
  for (int b = blockIdx.z; b < BATCH_; b += gridDim.z) {{
    {acc} a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int kk = 0;
    for (; kk + 3 < K_; kk += 4) {{
      a0 += ({acc})A_AT(b, i, kk) * ({acc})B_AT(b, kk, j);
      a1 += ({acc})A_AT(b, i, kk + 1) * ({acc})B_AT(b, kk + 1, j);
      a2 += ({acc})A_AT(b, i, kk + 2) * ({acc})B_AT(b, kk + 2, j);
      a3 += ({acc})A_AT(b, i, kk + 3) * ({acc})B_AT(b, kk + 3, j);
    }}
    for (; kk < K_; ++kk) a0 += ({acc})A_AT(b, i, kk) * ({acc})B_AT(b, kk, j);
    const {acc} acc = (a0 + a1) + (a2 + a3);
{indent(epi, 4)}
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
  const int BATCH_ = {batch}, M_ = {m}, N_ = {n};
  if (BATCH_ <= 0 || M_ <= 0 || N_ <= 0) return;
  dim3 block(32, 8);
  dim3 grid((unsigned)((N_ + 31) / 32), (unsigned)((M_ + 7) / 8), (unsigned)(BATCH_ < 65535 ? BATCH_ : 65535));
  k_coalesced<<<grid, block, 0, stream>>>({a});
}}"""
    tiled = pre + macros + f"""
__global__ void k_tiled({decl}) {{
  __shared__ {acc} sa[16][17];
  __shared__ {acc} sb[16][17];
  const int BATCH_ = {batch}, M_ = {m}, N_ = {n}, K_ = {k};
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j = blockIdx.x * 16 + tx, i = blockIdx.y * 16 + ty;
  for (int b = blockIdx.z; b < BATCH_; b += gridDim.z) {{
  {acc} acc = 0;
  for (int k0 = 0; k0 < K_; k0 += 16) {{
    const int ia = blockIdx.y * 16 + ty, ka = k0 + tx;
    sa[ty][tx] = (ia < M_ && ka < K_) ? ({acc})A_AT(b, ia, ka) : ({acc})0;
    const int kb = k0 + ty, jb = blockIdx.x * 16 + tx;
    sb[ty][tx] = (kb < K_ && jb < N_) ? ({acc})B_AT(b, kb, jb) : ({acc})0;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 16; ++q) acc += sa[ty][q] * sb[q][tx];
    __syncthreads();
  }}
  if (i < M_ && j < N_) {{
{indent(epi, 4)}
  }}
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
  const int BATCH_ = {batch}, M_ = {m}, N_ = {n};
  if (BATCH_ <= 0 || M_ <= 0 || N_ <= 0) return;
  dim3 block(16, 16);
  dim3 grid((unsigned)((N_ + 15) / 16), (unsigned)((M_ + 15) / 16), (unsigned)(BATCH_ < 65535 ? BATCH_ : 65535));
  k_tiled<<<grid, block, 0, stream>>>({a});
}}"""
    impls = {
        "naive": ("(weak) one thread per output with the row index fastest across the warp (strided stores and B reads), no reuse", naive),
        "coalesced": ("one thread per output, the column index fastest (coalesced B reads and stores), k unrolled by 4 into four accumulators", coal),
        "smem_tiled": ("16x16 output tiles, A and B staged through shared memory 16 k at a time (padded against bank conflicts)", tiled),
    }
    return ref_body, impls, macros


# ---------------------------------------------------------------------------------------------
# SCATTER: out[t] = INIT(t) for t in [0, NB_); then for e in [0, E_): out[TARGET(e)] op= VALUE(e),
# op one of add / min / max on int or unsigned int (atomics: exact, order-free).
def scatter_shape(params, nb, count, out, ctype, op, init, target, value, small_nb=None, helpers="", what="element"):
    decl, a = params_decl(params), args(params)
    pre = cu_prefix(helpers)
    ident = identity(op, ctype)
    atom = {"add": "atomicAdd", "min": "atomicMin", "max": "atomicMax"}[op]
    ref = f"""  const long long NB_ = {nb}, E_ = {count};
  for (long long t = 0; t < NB_; ++t) {out}[t] = {init};
  for (long long e = 0; e < E_; ++e) {{
    const long long t = {target};
    const {ctype} v = {value};
    {out}[t] = {combine(op, f'{out}[t]', 'v')};
  }}"""
    init_k = f"""
__global__ void k_init({decl}) {{
  const long long NB_ = {nb};
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < NB_; t += (long long)gridDim.x * blockDim.x)
    {out}[t] = {init};
}}
"""
    launch_init = f"""  const long long NB_ = {nb}, E_ = {count};
  if (NB_ <= 0) return;
  k_init<<<(unsigned)((NB_ + 255) / 256 < 2112 ? (NB_ + 255) / 256 : 2112), 256, 0, stream>>>({a});
  if (E_ <= 0) return;"""
    naive = pre + init_k + f"""
__global__ void k_naive({decl}) {{
  const long long E_ = {count};
  const long long e0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 16;
  for (long long e = e0; e < e0 + 16 && e < E_; ++e) {{
    const long long t = {target};
    const {ctype} v = {value};
    {atom}(&{out}[t], v);
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
{launch_init}
  const long long threads = (E_ + 15) / 16;
  k_naive<<<(unsigned)((threads + 63) / 64), 64, 0, stream>>>({a});
}}"""
    grid = pre + init_k + f"""
__global__ void k_grid({decl}) {{
  const long long E_ = {count};
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < E_; e += stride) {{
    const long long t = {target};
    const {ctype} v = {value};
    {atom}(&{out}[t], v);
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
{launch_init}
  k_grid<<<(unsigned)((E_ + 255) / 256 < 2112 ? (E_ + 255) / 256 : 2112), 256, 0, stream>>>({a});
}}"""
    if small_nb:
        third_name = "shared_privatized"
        third_desc = f"per-block private copy of the {small_nb}-entry output in shared memory (shared atomics), merged with one global atomic per non-identity entry"
        third = pre + init_k + f"""
__global__ void k_private({decl}) {{
  __shared__ {ctype} priv[{small_nb}];
  const long long E_ = {count};
  for (int q = threadIdx.x; q < {small_nb}; q += blockDim.x) priv[q] = {ident};
  __syncthreads();
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < E_; e += stride) {{
    const long long t = {target};
    const {ctype} v = {value};
    {atom}(&priv[t], v);
  }}
  __syncthreads();
  for (int q = threadIdx.x; q < {small_nb}; q += blockDim.x)
    if (priv[q] != {ident}) {atom}(&{out}[q], priv[q]);
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
{launch_init}
  k_private<<<(unsigned)((E_ + 255) / 256 < 264 ? (E_ + 255) / 256 : 264), 256, 0, stream>>>({a});
}}"""
    else:
        third_name = "warp_aggregated"
        third_desc = "grid-stride over 32-element warp batches; lanes with the same target combine through __match_any_sync + shuffles and the lowest lane does one atomic"
        third = pre + init_k + f"""
__global__ void k_aggregated({decl}) {{
  const long long E_ = {count};
  const int lane = threadIdx.x & 31;
  const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long base = (((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5) * 32; base < E_; base += warps * 32) {{
    const long long e = base + lane;
    const bool valid = e < E_;
    long long t = -1;
    {ctype} v = {ident};
    if (valid) {{ t = {target}; v = {value}; }}
    const unsigned peers = __match_any_sync(0xffffffffu, t);
    {ctype} acc = {ident};
    for (int s = 0; s < 32; ++s) {{
      const {ctype} vs = __shfl_sync(0xffffffffu, v, s);
      if ((peers >> s) & 1u) acc = {combine(op, 'acc', 'vs')};
    }}
    if (valid && lane == __ffs(peers) - 1) {atom}(&{out}[t], acc);
  }}
}}

extern "C" void FN({decl}, cudaStream_t stream) {{
{launch_init}
  k_aggregated<<<(unsigned)((E_ + 255) / 256 < 2112 ? (E_ + 255) / 256 : 2112), 256, 0, stream>>>({a});
}}"""
    impls = {
        "naive": (f"(weak) one thread per run of 16 consecutive {what}s (uncoalesced reads), one global atomic each", naive),
        "grid_stride_atomic": (f"coalesced grid-stride loop, one global atomic per {what}", grid),
        third_name: (third_desc, third),
    }
    return ref, impls


def finalize(impls, function):
    return {k: (d, src.replace("extern \"C\" void FN(", f"extern \"C\" void {function}(")) for k, (d, src) in impls.items()}
