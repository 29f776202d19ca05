// strategy: nnz_group8_vec4 — load-balanced over nonzeros: a group of 8 lanes per nonzero (grid-stride over nnz, so long, short and empty rows cost the same), the group finds the nonzero's row by binary search in rowptr, streams A and B rows with float4 loads (scalar when K % 4 != 0) and reduces with a width-8 xor shuffle
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kG = 8;

// last row r with rowptr[r] <= k, i.e. rowptr[r] <= k < rowptr[r+1]
__device__ __forceinline__ int row_of(const int* __restrict__ rowptr, int rows, int k) {
  int lo = 0, hi = rows;
  while (hi - lo > 1) {
    const int mid = lo + ((hi - lo) >> 1);
    if (__ldg(rowptr + mid) <= k) lo = mid;
    else hi = mid;
  }
  return lo;
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads)
sddmm_group_kernel(int rows, int K, int nnz, const int* __restrict__ rowptr, const int* __restrict__ colidx,
                   const float* __restrict__ vals, const float* __restrict__ A, const float* __restrict__ B,
                   float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const int s = lane & (kG - 1);
  const unsigned int gmask = 0xffu << (lane & ~(kG - 1));  // the 8 lanes of this group
  const long long groups_total = ((long long)gridDim.x * blockDim.x) / kG;
  for (long long g = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / kG; g < nnz; g += groups_total) {
    const int k = (int)g;  // identical for the 8 lanes of the group, so the loop is group-uniform
    const int r = row_of(rowptr, rows, k);
    const int c = __ldg(colidx + k);
    float acc = 0.0f;
    if (kVec) {
      const int K4 = K >> 2;
      const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)r * (size_t)K);
      const float4* b4 = reinterpret_cast<const float4*>(B + (size_t)c * (size_t)K);
      float acc1 = 0.0f;
      for (int u = s; u < K4; u += kG) {
        const float4 av = __ldg(a4 + u);
        const float4 bv = __ldg(b4 + u);
        acc = fmaf(av.x, bv.x, acc);
        acc1 = fmaf(av.y, bv.y, acc1);
        acc = fmaf(av.z, bv.z, acc);
        acc1 = fmaf(av.w, bv.w, acc1);
      }
      acc += acc1;
    } else {
      const float* arow = A + (size_t)r * (size_t)K;
      const float* brow = B + (size_t)c * (size_t)K;
      for (int t = s; t < K; t += kG) acc = fmaf(__ldg(arow + t), __ldg(brow + t), acc);
    }
    acc += __shfl_xor_sync(gmask, acc, 4, kG);
    acc += __shfl_xor_sync(gmask, acc, 2, kG);
    acc += __shfl_xor_sync(gmask, acc, 1, kG);
    if (s == 0) out[k] = __ldg(vals + k) * acc;
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

}  // namespace

extern "C" void sddmm_csr_f32(int rows, int cols, int K, int nnz, const int* rowptr, const int* colidx,
                              const float* vals, const float* A, const float* B, float* out, cudaStream_t stream) {
  (void)cols;
  if (rows <= 0 || nnz <= 0) return;
  const int groups_per_block = kThreads / kG;
  long long blocks = ((long long)nnz + groups_per_block - 1) / groups_per_block;
  const long long max_blocks = 64LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  if (K % 4 == 0)
    sddmm_group_kernel<true><<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, K, nnz, rowptr, colidx, vals, A, B, out);
  else
    sddmm_group_kernel<false><<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, K, nnz, rowptr, colidx, vals, A, B, out);
}
