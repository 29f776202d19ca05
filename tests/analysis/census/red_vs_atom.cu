// atom (result returned) versus red (no result). nvcc 13 keeps atom.global even when the result of
// atomicAdd is unused, so the red forms are written in inline PTX.
__global__ void red_vs_atom(int* a, int* b, int* out) {
  __shared__ int s;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(a), "r"(1) : "memory");
  asm volatile("red.global.or.b32 [%0], %1;" ::"l"(a + 1), "r"(i) : "memory");
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&s)), "r"(1) : "memory");
  out[i] = atomicAdd(b, 2);   // atom.global.add
  __syncthreads();
  if (threadIdx.x == 0) out[0] += s;
}
