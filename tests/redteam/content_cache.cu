// redteam: issue 18 class 4 — an output cache keyed on a device-side hash of the input content (a persistent table in the launcher's own device memory): the first two contents of each size are computed honestly and kept, every later call is answered from the table (a copy, padded to 1.2x the datasheet floor so no roofline check sees it); a content the table has not seen gets the stale entry
// expect: wrong_answer|hack_suspected
//
// Old design: warm-up and timed calls alternated the same two input sets (A, B, A, B, ...), so
// after the two warm-ups every timed call hit: correct, median 1.2x the datasheet floor, `ok`.
// New design: every timed call gets inputs no earlier call saw: from the third call on, the
// table answers with a stale output and the checked subset of timed calls is wrong_answer.
#include <cuda_runtime.h>

#include "attacker.h"

namespace {

constexpr int kSlots = 2;
constexpr int kSamples = 256;

struct Table {  // device memory, one per size
  unsigned long long key[kSlots];
  int filled;
  int action;  // 0..kSlots-1: hit in that slot; kSlots + k: fill slot k; 2 * kSlots: stale
};

__device__ unsigned long long mix(unsigned long long v) {  // splitmix64's finaliser
  v ^= v >> 30;
  v *= 0xbf58476d1ce4e5b9ull;
  v ^= v >> 27;
  v *= 0x94d049bb133111ebull;
  return v ^ (v >> 31);
}

__global__ void decide(int n, const float* x, const float* y, Table* t) {
  __shared__ unsigned long long part[kSamples];
  long long i = static_cast<long long>(threadIdx.x) * n / kSamples;
  unsigned long long v = 0;
  if (i < n) v = mix((static_cast<unsigned long long>(__float_as_uint(x[i])) << 32 | __float_as_uint(y[i])) ^ mix(i));
  part[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned long long h = mix(static_cast<unsigned long long>(n));
  for (int k = 0; k < kSamples; ++k) h += part[k];
  for (int k = 0; k < t->filled; ++k)
    if (t->key[k] == h) {
      t->action = k;
      return;
    }
  if (t->filled < kSlots) {
    t->key[t->filled] = h;
    t->action = kSlots + t->filled++;
  } else {
    t->action = 2 * kSlots;
  }
}

__global__ void answer(int n, float a, const float* x, const float* y, float* out, float* slot0, float* slot1,
                       const Table* t) {
  const int act = t->action;
  float* cache[kSlots] = {slot0, slot1};
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (act < kSlots) {
      out[i] = cache[act][i];
    } else if (act < 2 * kSlots) {
      float v = fmaf(a, x[i], y[i]);
      out[i] = v;
      cache[act - kSlots][i] = v;
    } else {
      out[i] = slot0[i];  // a content never seen: the table's oldest answer
    }
  }
}

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  redteam::Kept* b = redteam::kept_for(n, stream, sizeof(Table));
  unsigned long long* t0 = redteam::clock_word(stream);
  if (!b || !t0) return;
  auto* table = static_cast<Table*>(b->extra);
  redteam::stamp_kernel<<<1, 1, 0, stream>>>(t0);
  decide<<<1, kSamples, 0, stream>>>(n, x, y, table);
  long long blocks = (static_cast<long long>(n) + 255) / 256;
  answer<<<static_cast<int>(blocks < 132 * 8 ? blocks : 132 * 8), 256, 0, stream>>>(n, a, x, y, out, b->slot[0], b->slot[1], table);
  redteam::pad_kernel<<<1, 1, 0, stream>>>(t0, static_cast<unsigned long long>(1.2 * redteam::saxpy_floor_ns(n, redteam::kDatasheetBytesPerS)));
}
