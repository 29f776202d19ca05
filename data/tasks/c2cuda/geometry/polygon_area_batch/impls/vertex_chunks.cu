// strategy: vertex_chunks — load-balanced, work-efficient segmented reduction over the flat vertex array: each thread owns a fixed 16-vertex chunk (binary search for its first polygon), writes polygons that end inside its chunk directly and leaves head/tail partial sums for polygons that cross chunk borders; a second pass combines those partials in a fixed order (deterministic, insensitive to skewed polygon sizes)
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kChunk = 16;  // vertices per thread

__device__ __forceinline__ int find_polygon(const int* __restrict__ offs, int npoly, int k) {
  // largest p with offs[p] <= k (then offs[p+1] > k because offs[npoly] = nv > k)
  int lo = 0, hi = npoly;  // invariant: offs[lo] <= k < offs[hi]
  while (hi - lo > 1) {
    const int mid = (lo + hi) >> 1;
    if (__ldg(offs + mid) <= k) lo = mid; else hi = mid;
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads)
area_chunk_kernel(int npoly, int nv, int nchunks, const int* __restrict__ offs, const float2* __restrict__ v,
                  float* __restrict__ head, float* __restrict__ tail, float* __restrict__ area) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nchunks) return;
  const int s = c * kChunk;
  const int t = min(s + kChunk, nv);
  int p = find_polygon(offs, npoly, s);
  int pb = __ldg(offs + p), pe = __ldg(offs + p + 1);
  bool first = true;
  float sum = 0.0f;
  float2 cur = __ldg(v + s);
  for (int k = s; k < t; ++k) {
    while (k >= pe) {  // polygon p ended inside this chunk (empty polygons are skipped here too)
      if (first) head[c] = sum;
      if (pb >= s) area[p] = 0.5f * sum;
      first = false;
      sum = 0.0f;
      ++p;
      pb = pe;
      pe = __ldg(offs + p + 1);
    }
    const int nk = (k + 1 < pe) ? k + 1 : pb;
    const float2 nxt = __ldg(v + nk);
    sum = fmaf(cur.x, nxt.y, sum);
    sum = fmaf(-nxt.x, cur.y, sum);
    cur = (k + 1 < t) ? ((nk == k + 1) ? nxt : __ldg(v + k + 1)) : cur;
  }
  if (first) head[c] = sum;
  tail[c] = sum;
  if (pb >= s && pe <= t) area[p] = 0.5f * sum;
}

// polygons that are empty or span several chunks
__global__ void __launch_bounds__(kThreads)
area_combine_kernel(int npoly, const int* __restrict__ offs, const float* __restrict__ head,
                    const float* __restrict__ tail, float* __restrict__ area) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoly) return;
  const int b = __ldg(offs + p), e = __ldg(offs + p + 1);
  if (e <= b) {
    area[p] = 0.0f;
    return;
  }
  const int c0 = b / kChunk, c1 = (e - 1) / kChunk;
  if (c0 == c1) return;  // written by the chunk pass
  float s = __ldg(tail + c0);
  for (int c = c0 + 1; c <= c1; ++c) s += __ldg(head + c);
  area[p] = 0.5f * s;
}

}  // namespace

extern "C" void polygon_area_batch(int npoly, int nv, const int* offs, const float* xy, float* area,
                                   cudaStream_t stream) {
  if (npoly <= 0) return;
  const float2* v = reinterpret_cast<const float2*>(xy);
  const int nchunks = (nv + kChunk - 1) / kChunk;
  float* scratch = nullptr;
  if (nchunks > 0) {
    cudaMallocAsync(reinterpret_cast<void**>(&scratch), sizeof(float) * 2 * (size_t)nchunks, stream);
    area_chunk_kernel<<<(nchunks + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
        npoly, nv, nchunks, offs, v, scratch, scratch + nchunks, area);
  }
  area_combine_kernel<<<(npoly + kThreads - 1) / kThreads, kThreads, 0, stream>>>(npoly, offs, scratch,
                                                                                  scratch + nchunks, area);
  if (scratch) cudaFreeAsync(scratch, stream);
}
