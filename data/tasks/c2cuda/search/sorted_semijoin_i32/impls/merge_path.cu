// strategy: merge_path — work-efficient O(na + nb): the virtual merge of a and b (ties: b first) is cut into 16-step diagonals; each thread finds its start by a co-rank binary search and then walks its 16 merge steps sequentially, marking an element of a as a hit when the last b consumed before it equals it; per-warp shuffle sums feed the total
#include <cuda_runtime.h>

namespace {

constexpr int kSteps = 16;
constexpr int kThreads = 256;

// number of elements of a among the first d outputs of the merge in which a[i] precedes b[j]
// iff a[i] < b[j]
__device__ __forceinline__ long long corank(long long d, const int* __restrict__ a, long long na,
                                            const int* __restrict__ b, long long nb) {
  long long lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const long long mid = (lo + hi) >> 1;
    if (__ldg(a + mid) < __ldg(b + (d - 1 - mid)))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads)
semijoin_merge_path(int na, int nb, const int* __restrict__ a, const int* __restrict__ b, int* __restrict__ hit,
                    int* __restrict__ total) {
  const long long all = (long long)na + nb;
  const long long d0 = ((long long)blockIdx.x * kThreads + threadIdx.x) * kSteps;
  int mine = 0;
  if (d0 < all) {
    long long i = corank(d0, a, na, b, nb);
    long long j = d0 - i;
    bool have_b = j > 0;
    int last_b = have_b ? __ldg(b + j - 1) : 0;
    const int steps = (int)min((long long)kSteps, all - d0);
    int av = i < na ? __ldg(a + i) : 0;
    for (int s = 0; s < steps; ++s) {
      if (j < nb && (i >= na || __ldg(b + j) <= av)) {
        last_b = __ldg(b + j);
        have_b = true;
        ++j;
      } else {
        const int h = (have_b && last_b == av) ? 1 : 0;
        hit[i] = h;
        mine += h;
        ++i;
        if (i < na) av = __ldg(a + i);
      }
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) mine += __shfl_xor_sync(0xffffffffu, mine, off);
  if ((threadIdx.x & 31) == 0 && mine) atomicAdd(total, mine);
}

}  // namespace

extern "C" void sorted_semijoin_i32(int na, int nb, const int* a, const int* b, int* hit, int* total,
                                    cudaStream_t stream) {
  cudaMemsetAsync(total, 0, sizeof(int), stream);
  if (na <= 0) return;
  const long long all = (long long)na + nb;
  const long long threads_needed = (all + kSteps - 1) / kSteps;
  const unsigned blocks = (unsigned)((threads_needed + kThreads - 1) / kThreads);
  semijoin_merge_path<<<blocks, kThreads, 0, stream>>>(na, nb, a, b, hit, total);
}
