// Small helpers shared by the torch2cuda supervisor's files.
#pragma once
#include <chrono>
#include <cstdlib>
#include <string>

namespace cudaperf::torch2cuda::detail {

using Clock = std::chrono::steady_clock;

inline std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

inline double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

inline std::chrono::milliseconds seconds_ms(double s) { return std::chrono::milliseconds(static_cast<long long>(s * 1000)); }

}  // namespace cudaperf::torch2cuda::detail
