// strategy: naive (weak) — one thread per segment walks its segment sequentially (uncoalesced: neighbouring threads touch addresses a whole segment apart; long segments serialise)
#include <cuda_runtime.h>

__global__ void seg_thread(int nseg, const int* seg_start, const float* x, float* out) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nseg) return;
  float acc = 0.f;
  for (int i = seg_start[s]; i < seg_start[s + 1]; ++i) {
    acc += x[i];
    out[i] = acc;
  }
}

extern "C" void segmented_scan_f32(int n, int nseg, const int* seg_start, const float* x, float* out,
                                   cudaStream_t stream) {
  if (n <= 0 || nseg <= 0) return;
  const int threads = 128;
  seg_thread<<<(nseg + threads - 1) / threads, threads, 0, stream>>>(nseg, seg_start, x, out);
}
