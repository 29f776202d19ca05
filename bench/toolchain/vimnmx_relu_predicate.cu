// A minimal reproducer of what generated task sw_antidiag_s010 showed on an H100 (2026-12-07, CUDA 13.0.88):
// `h = max(max(max(dg + s, up - 1), left - 1), 0)` followed by `h == left - 1 ? 2 : 3` compiles (sm_90, -O3) to a
// `VIMNMX.RELU Rd, P, ...` whose predicate output replaces the `h == c` comparison; where c is the
// strict maximum the GPU answers 3, the C semantics 2. Build and run on the device machine:
//   nvcc -arch=sm_90 -O3 bench/toolchain/vimnmx_relu_predicate.cu -o /tmp/vr && /tmp/vr
//   cuobjdump -sass /tmp/vr | grep VIMNMX
// Prints the number of disagreements with the same expression evaluated on the host (0 = no bug).
// With a cubin's path as argument, runs that cubin's `pick` instead (another ptxas; README.md):
//   nvcc -arch=sm_90 -O3 bench/toolchain/vimnmx_relu_predicate.cu -lcuda -o /tmp/vr && /tmp/vr /tmp/r135.cubin
#include <cuda.h>

#include <cstdio>
#include <vector>

// The shape of sw_antidiag_s010's cell update: diagonal + score, up - gap, left - gap, clamped at 0.
__host__ __device__ inline void cell(const int* p1, const int* p2, const int* s, int i, int* h_out, int* dir) {
  const int up = p1[i];
  const int left = i > 0 ? p1[i - 1] : -1000000;
  const int dg = i > 0 ? p2[i - 1] : 0;
  int h = dg + s[i];
  h = h > up - 1 ? h : up - 1;
  h = h > left - 1 ? h : left - 1;
  h = h > 0 ? h : 0;
  h_out[i] = h;
  dir[i] = h == dg + s[i] ? 0 : (h == up - 1 ? 1 : (h == left - 1 ? 2 : 3));
}

extern "C" __global__ void pick(const int* p1, const int* p2, const int* s, int* h_out, int* dir, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cell(p1, p2, s, i, h_out, dir);
}

int main(int argc, char** argv) {
  const int n = 1 << 16;
  std::vector<int> a(n), b(n), c(n), h(n), d(n);
  unsigned s = 12345;
  auto next = [&] { s = s * 1664525u + 1013904223u; return int(s >> 16) % 401 - 200; };
  for (int i = 0; i < n; ++i) { a[i] = next() + 200; b[i] = next() + 200; c[i] = next() % 6; }
  int *da, *db, *dc, *dh, *dd;
  for (int** p : {&da, &db, &dc, &dh, &dd}) cudaMalloc(p, n * sizeof(int));
  cudaMemcpy(da, a.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  if (argc > 1) {  // the same kernel from a cubin built by another ptxas
    CUmodule mod;
    CUfunction fn;
    cudaFree(nullptr);  // the runtime's primary context, which the driver calls below use
    if (cuModuleLoad(&mod, argv[1]) != CUDA_SUCCESS || cuModuleGetFunction(&fn, mod, "pick") != CUDA_SUCCESS) {
      std::printf("cannot load 'pick' from %s\n", argv[1]);
      return 2;
    }
    int nn = n;
    void* args[] = {&da, &db, &dc, &dh, &dd, &nn};
    if (cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS) {
      std::printf("launch failed\n");
      return 2;
    }
    std::printf("%s: ", argv[1]);
  } else {
    pick<<<(n + 255) / 256, 256>>>(da, db, dc, dh, dd, n);
  }
  cudaMemcpy(h.data(), dh, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(d.data(), dd, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad_h = 0, bad_dir = 0, first = -1;
  for (int i = 0; i < n; ++i) {
    int x, want;
    cell(a.data(), b.data(), c.data(), i, &x, &want);
    bad_h += h[i] != x;
    if (d[i] != want) { ++bad_dir; if (first < 0) first = i; }
  }
  std::printf("n=%d  h disagreements=%d  dir disagreements=%d", n, bad_h, bad_dir);
  if (first >= 0) std::printf("  (first: i=%d h=%d dir=%d, host dir differs)", first, h[first], d[first]);
  std::printf("\n");
  return bad_dir != 0 || bad_h != 0;
}
