// The exchange folder, the secret seed and the plans' config list (exchange.hpp).
#include "exchange.hpp"

#include <unistd.h>

#include <random>
#include <string>
#include <vector>

#include "clock.hpp"

namespace cudaperf::torch2cuda::detail {

namespace fs = std::filesystem;
using nlohmann::json;

uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(Clock::now().time_since_epoch().count());
}

fs::path make_exchange_dir() {
  for (const char* base : {"/dev/shm", "/tmp"}) {
    std::string tmpl = std::string(base) + "/cudaperf-t2c-XXXXXX";
    std::vector<char> b(tmpl.begin(), tmpl.end());
    b.push_back(0);
    if (mkdtemp(b.data())) return fs::path(b.data());
  }
  return {};
}

json plan_configs(const task::TorchTask& t, bool perf_too) {
  json arr = json::array();
  for (const auto& c : t.configs) {
    if (c.perf && !perf_too) continue;
    json g = json::object();
    for (const auto& [k, v] : c.globals) g[k] = json::parse(v, nullptr, false);
    json cfg = {{"name", c.name}, {"perf", c.perf}, {"globals", g}};
    if (c.floor_bytes >= 0) cfg["floor_bytes"] = c.floor_bytes;  // task.toml cost: the roofline floor's bytes
    arr.push_back(std::move(cfg));
  }
  return arr;
}

}  // namespace cudaperf::torch2cuda::detail
