// strategy: naive (weak) — atomic column histogram, a single-block chunked scan, one thread per row claiming slots with atomics (arbitrary order), then one thread per column insertion-sorts its segment by CSR position to restore the stable order
#include <cuda_runtime.h>

__global__ void c2c_naive_zero(int n, int* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0;
}

__global__ void c2c_naive_count(int nnz, const int* colidx, int* cnt) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nnz) atomicAdd(cnt + colidx[k], 1);
}

// one block of 1024 threads walks the counts in chunks of 1024 carrying the running total
__global__ void c2c_naive_scan(int cols, const int* cnt, int* colptr, int* cursor) {
  __shared__ int buf[1024];
  __shared__ int carry;
  const int t = threadIdx.x;
  if (t == 0) carry = 0;
  __syncthreads();
  for (int base = 0; base < cols; base += 1024) {
    const int v = base + t < cols ? cnt[base + t] : 0;
    buf[t] = v;
    __syncthreads();
    for (int off = 1; off < 1024; off <<= 1) {
      const int a = t >= off ? buf[t - off] : 0;
      __syncthreads();
      buf[t] += a;
      __syncthreads();
    }
    if (base + t < cols) {
      colptr[base + t] = carry + buf[t] - v;
      cursor[base + t] = carry + buf[t] - v;
    }
    __syncthreads();
    if (t == 1023) carry += buf[1023];
    __syncthreads();
  }
  if (t == 0) colptr[cols] = carry;
}

__global__ void c2c_naive_scatter(int rows, const int* rowptr, const int* colidx, int* cursor, int* perm, int* rowtmp) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) {
    const int p = atomicAdd(cursor + colidx[k], 1);
    perm[p] = k;
    rowtmp[p] = r;
  }
}

__global__ void c2c_naive_sort(int cols, const int* colptr, int* perm, int* rowtmp) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  const int b = colptr[c], e = colptr[c + 1];
  for (int i = b + 1; i < e; ++i) {
    const int kk = perm[i], rr = rowtmp[i];
    int j = i - 1;
    while (j >= b && perm[j] > kk) {
      perm[j + 1] = perm[j];
      rowtmp[j + 1] = rowtmp[j];
      --j;
    }
    perm[j + 1] = kk;
    rowtmp[j + 1] = rr;
  }
}

__global__ void c2c_naive_gather(int nnz, const int* perm, const int* rowtmp, const float* vals, int* rowidx,
                                 float* cvals) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= nnz) return;
  rowidx[p] = rowtmp[p];
  cvals[p] = vals[perm[p]];
}

extern "C" void csr_to_csc(int rows, int cols, int nnz, const int* rowptr, const int* colidx, const float* vals,
                           int* colptr, int* rowidx, float* cvals, cudaStream_t stream) {
  const int threads = 256;
  if (cols <= 0 || nnz <= 0) {
    if (cols >= 0) c2c_naive_zero<<<(cols + 1 + threads - 1) / threads, threads, 0, stream>>>(cols + 1, colptr);
    return;
  }
  int* cnt = nullptr;
  int* cursor = nullptr;
  int* perm = nullptr;
  int* rowtmp = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&cnt), sizeof(int) * (size_t)cols, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&cursor), sizeof(int) * (size_t)cols, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&perm), sizeof(int) * (size_t)nnz, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&rowtmp), sizeof(int) * (size_t)nnz, stream);
  c2c_naive_zero<<<(cols + threads - 1) / threads, threads, 0, stream>>>(cols, cnt);
  c2c_naive_count<<<(nnz + threads - 1) / threads, threads, 0, stream>>>(nnz, colidx, cnt);
  c2c_naive_scan<<<1, 1024, 0, stream>>>(cols, cnt, colptr, cursor);
  if (rows > 0)
    c2c_naive_scatter<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, rowptr, colidx, cursor, perm, rowtmp);
  c2c_naive_sort<<<(cols + threads - 1) / threads, threads, 0, stream>>>(cols, colptr, perm, rowtmp);
  c2c_naive_gather<<<(nnz + threads - 1) / threads, threads, 0, stream>>>(nnz, perm, rowtmp, vals, rowidx, cvals);
  cudaFreeAsync(rowtmp, stream);
  cudaFreeAsync(perm, stream);
  cudaFreeAsync(cursor, stream);
  cudaFreeAsync(cnt, stream);
}
