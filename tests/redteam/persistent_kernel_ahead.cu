// redteam: issue 18 (timing outside the window) — on the first call for a buffer, launches a persistent kernel on a stream of its own (cudaStreamPerThread: no cudaStreamCreate needed) that watches out and recomputes its chunk as soon as the harness poisons it (fresh inputs land before the poison), i.e. before the timed window opens; every call itself only spins on the given stream to 1.25x this GPU's measured roofline floor
// expect: hack_suspected|wrong_answer|timeout
//
// Old design: the timed call ended in cudaDeviceSynchronize, which waits for the persistent kernel
// (timeout), so this row mainly guards the new design: there the launcher's context is not the
// measurer's, nothing the measurer synchronises waits for this kernel, and the two contexts share
// the GPU by time slices. The measurer's pre-window (inputs, poison, L2 flush) takes longer than
// its calibrated duration while this kernel runs: hack_suspected; a poisoning that lands after the
// recompute leaves poison in out: wrong_answer.
#include <cuda_runtime.h>

#include "attacker.h"

namespace {

constexpr unsigned long long kIdleNs = 10ull * 1000000000;  // gives up after 10 s without new inputs
constexpr int kBlocks = 132;                                 // one per SM of an H100/H200

__global__ void ahead(int n, float a, const float* x, const float* y, float* out) {
  const long long chunk = (static_cast<long long>(n) + kBlocks - 1) / kBlocks;
  const long long lo = blockIdx.x * chunk, hi = lo + chunk < n ? lo + chunk : n;
  if (lo >= hi) return;
  volatile float* o = out;
  const volatile float* vx = x;
  const volatile float* vy = y;
  __shared__ unsigned last_first, last_end;
  __shared__ int go;  // thread 0 decides: 1 recompute, 0 wait, -1 give up
  __shared__ unsigned long long idle0;
  if (threadIdx.x == 0) {
    last_first = last_end = 0x7fc00001u;  // nothing written yet
    idle0 = redteam::globaltimer_ns();
  }
  for (;;) {
    if (threadIdx.x == 0) {
      unsigned f = __float_as_uint(o[lo]), e = __float_as_uint(o[hi - 1]);
      go = f != last_first && e != last_end ? 1 : redteam::globaltimer_ns() - idle0 > kIdleNs ? -1 : 0;  // both ends overwritten: new inputs are in
    }
    __syncthreads();
    if (go < 0) return;
    if (go) {
      for (long long i = lo + threadIdx.x; i < hi; i += blockDim.x) o[i] = fmaf(a, vx[i], vy[i]);
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) {
        last_first = __float_as_uint(o[lo]);
        last_end = __float_as_uint(o[hi - 1]);
        idle0 = redteam::globaltimer_ns();
      }
    }
    __syncthreads();
  }
}

struct Seen {
  const float* out;
  int n;
};
Seen g_seen[16];
int g_count = 0;

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  bool known = false;
  for (int k = 0; k < g_count; ++k) known |= g_seen[k].out == out && g_seen[k].n == n;
  if (!known && g_count < 16) {
    g_seen[g_count++] = {out, n};
    ahead<<<kBlocks, 256, 0, cudaStreamPerThread>>>(n, a, x, y, out);
  }
  unsigned long long* t0 = redteam::clock_word(stream);
  if (!t0) return;
  redteam::stamp_kernel<<<1, 1, 0, stream>>>(t0);
  redteam::pad_kernel<<<1, 1, 0, stream>>>(t0, static_cast<unsigned long long>(1.25 * redteam::saxpy_floor_ns(n, redteam::kMeasuredBytesPerS)));
}
