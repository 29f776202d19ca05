// The fuzz target body, shared by the libFuzzer binary and the corpus replay unit test.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "cudaperf/task/expr.hpp"
#include "cudaperf/task/task.hpp"

namespace cudaperf::fuzz {

// Input: either a task.toml, or (first byte '=') a size expression evaluated in a small env.
inline int task_toml_target(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (!text.empty() && text[0] == '=') {
    auto parsed = task::parse_expr(text.substr(1));
    if (auto* e = std::get_if<task::Expr>(&parsed)) {
      (void)e->names();
      (void)e->eval({{"n", 7}, {"m", 1 << 20}, {"k", 0}});
    }
    return 0;
  }
  auto r = task::parse_task_toml(text, "fuzz.toml");
  if (r.ok()) {
    for (const auto& c : r->configs) {
      (void)task::roofline(r.value(), c);
      for (const auto& p : r->params)
        if (p.pointer) (void)task::buffer_len(p, c);
    }
    (void)r->cuda_declaration();
  }
  return 0;
}

}  // namespace cudaperf::fuzz
