// strategy: row_in_smem — one block per query row: every biased score of the row is kept in shared memory (thread per key, q broadcast from shared memory), a block-wide max and an exact exponentiation pass replace the online softmax, then column groups of threads sweep V with coalesced row reads and are merged in a fixed order
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kThreads = 128;
constexpr int kWarpsPerRow = kThreads / 32;

// Reduces v over the block (max when take_max, else sum) with warps combined in a fixed order.
__device__ float block_fold(float v, bool take_max, float* scratch) {
  for (int off = 16; off > 0; off >>= 1) {
    const float o = __shfl_down_sync(0xffffffffu, v, off);
    v = take_max ? fmaxf(v, o) : v + o;
  }
  __syncthreads();  // scratch may still be read by a previous fold
  if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = scratch[0];
  for (int w = 1; w < kWarpsPerRow; ++w) r = take_max ? fmaxf(r, scratch[w]) : r + scratch[w];
  return r;
}

// Dynamic shared memory: row[seq] | qv[d] | part[kThreads]   (static: fold[kWarpsPerRow])
__global__ void __launch_bounds__(kThreads)
alibi_row_kernel(int seq, int d, float scale, const float* __restrict__ Q, const float* __restrict__ K,
                 const float* __restrict__ V, const float* __restrict__ slopes, float* __restrict__ out) {
  extern __shared__ float sh[];
  float* row = sh;
  float* qv = row + seq;
  float* part = qv + d;
  __shared__ float fold[kWarpsPerRow];
  const int i = blockIdx.x, h = blockIdx.y, tid = threadIdx.x;
  const size_t head = (size_t)h * seq * d;
  const float slope = __ldg(slopes + h);
  for (int c = tid; c < d; c += kThreads) qv[c] = __ldg(Q + head + (size_t)i * d + c);
  __syncthreads();

  // 1. scores: thread per key, each walks its own K row
  float best = -INFINITY;
  for (int j = tid; j < seq; j += kThreads) {
    const float* krow = K + head + (size_t)j * d;
    float dot = 0.0f;
    for (int c = 0; c < d; ++c) dot = fmaf(qv[c], __ldg(krow + c), dot);
    const float sj = __fmul_rn(dot, scale) - __fmul_rn(slope, (float)abs(i - j));
    row[j] = sj;
    best = fmaxf(best, sj);
  }
  const float mx = block_fold(best, true, fold);  // finite: seq >= 1

  // 2. probabilities (unnormalised) in place, and their sum; each thread rereads only its own entries
  float mass = 0.0f;
  for (int j = tid; j < seq; j += kThreads) {
    const float e = expf(row[j] - mx);
    row[j] = e;
    mass += e;
  }
  const float total = block_fold(mass, false, fold);  // also orders the row writes before step 3

  // 3. out = row . V: thread (grp, c) sums keys grp, grp + groups, ... of column c
  const int groups = kThreads / d;  // >= 1 since d <= 128
  const int grp = tid / d, c = tid - grp * d;
  float sum = 0.0f;
  if (grp < groups) {
    const float* vcol = V + head + c;
    for (int j = grp; j < seq; j += groups) sum = fmaf(row[j], __ldg(vcol + (size_t)j * d), sum);
  }
  part[tid] = sum;
  __syncthreads();
  if (tid < d) {
    float a = part[tid];
    for (int g = 1; g < groups; ++g) a += part[g * d + tid];
    out[head + (size_t)i * d + tid] = a / total;
  }
}

}  // namespace

extern "C" void alibi_attention_f32(int heads, int seq, int d, const float* Q, const float* K, const float* V,
                                    const float* slopes, float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  const size_t smem = ((size_t)seq + d + kThreads) * sizeof(float);
  if (smem > 48 * 1024) cudaFuncSetAttribute(alibi_row_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  const float scale = 1.0f / sqrtf((float)d);
  dim3 grid((unsigned int)seq, (unsigned int)heads);
  alibi_row_kernel<<<grid, kThreads, smem, stream>>>(seq, d, scale, Q, K, V, slopes, out);
}
