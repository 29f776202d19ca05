// One evaluation's private exchange folder (tensors, plans, FIFOs), its secret seed, and the config
// list the workers' plans carry.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>

#include "cudaperf/task/task.hpp"

namespace cudaperf::torch2cuda::detail {

// A fresh secret seed from the OS (it reaches the reference worker on its stdin, never on a command line).
uint64_t fresh_seed();
// A private folder for one evaluation's tensors (RAM-backed where possible); empty when none can be made.
std::filesystem::path make_exchange_dir();
// The task's configs as the workers' plans list them; `perf_too`: the perf configs as well.
nlohmann::json plan_configs(const task::TorchTask& t, bool perf_too);

// Removes the folder when it goes out of scope.
struct RemoveOnExit {
  std::filesystem::path p;
  ~RemoveOnExit() {
    std::error_code ec;
    std::filesystem::remove_all(p, ec);
  }
};

}  // namespace cudaperf::torch2cuda::detail
