// strategy: subwarp_gather — L lanes per destination vertex (L from the mean in-degree), coalesced in-edge reads, per-edge rank/outdeg gathers issued in parallel across lanes, segmented shuffle reduction
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

template <int L>
__global__ void __launch_bounds__(kThreads)
pagerank_subwarp_kernel(int nv, float damping, float teleport, const int* __restrict__ rowptr,
                        const int* __restrict__ colidx, const int* __restrict__ outdeg,
                        const float* __restrict__ rank, float* __restrict__ new_rank) {
  const int sub = threadIdx.x & (L - 1);
  const int groups_total = (gridDim.x * blockDim.x) / L;
  const int g0 = (blockIdx.x * blockDim.x + threadIdx.x) / L;
  const int warp_first = g0 & ~(32 / L - 1);
  for (int base = warp_first; base < nv; base += groups_total) {  // warp-uniform bound
    const int v = base + (g0 - warp_first);
    float s = 0.0f;
    if (v < nv) {
      const int b = __ldg(rowptr + v), e = __ldg(rowptr + v + 1);
      for (int k = b + sub; k < e; k += L) {
        const int u = __ldcs(colidx + k);
        const int deg = __ldg(outdeg + u);
        const float r = __ldg(rank + u);
        if (deg > 0) s += __fdiv_rn(r, (float)deg);
      }
    }
#pragma unroll
    for (int off = L / 2; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off, L);
    if (sub == 0 && v < nv) new_rank[v] = teleport + damping * s;
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

template <int L>
void launch(int nv, float damping, float teleport, const int* rowptr, const int* colidx, const int* outdeg,
            const float* rank, float* new_rank, cudaStream_t stream) {
  long long blocks = ((long long)nv * L + kThreads - 1) / kThreads;
  const long long max_blocks = 32LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  pagerank_subwarp_kernel<L><<<(unsigned int)blocks, kThreads, 0, stream>>>(nv, damping, teleport, rowptr, colidx,
                                                                           outdeg, rank, new_rank);
}

}  // namespace

extern "C" void pagerank_pull(int nv, int ne, float damping, const int* rowptr, const int* colidx,
                              const int* outdeg, const float* rank, float* new_rank, cudaStream_t stream) {
  if (nv <= 0) return;
  const float teleport = (float)((1.0 - (double)damping) / (double)nv);
  const double mean = (double)ne / nv;
  if (mean < 8.0)
    launch<4>(nv, damping, teleport, rowptr, colidx, outdeg, rank, new_rank, stream);
  else if (mean < 24.0)
    launch<8>(nv, damping, teleport, rowptr, colidx, outdeg, rank, new_rank, stream);
  else if (mean < 64.0)
    launch<16>(nv, damping, teleport, rowptr, colidx, outdeg, rank, new_rank, stream);
  else
    launch<32>(nv, damping, teleport, rowptr, colidx, outdeg, rank, new_rank, stream);
}
