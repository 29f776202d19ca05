// check-gpu's records (src/verify/record.cpp): one schema for both task kinds; the kind-specific
// measurements beside the shared fields.
#include <gtest/gtest.h>

#include "cudaperf/torch2cuda/evaluate.hpp"
#include "cudaperf/verify/record.hpp"

namespace cudaperf {
namespace {

const char* kShared[] = {"task", "category", "kind", "impl", "config", "perf", "status", "message", "median_ms", "min_ms",
                         "q1_ms", "q3_ms", "rel_stdev", "samples", "timed_calls", "discarded", "sm_clock_mhz",
                         "device", "toolkit", "date"};

TEST(Record, BothKindsShareOneSchema) {
  task::Task t;
  t.id = "elementwise/saxpy";
  t.category = "elementwise";
  task::Config small, perf;
  small.name = "small";
  perf.name = "perf";
  perf.perf = true;
  t.configs = {small, perf};
  verify::GpuImplResult g;
  g.impl = "vectorized";
  g.config = "perf";
  g.status = "ok";
  g.median_ms = 1.5;
  g.handshake_ms = 0.3;
  g.stop_reason = "rel_stdev";
  verify::RecordRun run{"H200", "release 12.8", "2026-12-02T00:00:00Z"};
  auto c = verify::record_json(verify::c2cuda_record(t, g, 1.2, "measured"), run);

  task::TorchTask tt;
  tt.id = "activations/relu";
  tt.category = "activations";
  torch2cuda::TorchEvalReport rep;
  rep.mode = "strict";
  rep.eager_ms["perf"] = 3.0;
  verify::ConfigResult cr;
  cr.config = "perf";
  cr.perf = true;
  cr.status = "ok";
  cr.median_ms = 2.0;
  auto p = verify::record_json(torch2cuda::torch_record(tt, "fused", cr, rep), run);

  for (const char* k : kShared) {
    EXPECT_TRUE(c.contains(k)) << "c2cuda record lacks " << k;
    EXPECT_TRUE(p.contains(k)) << "torch2cuda record lacks " << k;
  }
  EXPECT_EQ(c["kind"], "c2cuda");
  EXPECT_EQ(p["kind"], "torch2cuda");
  EXPECT_TRUE(c["perf"].get<bool>());
  EXPECT_DOUBLE_EQ(c["roofline_floor_ms"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(c["handshake_ms"].get<double>(), 0.3);
  EXPECT_EQ(c["stop_reason"], "rel_stdev");
  EXPECT_DOUBLE_EQ(p["eager_ms"].get<double>(), 3.0);
  EXPECT_FALSE(p.contains("compile_ms"));  // no torch.compile baseline for this config
  EXPECT_EQ(p["mode"], "strict");
  EXPECT_EQ(c["device"], "H200");
}

TEST(Record, ASmallConfigHasNoRooflineFloor) {
  task::Task t;
  task::Config small;
  small.name = "small";
  t.configs = {small};
  verify::GpuImplResult g;
  g.config = "small";
  auto c = verify::record_json(verify::c2cuda_record(t, g, 1.2, ""), {});
  EXPECT_FALSE(c["perf"].get<bool>());
  EXPECT_DOUBLE_EQ(c["roofline_floor_ms"].get<double>(), -1.0);
}

}  // namespace
}  // namespace cudaperf
