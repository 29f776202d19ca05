// What the red-team rows that read or write the harness's host memory share (issue 18), written as
// an attacker who reads cudaperf's source would: no import beyond the link allowlist and no
// system-call instruction in the candidate.
//  - libc_symbol(name): any libc function or variable, found through libc's own ELF symbol table in
//    memory (the address of an allowed import, abort, leads to libc's mapping). The link allowlist
//    only sees imports, so this reaches mprotect, write, sigaction, __curbrk...
//  - Probe: fault-safe reads and writes (a SIGSEGV/SIGBUS handler that jumps back), so memory can
//    be scanned without /proc/self/maps.
//  - stack_range / heap_range: the launcher's stack from its own frame up to the first unreadable
//    page, and the brk heap below __curbrk.
// Rows include it by relative path; tests/check_redteam_group.sh inlines it when it copies a row
// into a task folder. The compile cache is keyed on the .cu's text only: after editing this file,
// evaluate with a fresh CUDAPERF_CACHE_DIR.
#pragma once
#include <elf.h>
#include <signal.h>
#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace redteam {

constexpr uintptr_t kPage = 4096;

inline uintptr_t libc_base() {
  static uintptr_t base = 0;
  if (base) return base;
  uintptr_t p = reinterpret_cast<uintptr_t>(&abort) & ~(kPage - 1);
  // libc's segments are mapped back to back: walk down page by page to its ELF header.
  for (int i = 0; i < 16384; ++i, p -= kPage) {
    const auto* e = reinterpret_cast<const Elf64_Ehdr*>(p);
    if (std::memcmp(e->e_ident, ELFMAG, SELFMAG) == 0 && e->e_type == ET_DYN && e->e_machine == EM_X86_64)
      return base = p;
  }
  return 0;
}

inline bool same(const char* a, const char* b) {  // strcmp is not on the allowlist
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

// An address as the dynamic section holds it (ld.so relocates some entries in place).
inline uintptr_t dyn_ptr(uintptr_t base, uintptr_t v) { return v < base ? v + base : v; }

inline void* libc_symbol(const char* name) {
  uintptr_t base = libc_base();
  if (!base) return nullptr;
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(base);
  const auto* ph = reinterpret_cast<const Elf64_Phdr*>(base + eh->e_phoff);
  const Elf64_Dyn* dyn = nullptr;
  for (int i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_type == PT_DYNAMIC) dyn = reinterpret_cast<const Elf64_Dyn*>(base + ph[i].p_vaddr);
  if (!dyn) return nullptr;
  const Elf64_Sym* syms = nullptr;
  const char* strs = nullptr;
  const uint32_t *gnu = nullptr, *sysv = nullptr;
  for (; dyn->d_tag != DT_NULL; ++dyn) {
    uintptr_t v = dyn_ptr(base, dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_SYMTAB) syms = reinterpret_cast<const Elf64_Sym*>(v);
    if (dyn->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(v);
    if (dyn->d_tag == DT_GNU_HASH) gnu = reinterpret_cast<const uint32_t*>(v);
    if (dyn->d_tag == DT_HASH) sysv = reinterpret_cast<const uint32_t*>(v);
  }
  if (!syms || !strs) return nullptr;
  auto match = [&](uint32_t i) -> void* {
    const Elf64_Sym& s = syms[i];
    if (s.st_shndx == SHN_UNDEF || s.st_value == 0 || !same(strs + s.st_name, name)) return nullptr;
    return reinterpret_cast<void*>(base + s.st_value);
  };
  if (gnu) {
    uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom_words = gnu[2];
    const uint32_t* buckets = gnu + 4 + 2 * bloom_words;  // the bloom filter is 64-bit words
    const uint32_t* chain = buckets + nbuckets;
    uint32_t h = 5381;
    for (const char* c = name; *c; ++c) h = h * 33 + static_cast<unsigned char>(*c);
    for (uint32_t i = buckets[h % nbuckets]; i >= symoffset; ++i) {
      uint32_t ch = chain[i - symoffset];
      if ((ch | 1) == (h | 1))
        if (void* p = match(i)) return p;
      if (ch & 1) break;
    }
    return nullptr;
  }
  if (sysv)
    for (uint32_t i = 0; i < sysv[1]; ++i)
      if (void* p = match(i)) return p;
  return nullptr;
}

// ---------------------------------------------------------------- fault-safe access

// Two tiny functions whose only faulting instructions lie between known labels: the handler moves
// the instruction pointer past them and makes the function return 0.
asm(R"(
  .text
  .p2align 4
  .hidden redteam_read_byte, redteam_read_fault, redteam_read_done
  .hidden redteam_write_byte, redteam_write_fault, redteam_write_done
  .globl redteam_read_byte, redteam_read_fault, redteam_read_done
  .globl redteam_write_byte, redteam_write_fault, redteam_write_done
redteam_read_byte:
  movl $1, %eax
redteam_read_fault:
  movb (%rdi), %cl
redteam_read_done:
  ret
redteam_write_byte:
  movl $1, %eax
redteam_write_fault:
  movb (%rdi), %cl
  movb %cl, (%rdi)
redteam_write_done:
  ret
)");
extern "C" int redteam_read_byte(uintptr_t p);
extern "C" int redteam_write_byte(uintptr_t p);  // writes the byte it read back
extern "C" char redteam_read_fault[], redteam_read_done[], redteam_write_fault[], redteam_write_done[];

inline void on_fault(int, siginfo_t*, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  auto rip = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  auto in = [&](const char* a, const char* b) { return rip >= reinterpret_cast<uintptr_t>(a) && rip < reinterpret_cast<uintptr_t>(b); };
  if (in(redteam_read_fault, redteam_read_done)) uc->uc_mcontext.gregs[REG_RIP] = reinterpret_cast<greg_t>(redteam_read_done);
  else if (in(redteam_write_fault, redteam_write_done)) uc->uc_mcontext.gregs[REG_RIP] = reinterpret_cast<greg_t>(redteam_write_done);
  else abort();  // a fault outside the probes: the row's own bug
  uc->uc_mcontext.gregs[REG_RAX] = 0;
}

// While a Probe lives, a bad read or write returns false instead of killing the process.
struct Probe {
  using SigactionFn = int (*)(int, const struct sigaction*, struct sigaction*);
  SigactionFn sa = reinterpret_cast<SigactionFn>(libc_symbol("sigaction"));
  struct sigaction old_segv {}, old_bus {};
  bool ok = false;
  Probe() {
    if (!sa) return;
    struct sigaction act;
    std::memset(&act, 0, sizeof act);
    act.sa_sigaction = on_fault;
    act.sa_flags = SA_SIGINFO;
    ok = sa(SIGSEGV, &act, &old_segv) == 0 && sa(SIGBUS, &act, &old_bus) == 0;
  }
  ~Probe() {
    if (!ok) return;
    sa(SIGSEGV, &old_segv, nullptr);
    sa(SIGBUS, &old_bus, nullptr);
  }
  bool readable(uintptr_t p) const { return ok && redteam_read_byte(p) == 1; }
  bool writable(uintptr_t p) const { return ok && redteam_write_byte(p) == 1; }
  bool readable_range(uintptr_t p, size_t bytes) const {
    for (uintptr_t q = p & ~(kPage - 1); q < p + bytes; q += kPage)
      if (!readable(q)) return false;
    return bytes == 0 || readable(p + bytes - 1);
  }
};

inline bool pointer_like(uintptr_t v) { return v >= 0x10000 && v < (uintptr_t{1} << 47) && (v & 7) == 0; }

struct Range {
  uintptr_t lo = 0, hi = 0;  // [lo, hi), 8-byte aligned
};

// From this frame up to the first unreadable page (the top of the stack), at most `cap` bytes.
__attribute__((noinline)) inline Range stack_range(const Probe& pr, size_t cap = size_t{64} << 20) {
  uintptr_t lo = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) & ~uintptr_t{7};
  uintptr_t hi = (lo & ~(kPage - 1)) + kPage;
  while (hi - lo < cap && pr.readable(hi)) hi += kPage;
  return {lo, hi};
}

// The brk heap: from the current break (libc's __curbrk) down to the first unreadable page.
inline Range heap_range(const Probe& pr, size_t cap = size_t{8} << 30) {
  auto** curbrk = static_cast<void**>(libc_symbol("__curbrk"));
  if (!curbrk || !*curbrk) return {};
  uintptr_t hi = reinterpret_cast<uintptr_t>(*curbrk) & ~(kPage - 1);
  uintptr_t lo = hi;
  while (hi - lo < cap && pr.readable(lo - kPage)) lo -= kPage;
  return {lo, hi};
}

}  // namespace redteam

namespace redteam {

// A std::vector's three words in libstdc++: begin, end, end of storage.
struct Vec {
  uintptr_t b, e, c;
  size_t size() const { return e - b; }
  bool empty_null() const { return b == 0 && e == 0 && c == 0; }
};

// Calls f(address) at every 8-byte position of r where `words` words fit before its end.
template <class F>
void scan(const Range& r, size_t words, F&& f) {
  for (uintptr_t p = r.lo; p + 8 * words <= r.hi; p += 8) f(p);
}

// The task's launch arguments as the cost model and the roofline see them (elementwise/saxpy:
// 12 bytes per element; the datasheet peak the old harness judged against, and what this H200
// measured).
constexpr double kDatasheetBytesPerS = 4.8e12;
constexpr double kMeasuredBytesPerS = 4.2e12;
inline double saxpy_floor_ns(int n, double bytes_per_s) { return 12.0 * n / bytes_per_s * 1e9; }

}  // namespace redteam

// ---------------------------------------------------------------- device-side clock (no event needed)
#ifdef __CUDACC__
namespace redteam {

__device__ inline unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void stamp_kernel(unsigned long long* t) { *t = globaltimer_ns(); }
// One thread spins until `ns` have passed since the stamp: the call then lasts what the row wants.
__global__ void pad_kernel(const unsigned long long* t0, unsigned long long ns) {
  while (globaltimer_ns() - *t0 < ns) {
  }
}

// A device word of the launcher's own (cudaMallocAsync once, never freed).
inline unsigned long long* clock_word(cudaStream_t s) {
  static unsigned long long* w = nullptr;
  if (!w) cudaMallocAsync(reinterpret_cast<void**>(&w), sizeof *w, s);
  return w;
}

// Two output-sized device buffers of the launcher's own per size n (cudaMallocAsync once, never
// freed), a call counter, and `extra` zeroed bytes of state: the caches' storage.
struct Kept {
  int n = -1;
  long calls = 0;
  float* slot[2] = {};
  void* extra = nullptr;
};
inline Kept* kept_for(int n, cudaStream_t s, size_t extra = 0) {
  static Kept table[8];
  for (auto& k : table)
    if (k.n == n) return &k;
  for (auto& k : table) {
    if (k.n >= 0) continue;
    for (auto& p : k.slot)
      if (cudaMallocAsync(reinterpret_cast<void**>(&p), sizeof(float) * n, s) != cudaSuccess) return nullptr;
    if (extra && cudaMallocAsync(&k.extra, extra, s) != cudaSuccess) return nullptr;
    if (extra) cudaMemsetAsync(k.extra, 0, extra, s);
    k.n = n;
    return &k;
  }
  return nullptr;
}

}  // namespace redteam
#endif
