// Global atomics with results used (atom): add, cas, max.
__global__ void atomics_global(int* counter, int* lock, int* maxv, float* acc, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = atomicAdd(counter, 1);
  int c = atomicCAS(lock, 0, i);
  int m = atomicMax(maxv, i);
  float f = atomicAdd(acc, 1.0f);
  out[i] = a + c + m + (int)f;
}
