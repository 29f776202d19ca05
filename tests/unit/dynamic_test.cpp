// The Nsight Compute side of the structural analysis (src/analysis/dynamic.cpp): parsing ncu's
// CSV (checked-in fixture in ncu's layout), name matching with the static report, derived values.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cudaperf/analysis/dynamic.hpp"
#include "cudaperf/util/file.hpp"

namespace ca = cudaperf::analysis;

namespace {
std::string read(const std::string& p) { return cudaperf::read_file(p).value_or(""); }
}  // namespace

TEST(NcuCsv, ParsesLaunchesInOrderWithUnitsAndThousandsSeparators) {
  auto r = ca::parse_ncu_csv(read(std::string(CUDAPERF_TEST_DATA) + "/bench/ncu.csv"));
  ASSERT_TRUE(r.ok());
  const auto& l = r.value();
  ASSERT_EQ(l.size(), 21u);  // one per ID; the "==PROF==" line before the table is skipped
  EXPECT_EQ(l[0].process, "10");  // the measurer's own kernels come first
  EXPECT_EQ(l[2].process, "11");  // then the first launcher's
  EXPECT_EQ(l[2].stream, "13");
  EXPECT_EQ(l[2].kernel, "k1(float*)");
  EXPECT_DOUBLE_EQ(l[10].values.at("gpu__time_duration.sum"), 2000000.0);  // "2,000,000"
  EXPECT_EQ(l[15].process, "22");
}

TEST(NcuCsv, NoTableIsAnError) {
  auto r = ca::parse_ncu_csv("==PROF== Connected\n==WARNING== No kernels were profiled.\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors().front().message.find("no CSV table"), std::string::npos);
}

TEST(NcuCsv, KernelNamesMatchAcrossCxxfiltAndNcuSpelling) {
  EXPECT_EQ(ca::kernel_base_name("void horner_ilp4_kernel<true>(int, float const*)"), "horner_ilp4_kernel<1>");
  EXPECT_EQ(ca::kernel_base_name("horner_ilp4_kernel<1>(int, const float *)"), "horner_ilp4_kernel<1>");
  EXPECT_EQ(ca::kernel_base_name("(anonymous namespace)::bs_naive(int, float)"), "<unnamed>::bs_naive");
  EXPECT_EQ(ca::kernel_base_name("<unnamed>::bs_naive(int, float)"), "<unnamed>::bs_naive");
  EXPECT_EQ(ca::kernel_base_name("void tile<(int)4, float>(float*)"), "tile<(int)4, float>");
}

TEST(NcuCsv, DerivedValuesSumCountersAndAverageRatios) {
  ca::NcuLaunch a, b;
  a.values = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 400}, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 100},
              {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 10}, {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 3},
              {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 1}, {"dram__bytes_read.sum", 1000},
              {"dram__bytes_write.sum", 24}, {"sm__warps_active.avg.pct_of_peak_sustained_active", 50},
              {"gpu__time_duration.sum", 2e6}};
  b.values = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 3200}, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 100},
              {"sm__warps_active.avg.pct_of_peak_sustained_active", 70}, {"gpu__time_duration.sum", 1e6}};
  auto j = ca::derive_kernel_metrics({&a, &b});
  EXPECT_EQ(j["launches"], 2);
  EXPECT_DOUBLE_EQ(j["sectors_per_request_ld"].get<double>(), 3600.0 / 200);  // summed, then divided
  EXPECT_TRUE(j["sectors_per_request_st"].is_null());                        // never measured: null, not 0
  EXPECT_DOUBLE_EQ(j["flops_fp32"].get<double>(), 3 + 2 * 10);
  EXPECT_DOUBLE_EQ(j["flops_fp64"].get<double>(), 2);
  EXPECT_TRUE(j["flops_fp16"].is_null());
  EXPECT_DOUBLE_EQ(j["dram_bytes"].get<double>(), 1024);
  EXPECT_DOUBLE_EQ(j["achieved_occupancy_pct"].get<double>(), 60);
  EXPECT_DOUBLE_EQ(j["time_ms"].get<double>(), 3.0);
}
