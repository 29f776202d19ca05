// Does not compile: `cudaperf analyze` must exit 1 and show nvcc's error line.
__global__ void broken(float* x) {
  x[threadIdx.x] = undefined_name;
}
