// strategy: shared_tiled — 512-triangle tiles staged in shared memory already reduced to (v0, e1, e2) so the edge subtractions happen once per block, two rays per thread, every Moller-Trumbore quantity in 32-bit integers (all stay below 5e7) and only the nearest-hit fraction comparison widened to 64 bits
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kRays = 2;
constexpr int kTile = 512;

struct Ray {
  int ox, oy, oz, dx, dy, dz;
  int best, bt, bd;
};

__device__ __forceinline__ void test_tri(Ray& r, int k, int v0x, int v0y, int v0z, int e1x, int e1y, int e1z, int e2x,
                                         int e2y, int e2z) {
  const int px = r.dy * e2z - r.dz * e2y, py = r.dz * e2x - r.dx * e2z, pz = r.dx * e2y - r.dy * e2x;
  int det = e1x * px + e1y * py + e1z * pz;
  const int tx = r.ox - v0x, ty = r.oy - v0y, tz = r.oz - v0z;
  int u = tx * px + ty * py + tz * pz;
  const int qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
  int w = r.dx * qx + r.dy * qy + r.dz * qz;
  int tn = e2x * qx + e2y * qy + e2z * qz;
  const int s = det < 0 ? -1 : 1;
  det *= s; u *= s; w *= s; tn *= s;
  const bool ok = det != 0 && u >= 0 && w >= 0 && u + w <= det && tn > 0;
  if (ok && (r.best < 0 || (long long)tn * r.bd < (long long)r.bt * det)) {
    r.best = k;
    r.bt = tn;
    r.bd = det;
  }
}

__global__ void __launch_bounds__(kThreads)
rt_tiled_kernel(int nrays, int ntri, const int* __restrict__ rays, const int* __restrict__ tris, int* __restrict__ hit,
                float* __restrict__ t) {
  __shared__ int sv[9][kTile];  // v0, e1, e2 (SoA)
  Ray ray[kRays];
  const long long base = (long long)blockIdx.x * (kThreads * kRays) + threadIdx.x;
#pragma unroll
  for (int p = 0; p < kRays; ++p) {
    long long i = base + p * kThreads;
    if (i >= nrays) i = nrays - 1;
    const int* s = rays + 6 * i;
    ray[p].ox = __ldg(s); ray[p].oy = __ldg(s + 1); ray[p].oz = __ldg(s + 2);
    ray[p].dx = __ldg(s + 3); ray[p].dy = __ldg(s + 4); ray[p].dz = __ldg(s + 5);
    ray[p].best = -1; ray[p].bt = 0; ray[p].bd = 1;
  }
  for (int t0 = 0; t0 < ntri; t0 += kTile) {
    const int cnt = min(kTile, ntri - t0);
    __syncthreads();
    for (int e = threadIdx.x; e < cnt; e += kThreads) {
      const int* v = tris + 9 * ((long long)t0 + e);
      const int x0 = __ldg(v), y0 = __ldg(v + 1), z0 = __ldg(v + 2);
      sv[0][e] = x0; sv[1][e] = y0; sv[2][e] = z0;
      sv[3][e] = __ldg(v + 3) - x0; sv[4][e] = __ldg(v + 4) - y0; sv[5][e] = __ldg(v + 5) - z0;
      sv[6][e] = __ldg(v + 6) - x0; sv[7][e] = __ldg(v + 7) - y0; sv[8][e] = __ldg(v + 8) - z0;
    }
    __syncthreads();
    for (int e = 0; e < cnt; ++e) {
      const int v0x = sv[0][e], v0y = sv[1][e], v0z = sv[2][e];
      const int e1x = sv[3][e], e1y = sv[4][e], e1z = sv[5][e];
      const int e2x = sv[6][e], e2y = sv[7][e], e2z = sv[8][e];
#pragma unroll
      for (int p = 0; p < kRays; ++p) test_tri(ray[p], t0 + e, v0x, v0y, v0z, e1x, e1y, e1z, e2x, e2y, e2z);
    }
  }
#pragma unroll
  for (int p = 0; p < kRays; ++p) {
    const long long i = base + p * kThreads;
    if (i < nrays) {
      hit[i] = ray[p].best;
      t[i] = ray[p].best < 0 ? -1.0f : (float)((double)ray[p].bt / (double)ray[p].bd);
    }
  }
}

}  // namespace

extern "C" void ray_triangle_nearest(int nrays, int ntri, const int* rays, const int* tris, int* hit, float* t,
                                     cudaStream_t stream) {
  if (nrays <= 0) return;
  const long long per_block = (long long)kThreads * kRays;
  rt_tiled_kernel<<<(unsigned int)((nrays + per_block - 1) / per_block), kThreads, 0, stream>>>(nrays, ntri, rays, tris,
                                                                                                hit, t);
}
