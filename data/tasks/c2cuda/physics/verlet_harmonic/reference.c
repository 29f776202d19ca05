/* Velocity Verlet in the harmonic potential U = kspring/2 |x|^2, independently per particle and
 * per coordinate (positions/velocities interleaved as x0 y0 z0 x1 y1 z1 ...):
 *   w2 = kspring / mass[i];  a = -w2 * x
 *   repeat steps times:  x += dt*v + 0.5*dt*dt*a;  a' = -w2 * x;  v += 0.5*dt*(a + a');  a = a'
 * Float arithmetic (elementwise task; no reduction). */

void verlet_harmonic(int n, int steps, float kspring, float dt, const float* pos, const float* vel,
                     const float* mass, float* pos_out, float* vel_out) {
  const float half_dt = 0.5f * dt;
  const float half_dt2 = 0.5f * dt * dt;
  for (int i = 0; i < n; ++i) {
    const float w2 = kspring / mass[i];
    for (int c = 0; c < 3; ++c) {
      float x = pos[3 * i + c];
      float v = vel[3 * i + c];
      float a = -w2 * x;
      for (int s = 0; s < steps; ++s) {
        x = x + dt * v + half_dt2 * a;
        const float an = -w2 * x;
        v = v + half_dt * (a + an);
        a = an;
      }
      pos_out[3 * i + c] = x;
      vel_out[3 * i + c] = v;
    }
  }
}
