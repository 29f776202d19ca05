// The structural report behind `cudaperf analyze`: builds the file, reads ptxas's resources and
// the PTX, and puts together the report of every kernel (report/kernel.cpp; formulas:
// docs/analysis.md). The scores are in report/scores.cpp, the text form in report/text.cpp.
#include "cudaperf/analysis/report.hpp"
#include "cudaperf/util/file.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

#include "cudaperf/analysis/launch_scan.hpp"
#include "cudaperf/analysis/ptx.hpp"
#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/verify/gpu_check.hpp"
#include "report/common.hpp"
#include "report/kernel.hpp"

namespace cudaperf::analysis {

namespace fs = std::filesystem;
using nlohmann::json;
using report_detail::analyze_kernel;
using report_detail::opt;
using report_detail::TaskContext;

namespace {

std::string quote_cmd(const std::vector<std::string>& argv) {
  std::vector<std::string> q;
  for (const auto& a : argv) q.push_back(a.find(' ') == std::string::npos ? a : "'" + a + "'");
  return report_detail::join(q, " ");
}

// A temporary folder removed on scope exit.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "cudaperf-analyze-XXXXXX").string();
    if (mkdtemp(tmpl.data())) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

bool gpu_present() {
  bool available = false;
  verify::describe_gpu(available);
  return available;
}

Result<json> analyze_file(const fs::path& cu, const AnalyzeOptions& o, AnalyzeFailure* why) {
  auto fail = [&](AnalyzeFailure f, std::vector<Diagnostic> d) -> Result<json> {
    if (why) *why = f;
    return d;
  };
  if (why) *why = AnalyzeFailure::None;
  if (!fs::is_regular_file(cu) || !std::ifstream(cu))
    return fail(AnalyzeFailure::Usage, {{cu.string(), 0, 0, "cannot read the file"}});

  // The task, when given.
  std::optional<task::Task> t;
  if (!o.task_id.empty()) {
    auto dir = task::find_task_by_id(o.task_root, o.task_id);
    if (!dir)
      return fail(AnalyzeFailure::Usage,
                  {{"", 0, 0, fmt::format("no task '{}' under {}", o.task_id, o.task_root.string())}});
    auto lt = task::load_task(*dir);
    if (!lt) return fail(AnalyzeFailure::Usage, lt.errors());
    t = std::move(lt.value());
  }

  TempDir tmp;
  if (tmp.path.empty()) return fail(AnalyzeFailure::Usage, {{"", 0, 0, "cannot create a temporary folder"}});
  const std::string nvcc = compile::nvcc_path();
  fs::path decl = tmp.path / "task_declaration.h", ptx_path = tmp.path / "kernel.ptx",
           cubin_path = tmp.path / "kernel.cubin";
  std::vector<std::string> ptx_cmd = {nvcc, "-arch=sm_90", "-std=c++17", "-O3", "-lineinfo", "-ptx"};
  if (t) {
    std::ofstream(decl) << t->cuda_declaration();
    ptx_cmd.insert(ptx_cmd.end(), {"--pre-include", decl.string()});
  }
  ptx_cmd.insert(ptx_cmd.end(), {cu.string(), "-o", ptx_path.string()});
  auto clean = [&](const std::string& s) {
    return replace_all(replace_all(s, decl.string(), "<declaration from task.toml>"), tmp.path.string() + "/", "");
  };
  auto r1 = sandbox::run_process(ptx_cmd, o.timeout);
  if (!r1.ok()) {
    std::string d = r1.timed_out || r1.spawn_failed ? fmt::format("nvcc {}", r1.describe())
                                                    : compile::trim_diagnostics(clean(r1.output));
    return fail(AnalyzeFailure::Compile,
                {{cu.string(), 0, 0, fmt::format("does not compile (nvcc -ptx, {}):\n{}", r1.describe(), d)}});
  }
  std::vector<std::string> cubin_cmd = {nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", ptx_path.string(), "-o",
                                        cubin_path.string()};
  auto r2 = sandbox::run_process(cubin_cmd, o.timeout);
  if (!r2.ok()) {
    std::string d = r2.timed_out || r2.spawn_failed ? fmt::format("nvcc {}", r2.describe())
                                                    : compile::trim_diagnostics(clean(r2.output));
    return fail(AnalyzeFailure::Compile,
                {{cu.string(), 0, 0, fmt::format("does not assemble (ptxas, {}):\n{}", r2.describe(), d)}});
  }
  std::string ptx_text = read_file(ptx_path).value_or("");
  auto resources = compile::parse_ptxas_info(r2.output);

  json rep;
  rep["file"] = cu.string();
  rep["task"] = t ? json(t->id) : json(nullptr);
  rep["arch"] = "sm_90";
  rep["build"] = {{"ptx", clean(quote_cmd(ptx_cmd))}, {"resources", clean(quote_cmd(cubin_cmd))}};
  rep["provenance"] = {
      {"static", "resources, occupancy, coalescing, census, intensity, sync and the roofline floor: computed from the "
                 "compiled PTX/ptxas output, the launch shape and the task's cost model, without a GPU"},
      {"measured", o.measured_ms ? "the roofline 'measured_ms' given on the command line" : "none"},
      {"assumed", "launch values marked 'assumed'; device peaks unless 'measured' is true"}};
  rep["peaks"] = {{"bandwidth_bytes_per_s", o.peaks.bandwidth_bytes_per_s},
                  {"fp32_flops_per_s", o.peaks.fp32_flops_per_s},
                  {"fp64_flops_per_s", o.peaks.fp64_flops_per_s},
                  {"measured", o.peaks.measured},
                  {"ridge_fp32", o.peaks.ridge(false)},
                  {"ridge_fp64", o.peaks.ridge(true)}};

  // Roofline of the task's cost model.
  TaskContext tc;
  json warnings = json::array();
  if (t) {
    tc.task = &*t;
    std::vector<const task::Config*> cfgs;
    for (const auto& c : t->configs)
      if (c.perf) cfgs.push_back(&c);
    if (cfgs.empty())
      for (const auto& c : t->configs) cfgs.push_back(&c);
    const task::Config* measured_cfg = nullptr;
    if (!o.config.empty()) {
      for (const auto& c : t->configs)
        if (c.name == o.config) measured_cfg = &c;
      if (!measured_cfg)
        return fail(AnalyzeFailure::Usage, {{"", 0, 0, fmt::format("task '{}' has no config '{}'", t->id, o.config)}});
      if (std::find(cfgs.begin(), cfgs.end(), measured_cfg) == cfgs.end()) cfgs.push_back(measured_cfg);
    } else if (!cfgs.empty()) {
      measured_cfg = cfgs.front();
    }
    json rows = json::array();
    for (const auto* c : cfgs) {
      std::optional<double> ms;
      if (c == measured_cfg && o.measured_ms) ms = *o.measured_ms * 1e-3;
      auto p = task_roofline(*t, *c, o.peaks, ms);
      if (!p) {
        warnings.push_back(p.errors().front().message);
        continue;
      }
      if (c == measured_cfg) tc.intensity = p->intensity;
      rows.push_back({{"config", c->name},
                      {"perf", c->perf},
                      {"flops", p->flops},
                      {"bytes", p->bytes},
                      {"intensity", opt(p->intensity)},
                      {"floor_ms", p->floor_s * 1e3},
                      {"bound", p->bound},
                      {"measured_ms", p->measured_s ? json(*p->measured_s * 1e3) : json(nullptr)},
                      {"fraction", opt(p->fraction)}});
    }
    rep["roofline"] = {{"source", "static (task cost model over the peaks above); 'measured_ms' and 'fraction' only "
                                  "when a time was given"},
                       {"flops_expr", t->cost_flops.text()},
                       {"bytes_expr", t->cost_bytes.text()},
                       {"precision", t->uses_double() ? "fp64" : "fp32"},
                       {"score_config", measured_cfg ? json(measured_cfg->name) : json(nullptr)},
                       {"configs", rows}};
  } else {
    rep["roofline"] = nullptr;
    if (o.measured_ms) warnings.push_back("--time-ms needs --task: the roofline comes from the task's cost model");
  }

  // PTX.
  auto mod = parse_ptx(ptx_text);
  bool ptx_ok = mod.ok();
  if (!ptx_ok)
    for (const auto& d : mod.errors()) warnings.push_back("PTX: " + d.to_string());
  bool dyn_smem = ptx_text.find(".extern .shared") != std::string::npos;
  // Launch shapes written in the host code of the same file.
  const std::vector<LaunchSite> launch_sites = scan_launches(read_file(cu).value_or(""));

  // Kernels in PTX (source) order; ptxas lists them in its own order.
  std::vector<const compile::KernelResources*> order;
  if (ptx_ok)
    for (const auto& pk : mod->kernels)
      for (const auto& res : resources)
        if (res.mangled == pk.name) order.push_back(&res);
  for (const auto& res : resources)
    if (std::find(order.begin(), order.end(), &res) == order.end()) order.push_back(&res);
  json kernels = json::array();
  for (const auto* res : order) {
    const PtxKernel* k = nullptr;
    if (ptx_ok)
      for (const auto& pk : mod->kernels)
        if (pk.name == res->mangled) k = &pk;
    kernels.push_back(analyze_kernel(*res, k, ptx_ok, o, tc, dyn_smem, launch_sites));
  }
  if (kernels.empty()) warnings.push_back("no __global__ kernels in the file");
  rep["kernels"] = kernels;
  rep["warnings"] = warnings;
  rep["dynamic"] = {{"requested", o.dynamic}, {"available", false}, {"reason", o.dynamic ? "not run" : "not requested"}};
  return rep;
}

}  // namespace cudaperf::analysis
