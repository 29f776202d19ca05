// Data-driven coalescing cases: tests/analysis/coalescing/<name>.{cu,ptx,expected.json}. The PTX is
// nvcc output (`nvcc -arch=sm_90 -ptx -lineinfo -O3 <name>.cu -o <name>.ptx`); the expected file
// lists, per kernel, every global access in program order:
//   {"kernels": {"copy": [{"src_line": 5, "store": false, "width": 4, "stride": 4, "sectors": 4}, ...]}}
// Accesses are matched by (src_line, store) in order; every access of every kernel must be listed.
// Optional keys: width, stride (null = unknown), stride_expr, sectors, ideal, note (substring),
// atomic, space_inferred, alignment_assumed, uses_tid_yz.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis_case_runner.hpp"
#include "cudaperf/analysis/coalescing.hpp"
#include "cudaperf/analysis/ptx.hpp"

namespace fs = std::filesystem;
using cudaperf::analysis::GlobalAccess;
using cudaperf::analysis::PtxKernel;

namespace {

const fs::path kDir = fs::path(CUDAPERF_ANALYSIS_CASES) / "coalescing";

std::vector<std::string> case_names() { return analysis_cases::case_names(kDir); }

// "copy" names the kernel "copy" or a C++-mangled "_Z4copy...".
bool name_matches(const std::string& mangled, const std::string& key) {
  return mangled == key || mangled.rfind("_Z" + std::to_string(key.size()) + key, 0) == 0;
}

std::string describe(const GlobalAccess& a) {
  std::ostringstream o;
  o << (a.store ? "store" : "load") << " `" << a.opcode << "` src_line " << a.src_line << " ptx_line " << a.ptx_line
    << " width " << a.width_bytes << " stride "
    << (a.stride_bytes ? std::to_string(*a.stride_bytes) : std::string("null")) << " stride_expr '" << a.stride_expr
    << "' sectors " << a.sectors << " ideal " << a.ideal_sectors << " note '" << a.note << "'";
  return o.str();
}

class CoalescingCases : public ::testing::TestWithParam<std::string> {};

TEST_P(CoalescingCases, MatchesExpected) {
  const std::string name = GetParam();
  analysis_cases::Case loaded;
  std::string why;
  ASSERT_TRUE(analysis_cases::load_case(kDir, name, loaded, why)) << why;
  nlohmann::json& expected = loaded.expected;
  const std::vector<PtxKernel>& kernels = loaded.module.kernels;
  ASSERT_TRUE(expected.contains("kernels") && expected["kernels"].is_object()) << "case " << name;
  ASSERT_FALSE(kernels.empty()) << "case " << name << ": no kernels read from the PTX";

  // Every kernel in the PTX must be described.
  for (const auto& k : kernels) {
    bool listed = false;
    for (auto it = expected["kernels"].begin(); it != expected["kernels"].end(); ++it)
      listed = listed || name_matches(k.name, it.key());
    EXPECT_TRUE(listed) << "case " << name << ": kernel " << k.name << " has no expectations";
  }

  for (auto it = expected["kernels"].begin(); it != expected["kernels"].end(); ++it) {
    const std::string key = it.key();
    const PtxKernel* kp = nullptr;
    for (const auto& k : kernels)
      if (name_matches(k.name, key)) kp = &k;
    if (kp == nullptr) {
      ADD_FAILURE() << "case " << name << ": kernel " << key << " not found in the PTX";
      continue;
    }
    const auto got = cudaperf::analysis::coalescing(*kp);
    std::vector<char> used(got.size(), 0);
    int ei = 0;
    for (const auto& e : it.value()) {
      const int line = e.at("src_line").get<int>();
      const bool store = e.at("store").get<bool>();
      const std::string where = "case " + name + ", kernel " + key + ", expected access #" + std::to_string(ei++) +
                                " (" + (store ? "store" : "load") + " at line " + std::to_string(line) + ")";
      size_t j = 0;
      while (j < got.size() && (used[j] || got[j].src_line != line || got[j].store != store)) ++j;
      if (j == got.size()) {
        ADD_FAILURE() << where << ": no such access found";
        continue;
      }
      used[j] = 1;
      const GlobalAccess& a = got[j];
      const std::string seen = "\n  got: " + describe(a);
      if (e.contains("width")) {
        EXPECT_EQ(a.width_bytes, e["width"].get<int>()) << where << ": width" << seen;
      }
      if (e.contains("stride")) {
        if (e["stride"].is_null()) {
          EXPECT_FALSE(a.stride_bytes.has_value()) << where << ": expected stride null (unknown)" << seen;
        } else {
          EXPECT_EQ(a.stride_bytes, std::optional<long long>(e["stride"].get<long long>()))
              << where << ": stride " << e["stride"].get<long long>() << seen;
        }
      }
      if (e.contains("stride_expr")) {
        EXPECT_EQ(a.stride_expr, e["stride_expr"].get<std::string>()) << where << ": stride_expr" << seen;
      }
      if (e.contains("sectors")) {
        EXPECT_EQ(a.sectors, e["sectors"].get<int>()) << where << ": sectors" << seen;
      }
      if (e.contains("ideal")) {
        EXPECT_EQ(a.ideal_sectors, e["ideal"].get<int>()) << where << ": ideal" << seen;
      }
      if (e.contains("note")) {
        EXPECT_NE(a.note.find(e["note"].get<std::string>()), std::string::npos) << where << ": note should contain '" << e["note"].get<std::string>() << "'" << seen;
      }
      if (e.contains("atomic")) {
        EXPECT_EQ(a.atomic, e["atomic"].get<bool>()) << where << ": atomic" << seen;
      }
      if (e.contains("space_inferred")) {
        EXPECT_EQ(a.space_inferred, e["space_inferred"].get<bool>()) << where << ": space_inferred" << seen;
      }
      if (e.contains("alignment_assumed")) {
        EXPECT_EQ(a.alignment_assumed, e["alignment_assumed"].get<bool>()) << where << ": alignment_assumed" << seen;
      }
      if (e.contains("uses_tid_yz")) {
        EXPECT_EQ(a.uses_tid_yz, e["uses_tid_yz"].get<bool>()) << where << ": uses_tid_yz" << seen;
      }
    }
    for (size_t j = 0; j < got.size(); ++j)
      if (!used[j])
        ADD_FAILURE() << "case " << name << ", kernel " << key << ": unexpected access " << describe(got[j]);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, CoalescingCases, ::testing::ValuesIn(case_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return analysis_cases::param_name(info.param);
                         });

TEST(CoalescingCasesCorpus, HasEnoughCases) {
  // Guards against the glob silently finding nothing (wrong folder): at least 14 cases.
  EXPECT_GE(case_names().size(), 14u) << "cases folder: " << kDir;
}

// Prints every access of every case (run with --gtest_also_run_disabled_tests to inspect).
TEST(CoalescingCasesCorpus, DISABLED_Dump) {
  for (const auto& name : case_names()) {
    auto m = cudaperf::analysis::parse_ptx(analysis_cases::slurp(kDir / (name + ".ptx")));
    if (!m.ok()) continue;
    for (const auto& k : m->kernels)
      for (const auto& a : cudaperf::analysis::coalescing(k)) std::cout << name << " " << k.name << ": " << describe(a) << "\n";
  }
}

}  // namespace
