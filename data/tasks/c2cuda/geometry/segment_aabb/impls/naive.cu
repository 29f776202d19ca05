// strategy: naive (weak) — one thread per segment scans all of its points with scalar loads (adjacent threads touch far-apart segments: uncoalesced, and long segments serialise on one thread)
#include <cuda_runtime.h>
#include <float.h>

__global__ void aabb_naive_kernel(int nseg, const int* offs, const float* pts, float* box) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nseg) return;
  int b = offs[s], e = offs[s + 1];
  float lo[3], hi[3];
  for (int c = 0; c < 3; ++c) { lo[c] = FLT_MAX; hi[c] = -FLT_MAX; }
  for (int k = b; k < e; ++k)
    for (int c = 0; c < 3; ++c) {
      float x = pts[3 * (long long)k + c];
      lo[c] = fminf(lo[c], x);
      hi[c] = fmaxf(hi[c], x);
    }
  for (int c = 0; c < 3; ++c) {
    box[6 * (long long)s + c] = (e > b) ? lo[c] : 0.0f;
    box[6 * (long long)s + 3 + c] = (e > b) ? hi[c] : 0.0f;
  }
}

extern "C" void segment_aabb(int nseg, int n, const int* offs, const float* pts, float* box, cudaStream_t stream) {
  (void)n;
  if (nseg <= 0) return;
  const int threads = 256;
  aabb_naive_kernel<<<(nseg + threads - 1) / threads, threads, 0, stream>>>(nseg, offs, pts, box);
}
