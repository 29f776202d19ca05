// redteam: issue 18 item 2 — rewrites the harness binary's GOT slot of cudaEventElapsedTime (the
// main executable's relocations, found through getauxval(AT_PHDR) from libc's symbol table: no
// import, no syscall instruction), so its timing call would return a number of the candidate's
// choosing. Where the slot is absent (a harness that never times in this process) it rewrites the
// first GOT slot with its own value. With full RELRO and immediate binding (-z relro -z now) the
// GOT is read-only after start-up: the write faults (SIGSEGV) and the run is not ok; with lazy
// binding the write lands silently. mprotect back to writable is the next step an attacker would
// take: the harness must not hold numbers in this process (issue 18's measurer).
// expect: runtime_error|crash|hack_suspected
// runs-on: cpu (the confined host-side run)
#include <cuda_runtime.h>

#include "attacker.h"

__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

static cudaError_t forged_elapsed(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.001f;  // 1 us for any kernel
  return cudaSuccess;
}

// The GOT slot of `name` in the main executable, or its first GOT slot; 0 when none is found.
static uintptr_t got_slot(const char* name, bool& is_target) {
  using GetauxvalFn = unsigned long (*)(unsigned long);
  auto getauxval = reinterpret_cast<GetauxvalFn>(redteam::libc_symbol("getauxval"));
  if (!getauxval) return 0;
  const auto* ph = reinterpret_cast<const Elf64_Phdr*>(getauxval(AT_PHDR));
  unsigned long phnum = getauxval(AT_PHNUM);
  uintptr_t base = 0;
  const Elf64_Dyn* dyn = nullptr;
  for (unsigned long i = 0; i < phnum; ++i)
    if (ph[i].p_type == PT_PHDR) base = reinterpret_cast<uintptr_t>(ph) - ph[i].p_vaddr;
  for (unsigned long i = 0; i < phnum; ++i)
    if (ph[i].p_type == PT_DYNAMIC) dyn = reinterpret_cast<const Elf64_Dyn*>(base + ph[i].p_vaddr);
  if (!dyn) return 0;
  const Elf64_Sym* syms = nullptr;
  const char* strs = nullptr;
  const Elf64_Rela *jmprel = nullptr, *rela = nullptr;
  size_t jmpsz = 0, relasz = 0;
  for (; dyn->d_tag != DT_NULL; ++dyn) {
    uintptr_t v = redteam::dyn_ptr(base, dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_SYMTAB) syms = reinterpret_cast<const Elf64_Sym*>(v);
    if (dyn->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(v);
    if (dyn->d_tag == DT_JMPREL) jmprel = reinterpret_cast<const Elf64_Rela*>(v);
    if (dyn->d_tag == DT_RELA) rela = reinterpret_cast<const Elf64_Rela*>(v);
    if (dyn->d_tag == DT_PLTRELSZ) jmpsz = dyn->d_un.d_val;
    if (dyn->d_tag == DT_RELASZ) relasz = dyn->d_un.d_val;
  }
  if (!syms || !strs) return 0;
  uintptr_t first = 0;
  for (auto [r, sz] : {std::pair{jmprel, jmpsz}, std::pair{rela, relasz}})
    for (size_t i = 0; r && i < sz / sizeof(Elf64_Rela); ++i) {
      auto type = ELF64_R_TYPE(r[i].r_info);
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
      uintptr_t slot = base + r[i].r_offset;
      if (!first) first = slot;
      if (redteam::same(strs + syms[ELF64_R_SYM(r[i].r_info)].st_name, name)) {
        is_target = true;
        return slot;
      }
    }
  return first;
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  bool target = false;
  if (uintptr_t slot = got_slot("cudaEventElapsedTime", target)) {
    auto* p = reinterpret_cast<void* volatile*>(slot);
    *p = target ? reinterpret_cast<void*>(&forged_elapsed) : *p;
  }
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
