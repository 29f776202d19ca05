// strategy: smem_vec4 — a block moves its 256 particles' interleaved xyz (768 floats) with 128-bit float4 loads/stores through shared memory, one thread integrates one whole particle
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
constexpr int kThreads = 256;
constexpr int kFloats = 3 * kThreads;  // 768 floats = 192 float4 per array per block

__global__ void __launch_bounds__(kThreads)
verlet_smem_vec4(int n, int steps, float kspring, float dt, const float* __restrict__ pos,
                 const float* __restrict__ vel, const float* __restrict__ mass,
                 float* __restrict__ pos_out, float* __restrict__ vel_out, bool aligned) {
  __shared__ float sp[kFloats];
  __shared__ float sv[kFloats];
  const float half_dt = 0.5f * dt;
  const float half_dt2 = 0.5f * dt * dt;
  const long long total = 3LL * n;
  const long long nblocks = ((long long)n + kThreads - 1) / kThreads;
  for (long long b = blockIdx.x; b < nblocks; b += gridDim.x) {
    const long long base = b * kFloats;  // first float of this block (multiple of 768 -> 16B aligned)
    const int count = (int)min((long long)kFloats, total - base);
    if (aligned && count == kFloats) {
      const float4* p4 = reinterpret_cast<const float4*>(pos + base);
      const float4* v4 = reinterpret_cast<const float4*>(vel + base);
      for (int q = threadIdx.x; q < kFloats / 4; q += kThreads) {
        reinterpret_cast<float4*>(sp)[q] = p4[q];
        reinterpret_cast<float4*>(sv)[q] = v4[q];
      }
    } else {
      for (int q = threadIdx.x; q < count; q += kThreads) {
        sp[q] = pos[base + q];
        sv[q] = vel[base + q];
      }
    }
    __syncthreads();
    const long long i = b * kThreads + threadIdx.x;
    if (i < n) {
      const float w2 = kspring / mass[i];
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        const int l = 3 * threadIdx.x + c;  // stride 3 is odd: no bank conflicts
        float x = sp[l];
        float v = sv[l];
        float a = -w2 * x;
        for (int s = 0; s < steps; ++s) {
          x = fmaf(half_dt2, a, fmaf(dt, v, x));
          const float an = -w2 * x;
          v = fmaf(half_dt, a + an, v);
          a = an;
        }
        sp[l] = x;
        sv[l] = v;
      }
    }
    __syncthreads();
    if (aligned && count == kFloats) {
      float4* p4 = reinterpret_cast<float4*>(pos_out + base);
      float4* v4 = reinterpret_cast<float4*>(vel_out + base);
      for (int q = threadIdx.x; q < kFloats / 4; q += kThreads) {
        p4[q] = reinterpret_cast<const float4*>(sp)[q];
        v4[q] = reinterpret_cast<const float4*>(sv)[q];
      }
    } else {
      for (int q = threadIdx.x; q < count; q += kThreads) {
        pos_out[base + q] = sp[q];
        vel_out[base + q] = sv[q];
      }
    }
    __syncthreads();  // shared buffers are reused by the next grid-stride iteration
  }
}
}  // namespace

extern "C" void verlet_harmonic(int n, int steps, float kspring, float dt, const float* pos,
                                const float* vel, const float* mass, float* pos_out,
                                float* vel_out, cudaStream_t stream) {
  if (n <= 0) return;
  const bool aligned = ((reinterpret_cast<uintptr_t>(pos) | reinterpret_cast<uintptr_t>(vel) |
                         reinterpret_cast<uintptr_t>(pos_out) |
                         reinterpret_cast<uintptr_t>(vel_out)) & 15u) == 0;
  long long blocks = ((long long)n + kThreads - 1) / kThreads;
  if (blocks > 0x7fffffffLL) blocks = 0x7fffffffLL;  // grid-stride loop covers the rest
  verlet_smem_vec4<<<(int)blocks, kThreads, 0, stream>>>(n, steps, kspring, dt, pos, vel, mass,
                                                         pos_out, vel_out, aligned);
}
