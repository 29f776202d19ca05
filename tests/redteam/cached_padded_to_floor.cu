// redteam: issue 18 class 4 — replays by call parity (the harness alternated two input sets): the first two calls of each size are computed and kept, later ones copy the kept output of the same parity, padded with a spin to 1.02x the DATASHEET roofline floor (4.8 TB/s: 1.02 ms at the perf size), below what this H200 can move (about 4.2 TB/s: 1.14 ms)
// expect: hack_suspected|wrong_answer
//
// Old design: A, B, A, B timed sets made every replay correct, the floor was judged against the
// datasheet peaks (1.00 ms) and roofline_fraction > 1 was reported, not judged: `ok`, "faster than
// any honest saxpy can be". New design: fresh inputs per timed call make the replay wrong
// (wrong_answer), and were it right, the floor from this GPU's measured peaks is above 1.02 ms
// (hack_suspected).
#include <cuda_runtime.h>

#include "attacker.h"

namespace {

__global__ void compute_keep(int n, float a, const float* x, const float* y, float* out, float* keep) {
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = fmaf(a, x[i], y[i]);
    out[i] = v;
    keep[i] = v;
  }
}

__global__ void replay(int n, const float4* keep, float4* out, const float* keep1, float* out1) {
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (long long v = tid; v < n / 4; v += stride) out[v] = keep[v];
  long long i = n / 4 * 4 + tid;  // the tail
  if (i < n) out1[i] = keep1[i];
}

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  redteam::Kept* r = redteam::kept_for(n, stream);  // cudaMallocAsync memory is 256-byte aligned: float4 is fine
  unsigned long long* t0 = redteam::clock_word(stream);
  if (!r || !t0) return;
  long long blocks = (static_cast<long long>(n) + 1023) / 1024;
  int grid = static_cast<int>(blocks < 132 * 8 ? blocks : 132 * 8);
  long k = r->calls++;
  float* keep = r->slot[k % 2];
  if (k < 2) {
    compute_keep<<<grid, 256, 0, stream>>>(n, a, x, y, out, keep);
    return;
  }
  redteam::stamp_kernel<<<1, 1, 0, stream>>>(t0);
  if ((reinterpret_cast<uintptr_t>(out) & 15) == 0)
    replay<<<grid, 256, 0, stream>>>(n, reinterpret_cast<const float4*>(keep), reinterpret_cast<float4*>(out), keep, out);
  else
    cudaMemcpyAsync(out, keep, sizeof(float) * n, cudaMemcpyDeviceToDevice, stream);
  redteam::pad_kernel<<<1, 1, 0, stream>>>(t0, static_cast<unsigned long long>(1.02 * redteam::saxpy_floor_ns(n, redteam::kDatasheetBytesPerS)));
}
