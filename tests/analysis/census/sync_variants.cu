// Barrier flavours: __syncthreads_count (bar.red.popc), __syncthreads_or (bar.red.or),
// a named barrier arrive/sync pair via inline PTX, and __syncwarp (bar.warp.sync, not a CTA barrier).
__global__ void sync_variants(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t];
  int c = __syncthreads_count(v > 0);
  int o = __syncthreads_or(v == 5);
  __syncwarp();
  if (t < 64) {
    asm volatile("bar.arrive 1, 128;");
  } else {
    asm volatile("bar.sync 1, 128;");
  }
  out[t] = c + o;
}
