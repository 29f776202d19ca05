// A per-thread array indexed by a runtime value lives in local memory (ld.local/st.local).
__global__ void local_memory(const int* idx, const float* in, float* out) {
  float buf[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 32; ++k) buf[k] = in[i * 32 + k];
  out[i] = buf[idx[i] & 31];
}
