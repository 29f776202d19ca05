// Building references (gcc) and CUDA implementations (nvcc) into shared objects, checked against
// declarations generated from task.toml, through a content-addressed on-disk cache.
#pragma once
#include <chrono>
#include <filesystem>
#include <string>

#include "cudaperf/task/task.hpp"

namespace cudaperf::compile {

struct Options {
  std::filesystem::path cache_dir;            // empty: default_cache_dir()
  std::chrono::milliseconds timeout{180000};  // per compiler invocation
};

struct Artifact {
  bool ok = false;
  std::filesystem::path path;  // the shared object, when ok
  std::string diagnostics;     // trimmed compiler output (errors first), or why it failed
  bool cache_hit = false;
  double seconds = 0;
};

// $CUDAPERF_CACHE_DIR, else $XDG_CACHE_HOME/cudaperf, else ~/.cache/cudaperf.
std::filesystem::path default_cache_dir();
std::string nvcc_path();  // $CUDAPERF_NVCC, else /usr/local/cuda/bin/nvcc if present, else "nvcc"
// What records name as the toolkit: nvcc's release line ("release 13.0, V13.0.88"), and the ptxas
// beside it when that one reports another release (an overlay: "..., ptxas release 13.5, V13.5.37").
std::string toolkit_description();

// gcc -std=c11 -O2 -Wall -Werror, with the generated C declaration pre-included.
Artifact compile_reference(const task::Task& t, const Options& o = {});
// The same source at -O3 -march=native: the sequential C baseline that speedups are quoted against.
Artifact compile_reference_baseline(const task::Task& t, const Options& o = {});
// nvcc -arch=sm_90 shared object with the generated extern "C" declaration pre-included; the
// object must define the task's function.
// verbose_ptxas adds -Xptxas -v: the per-kernel resource lines then appear in `diagnostics`.
Artifact compile_cuda(const task::Task& t, const std::filesystem::path& source, const Options& o = {},
                      bool verbose_ptxas = false);

// Keeps the lines a person needs: errors and their context first, at most max_lines.
std::string trim_diagnostics(const std::string& raw, size_t max_lines = 20);

}  // namespace cudaperf::compile
