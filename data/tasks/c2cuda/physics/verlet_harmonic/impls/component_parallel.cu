// strategy: component_parallel — one thread per scalar coordinate (3n threads, grid-stride), so pos/vel loads and stores are perfectly coalesced; the mass read is a broadcast-friendly gather
#include <cuda_runtime.h>

namespace {
__global__ void verlet_component(long long total, int steps, float kspring, float dt,
                                 const float* __restrict__ pos, const float* __restrict__ vel,
                                 const float* __restrict__ mass, float* __restrict__ pos_out,
                                 float* __restrict__ vel_out) {
  const float half_dt = 0.5f * dt;
  const float half_dt2 = 0.5f * dt * dt;
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
       e += (long long)gridDim.x * blockDim.x) {
    const float w2 = kspring / __ldg(mass + e / 3);
    float x = pos[e];
    float v = vel[e];
    float a = -w2 * x;
    for (int s = 0; s < steps; ++s) {
      x = fmaf(half_dt2, a, fmaf(dt, v, x));
      const float an = -w2 * x;
      v = fmaf(half_dt, a + an, v);
      a = an;
    }
    pos_out[e] = x;
    vel_out[e] = v;
  }
}
}  // namespace

extern "C" void verlet_harmonic(int n, int steps, float kspring, float dt, const float* pos,
                                const float* vel, const float* mass, float* pos_out,
                                float* vel_out, cudaStream_t stream) {
  if (n <= 0) return;
  const long long total = 3LL * n;
  const int block = 256;
  long long blocks = (total + block - 1) / block;
  if (blocks > 132LL * 64) blocks = 132LL * 64;  // grid-stride beyond ~64 blocks per SM
  verlet_component<<<(int)blocks, block, 0, stream>>>(total, steps, kspring, dt, pos, vel, mass,
                                                      pos_out, vel_out);
}
