#include "cudaperf/analysis/dynamic.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <sstream>

#include "cudaperf/analysis/report.hpp"
#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/verify/cpu_gates.hpp"

namespace cudaperf::analysis {

namespace fs = std::filesystem;
using nlohmann::json;

const std::vector<std::string>& ncu_metrics() {
  static const std::vector<std::string> m = {
      "gpu__time_duration.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "sm__maximum_warps_per_active_cycle_pct",
      "launch__block_size",
      "launch__grid_size",
      "launch__registers_per_thread",
      "launch__shared_mem_per_block_static",
      "launch__shared_mem_per_block_dynamic",
      "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
  };
  return m;
}

namespace {

// One CSV record (RFC 4180 quoting; ncu quotes every field).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(cur));
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(std::move(cur));
  return out;
}

std::optional<double> number(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  if (s.empty() || s == "n/a") return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return std::nullopt;
  return v;
}

}  // namespace

Result<std::vector<NcuLaunch>> parse_ncu_csv(const std::string& text) {
  size_t start = text.find("\"ID\",");
  if (start == std::string::npos) return Diagnostic{"ncu", 0, 0, "no CSV table in ncu's output (no kernel was profiled?)"};
  std::istringstream in(text.substr(start));
  std::string line;
  std::getline(in, line);
  auto header = split_csv(line);
  auto col = [&](const char* name) -> int {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  int c_id = col("ID"), c_pid = col("Process ID"), c_stream = col("Stream"), c_kernel = col("Kernel Name"),
      c_metric = col("Metric Name"), c_value = col("Metric Value");
  if (c_id < 0 || c_kernel < 0 || c_metric < 0 || c_value < 0)
    return Diagnostic{"ncu", 0, 0, "ncu CSV lacks the ID / Kernel Name / Metric Name / Metric Value columns"};
  std::vector<NcuLaunch> launches;
  std::map<std::string, size_t> by_id;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '"') continue;  // profiler messages interleaved with the table
    auto f = split_csv(line);
    if (f.size() < header.size()) continue;
    auto [it, fresh] = by_id.emplace(f[c_id], launches.size());
    if (fresh) {
      NcuLaunch l;
      l.id = f[c_id];
      l.process = c_pid >= 0 ? f[c_pid] : "";
      l.stream = c_stream >= 0 ? f[c_stream] : "";
      l.kernel = f[c_kernel];
      launches.push_back(std::move(l));
    }
    if (auto v = number(f[c_value])) launches[it->second].values[f[c_metric]] = *v;
  }
  return launches;
}

std::string kernel_base_name(const std::string& demangled) {
  std::string s = demangled;
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  // c++filt and ncu spell these differently
  for (auto [from, to] : {std::pair<std::string, std::string>{"(anonymous namespace)", "<unnamed>"}, {"<true>", "<1>"}, {"<false>", "<0>"}})
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  // cut at the parameter list: the first '(' outside template brackets
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    else if (s[i] == '>') --depth;
    else if (s[i] == '(' && depth == 0) return s.substr(0, i);
  }
  return s;
}

json derive_kernel_metrics(const std::vector<const NcuLaunch*>& launches) {
  std::map<std::string, double> sum, count;
  for (const auto* l : launches)
    for (const auto& [k, v] : l->values) {
      sum[k] += v;
      count[k] += 1;
    }
  auto total = [&](const std::string& k) -> std::optional<double> {
    auto it = sum.find(k);
    return it == sum.end() ? std::nullopt : std::optional<double>(it->second);
  };
  auto mean = [&](const std::string& k) -> json {
    auto it = sum.find(k);
    return it == sum.end() ? json(nullptr) : json(it->second / count[k]);
  };
  auto ratio = [&](const std::string& a, const std::string& b) -> json {
    auto x = total(a), y = total(b);
    return x && y && *y > 0 ? json(*x / *y) : json(nullptr);
  };
  auto flops = [&](const char* add, const char* mul, const char* fma) -> json {
    auto p = [&](const char* op) { return total(fmt::format("smsp__sass_thread_inst_executed_op_{}_pred_on.sum", op)); };
    auto a = p(add), m = p(mul), f = p(fma);
    if (!a && !m && !f) return nullptr;
    return a.value_or(0) + m.value_or(0) + 2 * f.value_or(0);
  };
  json j;
  j["launches"] = launches.size();
  j["time_ms"] = total("gpu__time_duration.sum") ? json(*total("gpu__time_duration.sum") * 1e-6) : json(nullptr);
  j["sectors_per_request_ld"] = ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  j["sectors_per_request_st"] = ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  j["global_requests_ld"] = total("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") ? json(*total("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")) : json(nullptr);
  j["global_requests_st"] = total("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") ? json(*total("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")) : json(nullptr);
  j["bytes_per_sector_pct_ld"] = mean("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  j["bytes_per_sector_pct_st"] = mean("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct");
  j["achieved_occupancy_pct"] = mean("sm__warps_active.avg.pct_of_peak_sustained_active");
  j["theoretical_occupancy_pct"] = mean("sm__maximum_warps_per_active_cycle_pct");
  j["block_size"] = mean("launch__block_size");
  j["grid_size"] = mean("launch__grid_size");
  j["registers_per_thread"] = mean("launch__registers_per_thread");
  j["shared_static_bytes"] = mean("launch__shared_mem_per_block_static");
  j["shared_dynamic_bytes"] = mean("launch__shared_mem_per_block_dynamic");
  j["flops_fp32"] = flops("fadd", "fmul", "ffma");
  j["flops_fp64"] = flops("dadd", "dmul", "dfma");
  j["flops_fp16"] = flops("hadd", "hmul", "hfma");
  auto rd = total("dram__bytes_read.sum"), wr = total("dram__bytes_write.sum");
  j["dram_bytes"] = rd || wr ? json(rd.value_or(0) + wr.value_or(0)) : json(nullptr);
  j["bank_conflicts_ld"] = total("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") ? json(*total("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")) : json(nullptr);
  j["bank_conflicts_st"] = total("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") ? json(*total("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")) : json(nullptr);
  j["barrier_stall_pct"] = mean("smsp__warp_issue_stalled_barrier_per_warp_active.pct");
  return j;
}

const task::Config* profile_config(const task::Task& t, const std::string& name) {
  const task::Config* best = nullptr;
  double best_bytes = -1;
  for (const auto& c : t.configs) {
    if (!name.empty()) {
      if (c.name == name) return &c;
      continue;
    }
    if (c.perf) continue;
    auto rl = task::roofline(t, c);
    double b = std::holds_alternative<task::Roofline>(rl) ? std::get<task::Roofline>(rl).bytes : 0;
    if (b > best_bytes) best = &c, best_bytes = b;
  }
  return best;
}

int run_profile_target(const std::vector<ProfileItem>& items, const std::string& config, std::ostream& out) {
  int failures = 0;
  for (const auto& it : items) {
    const task::Task& t = it.task;
    json line = {{"task", t.id}, {"impl", it.impl}};
    auto finish = [&](const std::string& status, const std::string& message) {
      line["status"] = status;
      if (!message.empty()) line["message"] = message;
      out << line.dump() << "\n" << std::flush;
      failures += status != "ok";
    };
    const task::Config* c = profile_config(t, config);
    if (!c) {
      finish("usage", config.empty() ? "the task has no non-perf config" : "no config '" + config + "'");
      continue;
    }
    line["config"] = c->name;
    if (auto rl = task::roofline(t, *c); auto* v = std::get_if<task::Roofline>(&rl)) {
      line["cost_flops"] = v->flops;
      line["cost_bytes"] = v->bytes;
    }
    auto call = verify::make_call(t, *c, 0x5eed, task::Prefill::Nan);
    if (!call) {
      finish("usage", call.errors().front().message);
      continue;
    }
    void* h = dlopen(it.so.c_str(), RTLD_NOW | RTLD_LOCAL);
    void* fn = h ? dlsym(h, t.function.c_str()) : nullptr;
    if (!fn) {
      finish("load_error", h ? "no symbol " + t.function : dlerror());
      continue;
    }
    std::vector<void*> ptrs(t.params.size(), nullptr);
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < t.params.size() && e == cudaSuccess; ++i) {
      if (!t.params[i].pointer) continue;
      auto& b = call->buffers[i];
      e = cudaMalloc(&ptrs[i], std::max<size_t>(b.size(), 1));
      if (e == cudaSuccess) e = cudaMemcpy(ptrs[i], b.data(), b.size(), cudaMemcpyHostToDevice);
    }
    cudaStream_t s{};
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    unsigned long long sid = 0;
    if (e == cudaSuccess) e = cudaStreamGetId(s, &sid);
    if (e == cudaSuccess) {
      line["stream_id"] = sid;
      verify::invoke(fn, t, ptrs, call->shape, static_cast<void*>(s));
      e = cudaStreamSynchronize(s);
      if (e == cudaSuccess) e = cudaGetLastError();
    }
    if (s) cudaStreamDestroy(s);
    for (void* p : ptrs)
      if (p) cudaFree(p);
    finish(e == cudaSuccess ? "ok" : "runtime_error", e == cudaSuccess ? "" : cudaGetErrorString(e));
    if (e != cudaSuccess && e != cudaErrorInvalidValue) break;  // the context is likely unusable
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace cudaperf::analysis

namespace cudaperf::analysis {

namespace {

std::string ncu_path() {
  if (const char* e = std::getenv("CUDAPERF_NCU"); e && *e) return e;
  for (const char* p : {"/usr/local/cuda/bin/ncu", "/usr/bin/ncu"})
    if (fs::exists(p)) return p;
  return "ncu";
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

}  // namespace

Result<json> dynamic_metrics(const fs::path& cu, const json& static_report, const AnalyzeOptions& o) {
  if (o.task_id.empty())
    return Diagnostic{cu.string(), 0, 0, "--dynamic needs --task: the kernels are run on that task's inputs"};
  fs::path root = o.task_root.empty() ? fs::path("data/tasks") : o.task_root;
  auto dir = task::find_task_by_id(root, o.task_id);
  if (!dir) return Diagnostic{cu.string(), 0, 0, fmt::format("no task '{}' under {}", o.task_id, root.string())};
  auto t = task::load_task(*dir);
  if (!t) return t.errors();
  // Only code that passes the link allowlist runs, even here.
  auto build = compile::build_candidate(t.value(), cu);
  if (!build.artifact.ok) return Diagnostic{cu.string(), 0, 0, "does not build: " + build.artifact.diagnostics};
  if (!build.link.ok()) return Diagnostic{cu.string(), 0, 0, "link check failed, not run: " + build.link.message()};
  std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> argv = {ncu_path(), "--clock-control", "none", "--cache-control", "all",
                                   "--target-processes", "application-only", "--csv", "--print-units", "base",
                                   "--metrics", join(ncu_metrics(), ","), self, "profile-target",
                                   "--root", root.string(), "--task", o.task_id, "--candidate", cu.string()};
  // The timed (first perf) configuration unless --config names another.
  std::string config = o.config;
  if (config.empty())
    for (const auto& c : t->configs)
      if (c.perf) {
        config = c.name;
        break;
      }
  if (!config.empty()) argv.insert(argv.end(), {"--config", config});
  auto pr = sandbox::run_process(argv, std::chrono::seconds(600), 64 << 20);
  if (pr.spawn_failed) return Diagnostic{cu.string(), 0, 0, "cannot run Nsight Compute (" + argv[0] + "); set CUDAPERF_NCU"};
  auto launches = parse_ncu_csv(pr.output);
  if (!launches) {
    std::string tail = pr.output.size() > 600 ? pr.output.substr(pr.output.size() - 600) : pr.output;
    return Diagnostic{cu.string(), 0, 0, fmt::format("ncu ({}): {}\n{}", pr.describe(), launches.errors().front().message, tail)};
  }
  std::map<std::string, std::vector<const NcuLaunch*>> by_kernel;
  for (const auto& l : launches.value()) by_kernel[kernel_base_name(l.kernel)].push_back(&l);
  const task::Config* run_config = profile_config(t.value(), config);
  json out = {{"source", "measured: Nsight Compute (--clock-control none --cache-control all), one call of the "
                         "candidate at the task config below, in `cudaperf profile-target`"},
              {"config", run_config ? run_config->name : config},
              {"kernels", json::array()}};
  std::set<std::string> matched;
  for (const auto& k : static_report.value("kernels", json::array())) {
    std::string base = kernel_base_name(k.value("name", ""));
    json entry = {{"name", k.value("name", "")}};
    if (auto it = by_kernel.find(base); it != by_kernel.end()) {
      entry["metrics"] = derive_kernel_metrics(it->second);
      matched.insert(base);
    } else {
      entry["metrics"] = nullptr;
      entry["note"] = "not launched at this config";
    }
    out["kernels"].push_back(entry);
  }
  for (const auto& [base, ls] : by_kernel)
    if (!matched.count(base)) out["kernels"].push_back({{"name", base}, {"metrics", derive_kernel_metrics(ls)},
                                                        {"note", "launched but not found in the static report"}});
  return out;
}

}  // namespace cudaperf::analysis
