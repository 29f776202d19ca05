// Small helpers the files of the analyze report share (report.cpp, report/*.cpp).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cudaperf::analysis::report_detail {

// Every count of a by-op map, e.g. every global atomic, whatever its op.
inline int total(const std::map<std::string, int>& by_op) {
  int n = 0;
  for (const auto& [op, count] : by_op) n += count;
  return n;
}

inline nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

inline std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

}  // namespace cudaperf::analysis::report_detail
