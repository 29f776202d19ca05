// strategy: naive (weak) — each thread integrates a contiguous run of 16 particles one after another, so a warp's loads are 192 bytes apart (uncoalesced)
#include <cuda_runtime.h>

namespace {
constexpr int kRun = 16;

__global__ void verlet_naive(int n, int steps, float kspring, float dt, const float* pos,
                             const float* vel, const float* mass, float* pos_out,
                             float* vel_out) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const float half_dt = 0.5f * dt;
  const float half_dt2 = 0.5f * dt * dt;
  for (long long i = t * kRun; i < (t + 1) * kRun && i < n; ++i) {
    const float w2 = kspring / mass[i];
    for (int c = 0; c < 3; ++c) {
      float x = pos[3 * i + c];
      float v = vel[3 * i + c];
      float a = -w2 * x;
      for (int s = 0; s < steps; ++s) {
        x = x + dt * v + half_dt2 * a;
        const float an = -w2 * x;
        v = v + half_dt * (a + an);
        a = an;
      }
      pos_out[3 * i + c] = x;
      vel_out[3 * i + c] = v;
    }
  }
}
}  // namespace

extern "C" void verlet_harmonic(int n, int steps, float kspring, float dt, const float* pos,
                                const float* vel, const float* mass, float* pos_out,
                                float* vel_out, cudaStream_t stream) {
  if (n <= 0) return;
  const int block = 64;
  const long long runs = (n + kRun - 1) / kRun;
  verlet_naive<<<(int)((runs + block - 1) / block), block, 0, stream>>>(
      n, steps, kspring, dt, pos, vel, mass, pos_out, vel_out);
}
