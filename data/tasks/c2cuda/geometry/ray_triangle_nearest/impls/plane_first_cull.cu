// strategy: plane_first_cull — a setup kernel stores each triangle as (v0, e1, e2, n = e1 x e2) in a 48-byte record; the ray first solves only the plane (det = -D.n, tn = T.n, two dot products) and discards triangles behind the origin, parallel to the ray or not strictly nearer than the current best before paying for the barycentric cross products; records are read with warp-uniform broadcast loads, no shared memory
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 128;

struct __align__(16) TriRec {
  int4 a;  // v0.x, v0.y, v0.z, e1.x
  int4 b;  // e1.y, e1.z, e2.x, e2.y
  int4 c;  // e2.z, n.x, n.y, n.z
};

__global__ void tri_setup_kernel(int ntri, const int* __restrict__ tris, TriRec* __restrict__ rec) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= ntri) return;
  const int* v = tris + 9 * (long long)k;
  const int x0 = v[0], y0 = v[1], z0 = v[2];
  const int e1x = v[3] - x0, e1y = v[4] - y0, e1z = v[5] - z0;
  const int e2x = v[6] - x0, e2y = v[7] - y0, e2z = v[8] - z0;
  const int nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  rec[k].a = make_int4(x0, y0, z0, e1x);
  rec[k].b = make_int4(e1y, e1z, e2x, e2y);
  rec[k].c = make_int4(e2z, nx, ny, nz);
}

__global__ void __launch_bounds__(kThreads)
rt_cull_kernel(int nrays, int ntri, const int* __restrict__ rays, const TriRec* __restrict__ rec, int* __restrict__ hit,
               float* __restrict__ t) {
  const int i0 = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = min(i0, nrays - 1);  // spare lanes trace a copy so the loads stay warp-uniform
  const int* s = rays + 6 * (long long)i;
  const int ox = __ldg(s), oy = __ldg(s + 1), oz = __ldg(s + 2), dx = __ldg(s + 3), dy = __ldg(s + 4), dz = __ldg(s + 5);
  int best = -1;
  long long bt = 0, bd = 1;
  for (int k = 0; k < ntri; ++k) {
    const int4 A = __ldg(&rec[k].a), B = __ldg(&rec[k].b), C = __ldg(&rec[k].c);
    const int tx = ox - A.x, ty = oy - A.y, tz = oz - A.z;
    // e1.(D x e2) = -D.(e1 x e2) and e2.(T x e1) = T.(e1 x e2)
    int det = -(dx * C.y + dy * C.z + dz * C.w);
    int tn = tx * C.y + ty * C.z + tz * C.w;
    if (det == 0) continue;
    const int sg = det < 0 ? -1 : 1;
    det *= sg;
    tn *= sg;
    if (tn <= 0) continue;                                            // behind the origin (or at it)
    if (best >= 0 && (long long)tn * bd >= bt * (long long)det) continue;  // not nearer than the best
    const int e1x = A.w, e1y = B.x, e1z = B.y, e2x = B.z, e2y = B.w, e2z = C.x;
    const int px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
    const int u = sg * (tx * px + ty * py + tz * pz);
    if (u < 0 || u > det) continue;
    const int qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
    const int w = sg * (dx * qx + dy * qy + dz * qz);
    if (w < 0 || u + w > det) continue;
    best = k;
    bt = tn;
    bd = det;
  }
  if (i0 < nrays) {
    hit[i0] = best;
    t[i0] = best < 0 ? -1.0f : (float)((double)bt / (double)bd);
  }
}

}  // namespace

extern "C" void ray_triangle_nearest(int nrays, int ntri, const int* rays, const int* tris, int* hit, float* t,
                                     cudaStream_t stream) {
  if (nrays <= 0) return;
  TriRec* rec = nullptr;
  if (ntri > 0) {
    cudaMallocAsync(reinterpret_cast<void**>(&rec), sizeof(TriRec) * (size_t)ntri, stream);
    tri_setup_kernel<<<(ntri + 255) / 256, 256, 0, stream>>>(ntri, tris, rec);
  }
  rt_cull_kernel<<<(nrays + kThreads - 1) / kThreads, kThreads, 0, stream>>>(nrays, ntri > 0 ? ntri : 0, rays, rec, hit, t);
  if (rec) cudaFreeAsync(rec, stream);
}
