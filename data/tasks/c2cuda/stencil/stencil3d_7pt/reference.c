// 3-D 7-point stencil, x fastest; boundary cells are copied from the input.
void stencil3d_7pt(int nz, int ny, int nx, float c0, float c1, const float* in, float* out) {
  const long long sy = nx, sz = (long long)nx * ny;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        long long k = z * sz + y * sy + x;
        if (z == 0 || y == 0 || x == 0 || z == nz - 1 || y == ny - 1 || x == nx - 1) {
          out[k] = in[k];
        } else {
          float s = ((((in[k - 1] + in[k + 1]) + in[k - sy]) + in[k + sy]) + in[k - sz]) + in[k + sz];
          out[k] = c0 * in[k] + c1 * s;
        }
      }
}
