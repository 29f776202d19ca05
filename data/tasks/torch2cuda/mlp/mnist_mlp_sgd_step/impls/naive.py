# strategy: naive (weak) — one-thread-per-output GEMMs for forward and backward, one thread per weight looping over the whole batch for gradients, per-unit bias sums
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per output element, dot product straight from global memory
__global__ void mm_naive_kernel(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ bias, float* __restrict__ C, int64_t M, int64_t N, int64_t K, int64_t sAb, int64_t sAm, int64_t sAk, int64_t sBb, int64_t sBk, int64_t sBn, bool relu) {
  const int64_t n = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t m = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  const int64_t b = blockIdx.z;
  if (m >= M || n >= N) return;
  const float* a = A + b * sAb + m * sAm;
  const float* bb = B + b * sBb + n * sBn;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc = fmaf(a[k * sAk], bb[k * sBk], acc);
  if (bias) acc += bias[n];
  if (relu) acc = fmaxf(acc, 0.0f);
  C[(b * M + m) * N + n] = acc;
}

// weight gradient one thread per weight: dW[m][n] = sum_b G[b][m] * A[b][n], then W - lr * dW
__global__ void wgrad_naive_kernel(const float* G, const float* A, const float* W, float* outW, int64_t Bn, int64_t M, int64_t N, float lr) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= M * N) return;
  const int64_t m = t / N, n = t % N;
  float acc = 0.0f;
  for (int64_t b = 0; b < Bn; ++b) acc = fmaf(G[b * M + m], A[b * N + n], acc);
  outW[t] = W[t] - lr * acc;
}
// bias gradient one thread per unit: db[m] = sum_b G[b][m]
__global__ void bgrad_naive_kernel(const float* G, const float* bias, float* outb, int64_t Bn, int64_t M, float lr) {
  const int64_t m = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= M) return;
  float acc = 0.0f;
  for (int64_t b = 0; b < Bn; ++b) acc += G[b * M + m];
  outb[m] = bias[m] - lr * acc;
}
static void fwd_gemm(const float* A, const float* W, const float* bias, float* C, int64_t M, int64_t N, int64_t K, bool relu, cudaStream_t stream) {
  dim3 grid((unsigned)((N + 15) / 16), (unsigned)((M + 15) / 16), 1);
  mm_naive_kernel<<<grid, dim3(16, 16), 0, stream>>>(A, W, bias, C, M, N, K, 0, K, 1, 0, 1, K, relu);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
// Gout (M x N) = G (M x K) @ W (K x N), W row-major (K, N)
static void bwd_gemm(const float* G, const float* W, float* Gout, int64_t M, int64_t N, int64_t K, cudaStream_t stream) {
  dim3 grid((unsigned)((N + 15) / 16), (unsigned)((M + 15) / 16), 1);
  mm_naive_kernel<<<grid, dim3(16, 16), 0, stream>>>(G, W, nullptr, Gout, M, N, K, 0, K, 1, 0, N, 1, false);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
static void update(const float* G, const float* A, const float* W, const float* bias, float* outW, float* outb,
                   int64_t Bn, int64_t M, int64_t N, float lr, cudaStream_t stream, const torch::Tensor& like) {
  (void)like;
  wgrad_naive_kernel<<<(unsigned)((M * N + 255) / 256), 256, 0, stream>>>(G, A, W, outW, Bn, M, N, lr);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  bgrad_naive_kernel<<<(unsigned)((M + 127) / 128), 128, 0, stream>>>(G, bias, outb, Bn, M, lr);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// per-sample softmax cross-entropy on C logits: writes the sample's loss and g = (softmax - onehot) / B
__global__ void ce_grad_kernel(const float* __restrict__ z, const int64_t* __restrict__ labels, float* __restrict__ g,
                               float* __restrict__ rowloss, int64_t Bn, int C) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= Bn) return;
  const float* zr = z + r * C;
  float m = -INFINITY;
  for (int c = 0; c < C; ++c) m = fmaxf(m, zr[c]);
  float s = 0.0f;
  for (int c = 0; c < C; ++c) s += expf(zr[c] - m);
  const float lse = m + logf(s);
  const int64_t y = labels[r];
  const float invB = 1.0f / (float)Bn;
  for (int c = 0; c < C; ++c) g[r * C + c] = (expf(zr[c] - lse) - (c == y ? 1.0f : 0.0f)) * invB;
  rowloss[r] = (y >= 0 && y < C) ? lse - zr[y] : NAN;
}
// single block: loss = mean of the per-sample losses (fixed order, deterministic)
__global__ void mean_kernel(const float* __restrict__ v, int64_t n, float* __restrict__ out) {
  __shared__ double sh[1024];
  double s = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += v[i];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) sh[threadIdx.x] += sh[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[0] = (float)(sh[0] / (double)n);
}
// g *= (a > 0): ReLU backward using the post-activation (a > 0 exactly when z > 0)
__global__ void relu_mask_kernel(float* __restrict__ g, const float* __restrict__ a, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !(a[i] > 0.0f)) g[i] = 0.0f;
}
torch::Tensor mlp_sgd_step_naive(torch::Tensor x, torch::Tensor labels, torch::Tensor w1, torch::Tensor b1, torch::Tensor w2, torch::Tensor b2, torch::Tensor w3, torch::Tensor b3, double lr) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w1.is_cuda(), "w1 must be a CUDA tensor");
  TORCH_CHECK(w1.scalar_type() == torch::kFloat32, "w1 must be float32");
  TORCH_CHECK(b1.is_cuda(), "b1 must be a CUDA tensor");
  TORCH_CHECK(b1.scalar_type() == torch::kFloat32, "b1 must be float32");
  TORCH_CHECK(w2.is_cuda(), "w2 must be a CUDA tensor");
  TORCH_CHECK(w2.scalar_type() == torch::kFloat32, "w2 must be float32");
  TORCH_CHECK(b2.is_cuda(), "b2 must be a CUDA tensor");
  TORCH_CHECK(b2.scalar_type() == torch::kFloat32, "b2 must be float32");
  TORCH_CHECK(w3.is_cuda(), "w3 must be a CUDA tensor");
  TORCH_CHECK(w3.scalar_type() == torch::kFloat32, "w3 must be float32");
  TORCH_CHECK(b3.is_cuda(), "b3 must be a CUDA tensor");
  TORCH_CHECK(b3.scalar_type() == torch::kFloat32, "b3 must be float32");
  TORCH_CHECK(labels.is_cuda() && labels.scalar_type() == torch::kInt64, "labels must be CUDA int64");
  auto xc = x.contiguous(); auto lab = labels.contiguous();
  auto W1 = w1.contiguous(); auto B1 = b1.contiguous(); auto W2 = w2.contiguous(); auto B2 = b2.contiguous();
  auto W3 = w3.contiguous(); auto B3 = b3.contiguous();
  const int64_t Bn = xc.size(0);
  TORCH_CHECK(Bn > 0 && lab.numel() == Bn, "batch mismatch");
  const int64_t K0 = xc.numel() / Bn, H1 = W1.size(0), H2 = W2.size(0), C = W3.size(0);
  TORCH_CHECK(W1.size(1) == K0 && W2.size(1) == H1 && W3.size(1) == H2 && B1.numel() == H1 && B2.numel() == H2 && B3.numel() == C, "shape mismatch");
  const int64_t total = 1 + H1 * K0 + H1 + H2 * H1 + H2 + C * H2 + C;
  auto out = torch::empty({total}, xc.options());
  float* o = out.data_ptr<float>();
  const float flr = (float)lr;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  auto opt = xc.options();
  auto a1 = torch::empty({Bn, H1}, opt);
  auto a2 = torch::empty({Bn, H2}, opt);
  auto z3 = torch::empty({Bn, C}, opt);
  auto g3 = torch::empty({Bn, C}, opt);
  auto g2 = torch::empty({Bn, H2}, opt);
  auto g1 = torch::empty({Bn, H1}, opt);
  auto rowloss = torch::empty({Bn}, opt);
  const float* X = xc.data_ptr<float>();
  // forward: a = relu(x @ W^T + b)
  fwd_gemm(X, W1.data_ptr<float>(), B1.data_ptr<float>(), a1.data_ptr<float>(), Bn, H1, K0, true, stream);
  fwd_gemm(a1.data_ptr<float>(), W2.data_ptr<float>(), B2.data_ptr<float>(), a2.data_ptr<float>(), Bn, H2, H1, true, stream);
  fwd_gemm(a2.data_ptr<float>(), W3.data_ptr<float>(), B3.data_ptr<float>(), z3.data_ptr<float>(), Bn, C, H2, false, stream);
  ce_grad_kernel<<<(unsigned)((Bn + 255) / 256), 256, 0, stream>>>(z3.data_ptr<float>(), lab.data_ptr<int64_t>(), g3.data_ptr<float>(),
                                                                  rowloss.data_ptr<float>(), Bn, (int)C);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  mean_kernel<<<1, 1024, 0, stream>>>(rowloss.data_ptr<float>(), Bn, o);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  // output offsets
  float* oW1 = o + 1;
  float* ob1 = oW1 + H1 * K0;
  float* oW2 = ob1 + H1;
  float* ob2 = oW2 + H2 * H1;
  float* oW3 = ob2 + H2;
  float* ob3 = oW3 + C * H2;
  // backward: g_prev = (g @ W) * (a_prev > 0); weight updates from g^T @ a_prev
  update(g3.data_ptr<float>(), a2.data_ptr<float>(), W3.data_ptr<float>(), B3.data_ptr<float>(), oW3, ob3, Bn, C, H2, flr, stream, xc);
  bwd_gemm(g3.data_ptr<float>(), W3.data_ptr<float>(), g2.data_ptr<float>(), Bn, H2, C, stream);
  relu_mask_kernel<<<(unsigned)((Bn * H2 + 255) / 256), 256, 0, stream>>>(g2.data_ptr<float>(), a2.data_ptr<float>(), Bn * H2);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  update(g2.data_ptr<float>(), a1.data_ptr<float>(), W2.data_ptr<float>(), B2.data_ptr<float>(), oW2, ob2, Bn, H2, H1, flr, stream, xc);
  bwd_gemm(g2.data_ptr<float>(), W2.data_ptr<float>(), g1.data_ptr<float>(), Bn, H1, H2, stream);
  relu_mask_kernel<<<(unsigned)((Bn * H1 + 255) / 256), 256, 0, stream>>>(g1.data_ptr<float>(), a1.data_ptr<float>(), Bn * H1);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  update(g1.data_ptr<float>(), X, W1.data_ptr<float>(), B1.data_ptr<float>(), oW1, ob1, Bn, H1, K0, flr, stream, xc);
  return out;
}
"""

cpp_src = "torch::Tensor mlp_sgd_step_naive(torch::Tensor x, torch::Tensor labels, torch::Tensor w1, torch::Tensor b1, torch::Tensor w2, torch::Tensor b2, torch::Tensor w3, torch::Tensor b3, double lr);"

_ext = load_inline(name="t2c_mlp_sgd_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["mlp_sgd_step_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr=0.5):
        super().__init__()
        self.lr = lr
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x, labels):
        return _ext.mlp_sgd_step_naive(x, labels, self.fc1.weight, self.fc1.bias, self.fc2.weight, self.fc2.bias,
                         self.fc3.weight, self.fc3.bias, float(self.lr))
