// A minimal work-sharing loop: fn(i) for i in [0, n) on `jobs` threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace cudaperf {

template <class Fn>
void parallel_for(size_t n, unsigned jobs, Fn&& fn) {
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(std::max<size_t>(n, 1))));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

inline unsigned default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace cudaperf
