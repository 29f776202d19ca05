// agent::extract_code (shared with serve and python/cudaperf/extract.py) on the answer shapes a
// refinement loop meets, and missing_code_reason for the "no_code" turn verdict.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "cudaperf/agent/extract.hpp"
#include "cudaperf/serve/service.hpp"

using cudaperf::agent::extract_code;
using cudaperf::agent::missing_code_reason;

TEST(AgentExtract, FenceTags) {
  for (const char* tag : {"cuda", "cpp", "c++", "cu", "c", "CUDA", ""}) {
    std::string a = std::string("Here:\n```") + tag + "\n__global__ void k() {}\n```\nDone.";
    EXPECT_EQ(extract_code(a), "__global__ void k() {}\n") << tag;
  }
  EXPECT_EQ(extract_code("~~~cuda\nint x;\n~~~\n"), "int x;\n");
}

TEST(AgentExtract, SeveralBlocks) {
  // the last tagged block wins over earlier ones and over a later untagged or other-language block
  std::string a = "```cuda\nold\n```\ntext\n```cuda\nnew\n```\n```bash\nnvcc x.cu\n```\n```\nplain\n```\n";
  EXPECT_EQ(extract_code(a), "new\n");
  EXPECT_EQ(extract_code("```python\nprint()\n```\n```\nbare\n```\n"), "bare\n");
  EXPECT_EQ(extract_code("```python\nprint()\n```\n"), "print()\n");  // any block when none is tagged C-like
}

TEST(AgentExtract, NoneAndTruncated) {
  EXPECT_EQ(extract_code("I cannot help with that."), "");
  EXPECT_EQ(missing_code_reason("I cannot help with that."), "none");
  std::string cut = "Sure:\n```cuda\n__global__ void k(int n) {\n  if (n";
  EXPECT_EQ(extract_code(cut), "");
  EXPECT_EQ(missing_code_reason(cut), "unclosed");
  EXPECT_EQ(extract_code("```cuda\n   \n```\n"), "");
  EXPECT_EQ(missing_code_reason("```cuda\n   \n```\n"), "empty");
  // a closed block before a cut-off one still counts
  EXPECT_EQ(extract_code("```cuda\nfirst\n```\n```cuda\nsecond"), "first\n");
  // reasoning is dropped, also when it was cut off
  EXPECT_EQ(extract_code("<think>```cuda\nthought\n```</think>\n```cuda\nreal\n```"), "real\n");
  EXPECT_EQ(extract_code("```cuda\nreal\n```\n<think>```cuda\nhalf"), "real\n");
}

TEST(AgentExtract, SharedCasesAndTheServiceAgree) {
  std::ifstream in(std::string(CUDAPERF_TEST_DATA) + "/extract/cases.json");
  auto cases = nlohmann::json::parse(in);
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    std::string want = c["expected"].is_null() ? "" : c["expected"].get<std::string>();
    EXPECT_EQ(extract_code(c["response"], c["prompt"]), want) << c["name"];
    EXPECT_EQ(cudaperf::serve::extract_code(c["response"], c["prompt"]), want) << c["name"];
  }
}
