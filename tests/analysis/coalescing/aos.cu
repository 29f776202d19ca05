// Array of structs: reading one 4-byte field of a 20-byte struct gives a 20-byte lane stride.
struct Particle {
  float x, y, z, vx, vy;
};

extern "C" __global__ void get_y(const Particle* __restrict__ p, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = p[i].y;
  }
}
