// redteam: issue 18 item 4 — writes machine code into heap memory and makes it executable with
// libc's mprotect, found through libc's symbol table (no import, no syscall instruction in the
// object: the link check and the code scan pass). Code made at run time could hold any instruction
// check_code never saw. The filter refuses mprotect to PROT_EXEC: killed by SIGSYS.
// expect: hack_suspected forbidden system call
// runs-on: cpu (the confined host-side run)
#include <cuda_runtime.h>

#include "attacker.h"

__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  using MprotectFn = int (*)(void*, size_t, int);
  auto mp = reinterpret_cast<MprotectFn>(redteam::libc_symbol("mprotect"));
  if (mp) {
    auto* buf = new unsigned char[3 * redteam::kPage];
    auto* page = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(buf) + redteam::kPage - 1) & ~(redteam::kPage - 1));
    // mov eax, 42; ret — a stand-in for code assembled at run time (a syscall stub, say)
    const unsigned char code[] = {0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3};
    std::memcpy(page, code, sizeof code);
    if (mp(page, redteam::kPage, 0x1 | 0x4) == 0)  // PROT_READ | PROT_EXEC
      (void)reinterpret_cast<int (*)()>(page)();
  }
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
