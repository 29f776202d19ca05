// Vector loads and stores: float4 (16 bytes) and float2 (8 bytes); read-only path via __ldg.
__global__ void vector_loads(const float4* __restrict__ a, const float2* __restrict__ b,
                             float4* out4, float2* out2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = __ldg(&a[i]);
  float2 w = b[i];
  v.x += 1.0f; v.y += 1.0f; v.z += 1.0f; v.w += 1.0f;
  w.x += 2.0f; w.y += 2.0f;
  out4[i] = v;
  out2[i] = w;
}
