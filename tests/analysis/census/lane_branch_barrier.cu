// BUG: a barrier under a branch on the lane id (read through inline PTX %laneid).
__global__ void lane_branch_barrier(float* data) {
  __shared__ float s[128];
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  s[threadIdx.x] = data[threadIdx.x];
  if (lane < 16) {
    __syncthreads();
    s[threadIdx.x] += 1.0f;
  }
  data[threadIdx.x] = s[threadIdx.x];
}
