// A kernel built to spill: a dynamically indexed local array and a tight register cap.
__global__ void __launch_bounds__(256) spill_kernel(int n, const float* x, float* y) {
  float local[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 64; ++k) local[k] = x[(i + k) % n] * k;
  float s = 0;
  for (int k = 0; k < 64; ++k) s += local[(k * 7 + i) & 63];
  if (i < n) y[i] = s;
}
__global__ void shared_kernel(int n, float* y) {
  __shared__ double tile[512];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if ((int)threadIdx.x < n) y[threadIdx.x] = (float)tile[511 - threadIdx.x];
}
