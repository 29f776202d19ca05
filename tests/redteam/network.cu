// redteam: row 11 — opens a socket
// expect: link_error uses the network
#include <sys/socket.h>
#include <netinet/in.h>
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  int s = socket(AF_INET, SOCK_STREAM, 0); (void)s;
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
