// Data-driven: every line of tests/data/expr/cases.txt is one expression with its expected value or error.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cudaperf/task/expr.hpp"

using cudaperf::task::Expr;
using cudaperf::task::parse_expr;

namespace {

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  return s;
}

TEST(Expr, DataDrivenCases) {
  std::ifstream in(std::string(CUDAPERF_TEST_DATA) + "/expr/cases.txt");
  ASSERT_TRUE(in) << "missing cases file";
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto a = line.find(" | "), b = line.rfind(" | ");
    ASSERT_NE(a, b) << line;
    std::string text = line.substr(0, a), env_text = trim(line.substr(a + 3, b - a - 3)), want = trim(line.substr(b + 3));
    Expr::Env env;
    std::istringstream es(env_text);
    for (std::string kv; std::getline(es, kv, ',');) {
      auto eq = kv.find('=');
      env[trim(kv.substr(0, eq))] = std::stoll(kv.substr(eq + 1));
    }
    ++cases;
    auto parsed = parse_expr(text);
    std::string got;
    if (auto* msg = std::get_if<std::string>(&parsed)) {
      got = "error: " + *msg;
    } else {
      auto v = std::get<Expr>(parsed).eval(env);
      got = std::holds_alternative<int64_t>(v) ? std::to_string(std::get<int64_t>(v)) : "error: " + std::get<std::string>(v);
    }
    if (want.rfind("error: ", 0) == 0) {
      EXPECT_EQ(got.rfind("error: ", 0), 0u) << text << " gave " << got;
      EXPECT_NE(got.find(want.substr(7)), std::string::npos) << text << ": wanted '" << want << "', got '" << got << "'";
    } else {
      EXPECT_EQ(got, want) << text;
    }
  }
  EXPECT_GE(cases, 30);
}

TEST(Expr, NamesAreCollected) {
  auto e = std::get<Expr>(parse_expr("n*m + cdiv(k, 2) - n"));
  EXPECT_EQ(e.names(), (std::set<std::string>{"k", "m", "n"}));
}

}  // namespace
