// Warp votes: ballot, all, any, and match.any.
__global__ void vote_ballot(const int* in, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  unsigned b = __ballot_sync(0xffffffffu, x > 0);
  int a = __all_sync(0xffffffffu, x != 7);
  int y = __any_sync(0xffffffffu, x == 3);
  unsigned m = __match_any_sync(0xffffffffu, x);
  out[i] = b + a + y + m;
}
