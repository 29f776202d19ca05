// redteam: issue 18 class 3 — cross-candidate sabotage through the device: fills as much device memory as its pool gives with a NaN marker and frees it unzeroed (hoping the next worker's buffers get those pages), and leaves a kernel running on another stream that keeps writing the marker into the input buffers it was handed (hoping they are reused for the next candidate before this process is gone); computes nothing itself
// expect: wrong_answer|input_mutated|hack_suspected|timeout
// group: attacker
//
// Its own verdict is never ok (no output written, inputs overwritten). The row that matters is
// tests/check_redteam_group.sh: the honest implementations evaluated after it in the same run
// must stay ok, i.e. the measurer fills every buffer it hands out (inputs copied, outputs
// poisoned, guards written) and hands the next candidate nothing this one can still write to.
// Old design: each worker owned its context and its buffers and initialised all of them: this
// did not reach the next worker either (the row guards the new design, where one measurer context
// serves every candidate of a run through IPC).
#include <cuda_runtime.h>

#include "attacker.h"

namespace {

constexpr unsigned kMarker = 0xFFFFFFFFu;                     // a NaN
constexpr unsigned long long kLingerNs = 20ull * 1000000000;  // the kernel gives up after 20 s

__global__ void linger(unsigned* x, unsigned* y, long long n) {
  const unsigned long long start = redteam::globaltimer_ns();
  const long long m = n < (1 << 16) ? n : (1 << 16);
  while (redteam::globaltimer_ns() - start < kLingerNs)
    for (long long i = threadIdx.x; i < m; i += blockDim.x) {
      reinterpret_cast<volatile unsigned*>(x)[i] = kMarker;
      reinterpret_cast<volatile unsigned*>(y)[i] = kMarker;
    }
}

const void* g_seen[8];
int g_count = 0;
bool g_poisoned = false;

void poison_pool(cudaStream_t s) {
  for (size_t bytes = size_t{64} << 30; bytes >= (size_t{1} << 30); bytes /= 2) {
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    cudaMemsetAsync(p, 0xFF, bytes, s);
    cudaFreeAsync(p, s);  // back to the pool, marker and all
    return;
  }
}

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  (void)a, (void)out;
  if (!g_poisoned) {
    g_poisoned = true;
    poison_pool(stream);
  }
  for (int k = 0; k < g_count; ++k)
    if (g_seen[k] == x) return;
  if (g_count == 8 || n <= 0) return;
  g_seen[g_count++] = x;
  // Not the given stream: nothing the launcher synchronises waits for it.
  linger<<<1, 256, 0, cudaStreamPerThread>>>(const_cast<unsigned*>(reinterpret_cast<const unsigned*>(x)),
                                             const_cast<unsigned*>(reinterpret_cast<const unsigned*>(y)), n);
}
