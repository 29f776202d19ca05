// mma.sync m16n8k16 (bf16 -> f32) through inline PTX, twice.
__global__ void mma_inline(const unsigned* a, const unsigned* b, float* c) {
  int l = threadIdx.x;
  unsigned a0 = a[l * 4], a1 = a[l * 4 + 1], a2 = a[l * 4 + 2], a3 = a[l * 4 + 3];
  unsigned b0 = b[l * 2], b1 = b[l * 2 + 1];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (int k = 0; k < 2; ++k) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    a0 ^= b1;
  }
  c[l * 4] = d0; c[l * 4 + 1] = d1; c[l * 4 + 2] = d2; c[l * 4 + 3] = d3;
}
