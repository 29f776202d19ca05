// strategy: naive (weak) — one thread per ray re-reads all nine vertex coordinates of every triangle from global memory and runs the full 64-bit Moller-Trumbore test on each
#include <cuda_runtime.h>

__global__ void rt_naive_kernel(int nrays, int ntri, const int* rays, const int* tris, int* hit, float* t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nrays) return;
  const int* r = rays + 6 * (long long)i;
  long long ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
  int best = -1;
  long long bt = 0, bd = 1;
  for (int k = 0; k < ntri; ++k) {
    const int* v = tris + 9 * (long long)k;
    long long e1x = v[3] - v[0], e1y = v[4] - v[1], e1z = v[5] - v[2];
    long long e2x = v[6] - v[0], e2y = v[7] - v[1], e2z = v[8] - v[2];
    long long px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
    long long det = e1x * px + e1y * py + e1z * pz;
    if (det == 0) continue;
    long long tx = ox - v[0], ty = oy - v[1], tz = oz - v[2];
    long long u = tx * px + ty * py + tz * pz;
    long long qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
    long long w = dx * qx + dy * qy + dz * qz;
    long long tn = e2x * qx + e2y * qy + e2z * qz;
    if (det < 0) { det = -det; u = -u; w = -w; tn = -tn; }
    if (u < 0 || w < 0 || u + w > det || tn <= 0) continue;
    if (best < 0 || tn * bd < bt * det) { best = k; bt = tn; bd = det; }
  }
  hit[i] = best;
  t[i] = best < 0 ? -1.0f : (float)((double)bt / (double)bd);
}

extern "C" void ray_triangle_nearest(int nrays, int ntri, const int* rays, const int* tris, int* hit, float* t,
                                     cudaStream_t stream) {
  if (nrays <= 0) return;
  const int threads = 128;
  rt_naive_kernel<<<(nrays + threads - 1) / threads, threads, 0, stream>>>(nrays, ntri, rays, tris, hit, t);
}
