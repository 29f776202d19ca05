// Device-peak measurement (peak_kernels.cu). Runs on device 0 of the calling process; 0 on success.
#pragma once

namespace cudaperf::timing {
int measure_peaks(double* copy_bytes_per_s, double* read_bytes_per_s, double* write_bytes_per_s, double* fp32_flops_per_s,
                  double* fp64_flops_per_s);
}
