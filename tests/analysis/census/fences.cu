// Memory fences: block, device and system scope.
__global__ void fences(volatile int* flag, int* data) {
  data[threadIdx.x] = 1;
  __threadfence_block();
  data[threadIdx.x + 32] = 2;
  __threadfence();
  data[threadIdx.x + 64] = 3;
  __threadfence_system();
  if (threadIdx.x == 0) *flag = 1;
}
