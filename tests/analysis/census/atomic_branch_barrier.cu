// BUG: every thread gets a different ticket from atomicAdd; the barrier under the branch on it is divergent.
__global__ void atomic_branch_barrier(int* counter, float* data) {
  __shared__ float s[128];
  int ticket = atomicAdd(counter, 1);
  s[threadIdx.x] = data[threadIdx.x];
  if (ticket % 3 == 0) {
    __syncthreads();
    data[threadIdx.x] = s[(threadIdx.x + 1) & 127];
  }
}
