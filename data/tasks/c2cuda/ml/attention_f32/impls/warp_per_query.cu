// strategy: warp_per_query — one warp per query row (grid-stride); the query is staged in shared memory, lanes split the keys for the scores (float4 K loads when d % 4 == 0), max / sum by xor shuffles, probabilities kept in per-warp shared memory, then lanes split the d output columns so V rows are read coalesced
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

static constexpr int kWarps = 8;

__global__ void __launch_bounds__(kWarps * 32)
attention_warp_kernel(long long total, int seq, int d, float scale, const float* __restrict__ Q,
                      const float* __restrict__ K, const float* __restrict__ V, float* __restrict__ out) {
  extern __shared__ __align__(16) float smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int dpad = (d + 3) & ~3;  // keep each warp's slice and its q vector 16-byte aligned
  const int spad = (seq + 3) & ~3;
  float* qs = smem + (size_t)warp * (dpad + spad);
  float* ps = qs + dpad;
  const bool vec = ((d & 3) == 0) && ((((uintptr_t)K) & 15) == 0);
  for (long long t = (long long)blockIdx.x * kWarps + warp; t < total; t += (long long)gridDim.x * kWarps) {
    const long long b = t / seq;
    const float* kb = K + b * seq * d;
    const float* vb = V + b * seq * d;
    for (int c = lane; c < d; c += 32) qs[c] = Q[t * d + c];
    __syncwarp();
    float mx = -INFINITY;
    for (int j = lane; j < seq; j += 32) {
      const float* k = kb + (long long)j * d;
      float a0 = 0.f, a1 = 0.f;
      if (vec) {
        for (int c = 0; c < d; c += 4) {
          const float4 kv = __ldg(reinterpret_cast<const float4*>(k + c));
          const float4 qv = *reinterpret_cast<const float4*>(qs + c);
          a0 = fmaf(qv.x, kv.x, a0);
          a1 = fmaf(qv.y, kv.y, a1);
          a0 = fmaf(qv.z, kv.z, a0);
          a1 = fmaf(qv.w, kv.w, a1);
        }
      } else {
        for (int c = 0; c < d; ++c) a0 = fmaf(qs[c], __ldg(k + c), a0);
      }
      const float s = (a0 + a1) * scale;
      ps[j] = s;
      mx = fmaxf(mx, s);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
    float sum = 0.f;
    for (int j = lane; j < seq; j += 32) {
      const float p = expf(ps[j] - mx);
      ps[j] = p;
      sum += p;
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
    __syncwarp();  // every lane's probabilities are visible before the V pass
    const float inv = 1.f / sum;
    for (int c = lane; c < d; c += 32) {
      float o0 = 0.f, o1 = 0.f;
      int j = 0;
      for (; j + 1 < seq; j += 2) {
        o0 = fmaf(ps[j], __ldg(vb + (long long)j * d + c), o0);
        o1 = fmaf(ps[j + 1], __ldg(vb + (long long)(j + 1) * d + c), o1);
      }
      if (j < seq) o0 = fmaf(ps[j], __ldg(vb + (long long)j * d + c), o0);
      out[t * d + c] = (o0 + o1) * inv;
    }
    __syncwarp();  // qs / ps are overwritten by the next query
  }
}

extern "C" void attention_f32(int batch, int seq, int d, const float* Q, const float* K, const float* V, float* out,
                              cudaStream_t stream) {
  if (batch <= 0 || seq <= 0 || d <= 0) return;
  const long long total = (long long)batch * seq;
  const int dpad = (d + 3) & ~3, spad = (seq + 3) & ~3;
  const size_t smem = (size_t)kWarps * (size_t)(dpad + spad) * sizeof(float);
  if (smem > 48 * 1024)
    cudaFuncSetAttribute(attention_warp_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  long long need = (total + kWarps - 1) / kWarps;
  long long cap = (long long)sms * 32;
  const float scale = (float)(1.0 / sqrt((double)d));
  attention_warp_kernel<<<(int)(need < cap ? need : cap), kWarps * 32, smem, stream>>>(total, seq, d, scale, Q, K, V, out);
}
