/* int8 x int8 -> int32 GEMM, C = A * B^T with A (m x k) and B (n x k) both row-major. */
void gemm_i8_i32(int m, int n, int k, const signed char* a, const signed char* b, int* c) {
  for (int i = 0; i < m; ++i) {
    const signed char* ar = a + (long long)i * k;
    for (int j = 0; j < n; ++j) {
      const signed char* br = b + (long long)j * k;
      int acc = 0;
      for (int p = 0; p < k; ++p) acc += (int)ar[p] * (int)br[p];
      c[(long long)i * n + j] = acc;
    }
  }
}
