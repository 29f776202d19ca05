// Atomics: a histogram (address from loaded data) and a global sum into one word (broadcast).
extern "C" __global__ void histogram(const int* __restrict__ keys, int* hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&hist[keys[i]], 1);
  }
}

extern "C" __global__ void total(const float* __restrict__ x, float* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(sum, x[i]);
  }
}
