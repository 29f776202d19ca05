// Static analysis time per kernel (issue 4 target: < 50 ms median). One benchmark per PTX file:
// parse the module, then census + coalescing + occupancy for every kernel in it; the per-kernel
// time is the reported time divided by the "kernels" counter.
//   analysis_bench DIR... [--benchmark_out=F --benchmark_out_format=json]
// DIR: folders searched recursively for *.ptx (tests/analysis, or tools/dataset-ptx.sh output).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cudaperf/analysis/census.hpp"
#include "cudaperf/util/file.hpp"
#include "cudaperf/analysis/coalescing.hpp"
#include "cudaperf/analysis/occupancy.hpp"
#include "cudaperf/analysis/ptx.hpp"

namespace fs = std::filesystem;
using namespace cudaperf::analysis;

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i)
    if (fs::is_directory(argv[i]))
      for (const auto& e : fs::recursive_directory_iterator(argv[i]))
        if (e.path().extension() == ".ptx") files.push_back(e.path());
  if (files.empty()) {
    std::cerr << "analysis_bench: give folders holding .ptx files\n";
    return 2;
  }
  static std::vector<std::string> texts;
  texts.reserve(files.size());
  for (const auto& f : files) {
    texts.push_back(cudaperf::read_file(f).value_or(""));
    const std::string* text = &texts.back();
    benchmark::RegisterBenchmark(f.string().c_str(), [text](benchmark::State& st) {
      size_t kernels = 0, accesses = 0;
      for (auto _ : st) {
        auto m = parse_ptx(*text);
        if (!m) {
          st.SkipWithError("parse error");
          return;
        }
        kernels = m.value().kernels.size();
        for (const auto& k : m.value().kernels) {
          auto c = census(k);
          auto a = coalescing(k);
          accesses = a.size();
          OccupancyInput oi;
          oi.block_size = k.reqntid ? k.reqntid : k.maxntid ? k.maxntid : 256;
          auto o = occupancy_sm90(oi);
          benchmark::DoNotOptimize(c);
          benchmark::DoNotOptimize(o);
        }
      }
      st.counters["kernels"] = static_cast<double>(kernels);
      st.counters["accesses_last_kernel"] = static_cast<double>(accesses);
    })->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
