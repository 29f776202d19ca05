// Shared-memory atomics (histogram) then one global atomic per bin.
__global__ void atomics_shared(const int* in, int* hist, int n) {
  __shared__ int bins[64];
  __shared__ int biggest;
  int t = threadIdx.x;
  if (t < 64) bins[t] = 0;
  if (t == 0) biggest = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    int v = in[i];
    atomicAdd(&bins[v & 63], 1);
    atomicMax(&biggest, v);
  }
  __syncthreads();
  if (t < 64) atomicAdd(&hist[t], bins[t] + biggest);
}
