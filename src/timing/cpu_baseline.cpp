#include "cudaperf/timing/cpu_baseline.hpp"

#include <dlfcn.h>
#include <sched.h>

#include <cstring>
#include <fmt/format.h>

#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/verify/cpu_gates.hpp"

namespace cudaperf::timing {

CpuBaseline time_cpu_baseline(const task::Task& t, const std::filesystem::path& so, const task::Config& config,
                              uint64_t seed, const StoppingRule& rule, double timeout_s) {
  CpuBaseline out;
  auto call = verify::make_call(t, config, seed, task::Prefill::Nan);
  if (!call) {
    out.error = call.errors().front().message;
    return out;
  }
  size_t total = 4096;
  for (const auto& b : call->buffers) total += b.size() + 64;
  sandbox::SharedArena arena(total);
  struct Result {
    Summary summary;
    int reason;
  };
  auto* res = static_cast<Result*>(arena.allocate(sizeof(Result)));
  if (!res) {
    out.error = "cannot map shared memory";
    return out;
  }
  auto pr = sandbox::run_forked(
      [&]() -> int {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
        sched_setaffinity(0, sizeof one, &one);  // one core, as the baseline promises
        void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
        void* fn = h ? dlsym(h, t.function.c_str()) : nullptr;
        if (!fn) return 3;
        verify::HostCall work = call.value();
        std::vector<void*> ptrs(t.params.size(), nullptr);
        for (size_t i = 0; i < t.params.size(); ++i)
          if (t.params[i].pointer) ptrs[i] = work.buffers[i].data();
        auto restore = [&] {
          for (size_t i = 0; i < t.params.size(); ++i)
            if (t.params[i].role == task::Role::InOut) std::memcpy(ptrs[i], call->buffers[i].data(), call->buffers[i].size());
        };
        restore();
        verify::invoke(fn, t, ptrs, work.shape);  // warm-up, like every timed call
        Measurement m = measure(
            [&](bool&) {
              restore();
              auto a = std::chrono::steady_clock::now();
              verify::invoke(fn, t, ptrs, work.shape);
              return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
            },
            rule);
        res->summary = m.summary;
        res->reason = static_cast<int>(m.reason);
        return 0;
      },
      std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000)));
  if (!pr.ok()) {
    out.error = pr.timed_out ? fmt::format("the C baseline did not finish within {:.0f} s", timeout_s)
                             : fmt::format("the C baseline {}", pr.describe());
    return out;
  }
  out.ms = Measurement{res->summary, static_cast<StopReason>(res->reason)};
  return out;
}

}  // namespace cudaperf::timing
