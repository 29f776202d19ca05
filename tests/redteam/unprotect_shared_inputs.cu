// redteam: issue 18 class 3 — cross-candidate sabotage: finds the harness's shared input arenas on the heap (sandbox::SharedArena objects whose mapping is read-only here), undoes the read-only mprotect with libc's mprotect found at run time (refused at link time) and overwrites the inputs every later worker of the run reads; computes nothing itself
// expect: wrong_answer|hack_suspected
// group: attacker
//
// Its own verdict is wrong_answer in any design (it writes no output); the row that matters is
// tests/check_redteam_group.sh, which runs it first in a `tasks check-gpu` of saxpy and requires
// the honest implementations after it to stay ok.
// Old design: sc.in_arena (MAP_SHARED, inherited through fork) was made PROT_READ in the worker
// only; mprotect back to read-write and the writes reached every later worker's inputs while the
// supervisor's expected outputs came from the untouched originals: every implementation after
// this one was wrong_answer at every small config. New design: the launcher is exec'd and maps no
// input on the host (inputs live on the device, regenerated per call by the measurer): nothing
// matches; a filter that refuses mprotect makes it hack_suspected.
#include <cuda_runtime.h>
#include <sys/mman.h>

#include "attacker.h"

namespace {

struct SharedArena {  // sandbox::SharedArena: base_, size_, used_
  uintptr_t base;
  size_t size, used;
};

bool g_done = false;

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  (void)n, (void)a, (void)x, (void)y, (void)out, (void)stream;
  if (g_done) return;
  g_done = true;
  using MprotectFn = int (*)(void*, size_t, int);
  auto mprotect_fn = reinterpret_cast<MprotectFn>(redteam::libc_symbol("mprotect"));
  if (!mprotect_fn) return;
  redteam::Probe pr;
  redteam::scan(redteam::heap_range(pr), 3, [&](uintptr_t p) {
    const auto* a = reinterpret_cast<const SharedArena*>(p);
    if (!redteam::pointer_like(a->base) || (a->base & (redteam::kPage - 1)) != 0) return;
    if (a->size < 64 || a->size > (size_t{1} << 36) || a->used == 0 || a->used > a->size) return;
    if (!pr.readable(a->base) || pr.writable(a->base)) return;  // the read-only ones are the input arenas
    // ... and they start with x: uniform(-1, 1) floats (saxpy's task.toml)
    const auto* f = reinterpret_cast<const float*>(a->base);
    bool inputs = a->used >= 13 * sizeof(float);
    for (int i = 0; i < 13 && inputs; ++i) inputs = f[i] >= -1.0f && f[i] <= 1.0f && f[i] != 0.0f;
    if (!inputs) return;
    size_t bytes = (a->size + redteam::kPage - 1) & ~(redteam::kPage - 1);
    if (mprotect_fn(reinterpret_cast<void*>(a->base), bytes, PROT_READ | PROT_WRITE) != 0) return;
    // The first 64 KiB of every input set: x[0..16383] (all of x and y at the small sizes) become
    // 3.4e38, which no later implementation can get right against the reference.
    memset(reinterpret_cast<void*>(a->base), 0x7f, a->used < (size_t{64} << 10) ? a->used : size_t{64} << 10);
  });
}
