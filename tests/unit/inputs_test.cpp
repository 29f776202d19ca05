#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "cudaperf/verify/cpu_gates.hpp"

namespace cudaperf {
namespace {

using task::Prefill;

task::Task fixture() {
  auto r = task::load_task(std::string(CUDAPERF_TEST_DATA) + "/good_tasks/fixture/gather_mix");
  EXPECT_TRUE(r.ok());
  return r.value();
}

TEST(Inputs, SameSeedSameBytesOtherSeedOtherBytes) {
  auto t = fixture();
  auto a = verify::make_call(t, t.configs[1], 42, Prefill::Nan);
  auto b = verify::make_call(t, t.configs[1], 42, Prefill::Pattern);
  auto c = verify::make_call(t, t.configs[1], 43, Prefill::Nan);
  ASSERT_TRUE(a && b && c);
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (!t.params[i].pointer || t.params[i].role == task::Role::Out) continue;
    EXPECT_EQ(a->buffers[i], b->buffers[i]) << t.params[i].name;
    if (t.params[i].dist->kind != task::Dist::Kind::Const) {
      EXPECT_NE(a->buffers[i], c->buffers[i]) << t.params[i].name;
    }
  }
}

TEST(Inputs, DistributionsKeepTheirPromises) {
  auto t = fixture();
  const auto& cfg = t.configs[1];  // n = 1001, rows = 77
  auto call = verify::make_call(t, cfg, 7, Prefill::Nan);
  ASSERT_TRUE(call);
  auto v = [&](const char* name) {
    for (size_t i = 0; i < t.params.size(); ++i)
      if (t.params[i].name == name) return call->view(t, i);
    return task::BufferView{};
  };
  auto vals = v("vals");  // mixed(-100, 100)
  int near_zero = 0, ends = 0;
  for (int64_t i = 0; i < vals.count; ++i) {
    double x = vals.get(i);
    ASSERT_GE(x, -100);
    ASSERT_LE(x, 100);
    near_zero += std::fabs(x) < 0.1;
    ends += x == -100 || x > 99.999;
  }
  EXPECT_GT(near_zero, 20);  // the mix really contains tiny values and range ends
  EXPECT_GT(ends, 20);
  auto idx = v("idx");
  for (int64_t i = 0; i < idx.count; ++i) ASSERT_TRUE(idx.get(i) >= 0 && idx.get(i) < 1001);
  auto perm = v("perm");
  std::set<double> seen;
  for (int64_t i = 0; i < perm.count; ++i) seen.insert(perm.get(i));
  EXPECT_EQ(seen.size(), 1001u);
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), 1000);
  auto rp = v("rowptr");
  ASSERT_EQ(rp.count, 78);
  EXPECT_EQ(rp.get(0), 0);
  EXPECT_EQ(rp.get(77), 3 * 1001);
  for (int64_t i = 1; i < rp.count; ++i) ASSERT_LE(rp.get(i - 1), rp.get(i));
  auto srt = v("srt");
  for (int64_t i = 1; i < srt.count; ++i) ASSERT_LE(srt.get(i - 1), srt.get(i));
  auto nrm = v("nrm");
  double mean = 0;
  for (int64_t i = 0; i < nrm.count; ++i) mean += nrm.get(i) / static_cast<double>(nrm.count);
  EXPECT_NEAR(mean, 2.0, 0.1);
  auto bytes = v("bytes");
  std::set<double> distinct;
  for (int64_t i = 0; i < bytes.count; ++i) distinct.insert(bytes.get(i));
  EXPECT_GT(distinct.size(), 200u);
  auto c = v("c");
  for (int64_t i = 0; i < c.count; ++i) EXPECT_EQ(c.get(i), 7);
  auto out = v("out");
  for (int64_t i = 0; i < out.count; ++i) ASSERT_TRUE(std::isnan(out.get(i)));
}

TEST(Inputs, LargeBuffersFillInChunksDeterministically) {
  task::Param p;
  p.name = "x";
  p.type = task::ScalarType::F32;
  p.pointer = true;
  p.dist = task::Dist{task::Dist::Kind::Uniform, {-1, 1}, {}, "uniform(-1, 1)"};
  task::Config c;
  std::vector<float> a(3'000'001), b(3'000'001);
  task::fill_input(p, c, 99, {task::ScalarType::F32, static_cast<int64_t>(a.size()), a.data()});
  task::fill_input(p, c, 99, {task::ScalarType::F32, static_cast<int64_t>(b.size()), b.data()});
  EXPECT_EQ(a, b);
  EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](float x) { return x >= -1 && x < 1; }));
  // Chunks differ from each other (not the same generator restarted).
  EXPECT_NE(std::vector<float>(a.begin(), a.begin() + 100), std::vector<float>(a.begin() + (1 << 20), a.begin() + (1 << 20) + 100));
}

TEST(Compare, ToleranceNanAndFirstMismatch) {
  std::vector<float> e = {1, 2, NAN, 1000}, g = {1.00001f, 2, NAN, 1000.5f};
  task::BufferView ev{task::ScalarType::F32, 4, e.data()}, gv{task::ScalarType::F32, 4, g.data()};
  EXPECT_TRUE(verify::compare(ev, gv, 1e-3, 0, "y").ok);
  auto strict = verify::compare(ev, gv, 1e-7, 1e-7, "y");
  EXPECT_FALSE(strict.ok);
  EXPECT_EQ(strict.first, 0);
  EXPECT_EQ(strict.mismatches, 2);
  EXPECT_NE(strict.message.find("y[0]: expected 1, got 1.00001"), std::string::npos) << strict.message;
  g[2] = 0;  // NaN expected, number given
  EXPECT_FALSE(verify::compare(ev, gv, 1, 1, "y").ok);
  g[2] = NAN;
  e[0] = NAN;  // number expected, NaN given
  EXPECT_FALSE(verify::compare(ev, gv, 1, 1, "y").ok);
  std::vector<int> ei = {5, 6}, gi = {5, 7};
  EXPECT_FALSE(verify::compare({task::ScalarType::I32, 2, ei.data()}, {task::ScalarType::I32, 2, gi.data()}, 0, 0, "c").ok);
}

}  // namespace
}  // namespace cudaperf
