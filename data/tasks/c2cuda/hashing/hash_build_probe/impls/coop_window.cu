// strategy: coop_window — cooperative probing: groups of 8 lanes examine 8 consecutive 64-bit slots per step (one 64-byte window, coalesced) and decide with warp ballots — the first slot holding the key or the first empty slot in probe order — so long probe runs cost one round trip per 8 slots; only the group leader issues the atomicCAS / atomicMax, and a lost CAS race re-reads the same window
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr unsigned long long kFree = ~0ull;
constexpr int kGroup = 8;
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ uint32_t window_hash(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

// every lane of the warp runs the same number of loop iterations (warp-uniform bounds), so the
// full-mask ballots are always legal; a group whose item is finished or absent just votes false
__global__ void __launch_bounds__(256)
coop_build(int nk, unsigned long long mask, const int* __restrict__ keys, unsigned long long* table) {
  const int lane = threadIdx.x & 31, g = lane & (kGroup - 1), gshift = lane & ~(kGroup - 1);
  const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; w * 4 < nk; w += warps) {
    const long long item = w * 4 + (lane >> 3);
    bool active = item < nk;
    const int k = active ? __ldg(keys + item) : 0;
    const unsigned long long mine = ((unsigned long long)(uint32_t)k << 32) | (uint32_t)item;
    unsigned long long pos = window_hash((uint32_t)k) & mask;
    while (__any_sync(kFull, active)) {
      const unsigned long long slot = (pos + g) & mask;
      const unsigned long long cur = active ? __ldcg(table + slot) : 0ull;
      const unsigned hit = (__ballot_sync(kFull, active && cur != kFree && (cur >> 32) == (uint32_t)k) >> gshift) & 0xFFu;
      const unsigned hole = (__ballot_sync(kFull, active && cur == kFree) >> gshift) & 0xFFu;
      // in probe order a key never sits after an empty slot (slots are never freed), so the first
      // hit-or-hole decides: a hit before any hole means the key is present
      const unsigned first_hit = hit ? __ffs(hit) - 1 : 32u, first_hole = hole ? __ffs(hole) - 1 : 32u;
      const bool take_hit = active && first_hit < first_hole;
      const bool try_hole = active && !take_hit && hole != 0u;
      bool won = false;
      if (take_hit && (unsigned)g == first_hit) atomicMax(table + slot, mine);
      if (try_hole && (unsigned)g == first_hole) {
        const unsigned long long prev = atomicCAS(table + slot, kFree, mine);
        if (prev == kFree) {
          won = true;
        } else if ((prev >> 32) == (uint32_t)k) {  // the same key raced us into this slot
          atomicMax(table + slot, mine);
          won = true;
        }
      }
      const unsigned won_group = (__ballot_sync(kFull, won) >> gshift) & 0xFFu;  // leader's outcome to its group
      const bool placed = take_hit || (try_hole && won_group != 0u);
      if (active && !take_hit && hole == 0u) pos += kGroup;  // window full of other keys: next window
      // (a lost CAS race retries the same window, which now shows the winner's key)
      if (placed) active = false;
    }
  }
}

__global__ void __launch_bounds__(256)
coop_probe(int nq, unsigned long long mask, const int* __restrict__ queries, const unsigned long long* __restrict__ table,
           const int* __restrict__ vals, int* __restrict__ out) {
  const int lane = threadIdx.x & 31, g = lane & (kGroup - 1), gshift = lane & ~(kGroup - 1);
  const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; w * 4 < nq; w += warps) {
    const long long item = w * 4 + (lane >> 3);
    bool active = item < nq;
    const int k = active ? __ldg(queries + item) : 0;
    unsigned long long pos = window_hash((uint32_t)k) & mask;
    while (__any_sync(kFull, active)) {
      const unsigned long long cur = active ? __ldg(table + ((pos + g) & mask)) : 0ull;
      const bool is_hit = active && cur != kFree && (cur >> 32) == (uint32_t)k;
      const unsigned hit = (__ballot_sync(kFull, is_hit) >> gshift) & 0xFFu;
      const unsigned hole = (__ballot_sync(kFull, active && cur == kFree) >> gshift) & 0xFFu;
      if (active) {
        const unsigned first_hit = hit ? __ffs(hit) - 1 : 32u, first_hole = hole ? __ffs(hole) - 1 : 32u;
        if (first_hit < first_hole) {
          if ((unsigned)g == first_hit) out[item] = __ldg(vals + (uint32_t)cur);
          active = false;
        } else if (hole) {
          if (g == 0) out[item] = -1;
          active = false;
        } else {
          pos += kGroup;
        }
      }
    }
  }
}

}  // namespace

extern "C" void hash_build_probe(int nk, int nq, const int* keys, const int* vals, const int* queries, int* out,
                                 cudaStream_t stream) {
  if (nq <= 0) return;
  size_t cap = 16;
  while (cap < 2 * (size_t)nk) cap <<= 1;
  unsigned long long* table = nullptr;
  cudaMallocAsync(&table, cap * sizeof(unsigned long long), stream);
  cudaMemsetAsync(table, 0xFF, cap * sizeof(unsigned long long), stream);
  int dev = 0, sms = 1;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const long long max_grid = 32LL * sms;
  if (nk > 0) {
    long long gb = ((long long)nk + 31) / 32;  // 256 threads = 8 warps x 4 items
    coop_build<<<(unsigned)(gb < max_grid ? gb : max_grid), 256, 0, stream>>>(nk, cap - 1, keys, table);
  }
  long long gq = ((long long)nq + 31) / 32;
  coop_probe<<<(unsigned)(gq < max_grid ? gq : max_grid), 256, 0, stream>>>(nq, cap - 1, queries, table, vals, out);
  cudaFreeAsync(table, stream);
}
