// The task prompt (src/task/prompt.cpp): everything the checks hold a candidate to is in it.
#include <gtest/gtest.h>

#include "cudaperf/task/prompt.hpp"

using namespace cudaperf::task;

TEST(TaskPrompt, CarriesReferenceSignatureSizesToleranceAndRules) {
  auto r = load_task(std::string(CUDAPERF_TEST_DATA) + "/good_tasks/fixture/gather_mix");
  ASSERT_TRUE(r.ok());
  const Task& t = r.value();
  std::string p = render_prompt(t);
  EXPECT_NE(p.find(t.id), std::string::npos);
  EXPECT_NE(p.find(t.summary), std::string::npos);
  // the exact declaration the candidate is compiled against, stream argument included
  std::string decl = t.cuda_declaration();
  std::string fn_line = decl.substr(decl.find("extern \"C\""));
  fn_line = fn_line.substr(0, fn_line.find('\n'));
  EXPECT_NE(p.find(fn_line), std::string::npos) << fn_line;
  EXPECT_NE(p.find("cudaStream_t"), std::string::npos);
  EXPECT_NE(p.find("void " + t.function), std::string::npos);  // the C reference itself
  for (const auto& c : t.configs) EXPECT_NE(p.find("- " + c.name), std::string::npos) << c.name;
  for (const auto& prm : t.params) EXPECT_NE(p.find(prm.c_decl()), std::string::npos) << prm.name;
  EXPECT_NE(p.find("(timed)"), std::string::npos);
  EXPECT_NE(p.find("rtol"), std::string::npos);
  EXPECT_NE(p.find("```cuda"), std::string::npos);
  EXPECT_EQ(p, render_prompt(t));  // deterministic
}

TEST(TaskPrompt, TorchCarriesReferenceModuleConfigsAndTolerance) {
  auto r = load_torch_task(std::string(CUDAPERF_TEST_DATA) + "/torch_tasks/torch2cuda/elementwise/leaky_relu");
  ASSERT_TRUE(r.ok());
  const TorchTask& t = r.value();
  std::string p = render_torch_prompt(t);
  EXPECT_NE(p.find(t.id), std::string::npos);
  EXPECT_NE(p.find(t.summary), std::string::npos);
  EXPECT_NE(p.find("class Model(nn.Module)"), std::string::npos);  // the reference module itself
  EXPECT_NE(p.find("def get_inputs"), std::string::npos);
  EXPECT_NE(p.find("ModelNew"), std::string::npos);
  for (const auto& c : t.configs) {
    EXPECT_NE(p.find("- " + c.name), std::string::npos) << c.name;
    for (const auto& [k, v] : c.globals) EXPECT_NE(p.find(k + " = " + v), std::string::npos) << c.name << " " << k;
  }
  EXPECT_NE(p.find("(timed)"), std::string::npos);
  EXPECT_NE(p.find("rtol = 1e-05"), std::string::npos);
  EXPECT_NE(p.find("bitwise identical"), std::string::npos);  // deterministic = true
  EXPECT_NE(p.find("```python"), std::string::npos);
  EXPECT_EQ(p.find("{{"), std::string::npos);
  EXPECT_EQ(p, render_torch_prompt(t));  // deterministic
}
