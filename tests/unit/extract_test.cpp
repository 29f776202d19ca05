// serve::extract_code on the cases shared with the Python extractor (tests/data/extract).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "cudaperf/serve/service.hpp"

TEST(ExtractCode, SharedCasesMatchThePythonRules) {
  std::ifstream in(std::string(CUDAPERF_TEST_DATA) + "/extract/cases.json");
  auto cases = nlohmann::json::parse(in);
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    std::string want = c["expected"].is_null() ? "" : c["expected"].get<std::string>();
    EXPECT_EQ(cudaperf::serve::extract_code(c["response"], c["prompt"]), want) << c["name"];
  }
}
