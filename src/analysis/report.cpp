// The structural report behind `cudaperf analyze` (formulas: docs/analysis.md).
#include "cudaperf/analysis/report.hpp"
#include "cudaperf/util/file.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "cudaperf/analysis/launch_scan.hpp"
#include "cudaperf/analysis/occupancy.hpp"
#include "cudaperf/analysis/ptx.hpp"
#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::analysis {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
int total(const std::map<std::string, int>& by_op) {  // e.g. every global atomic, whatever its op
  int n = 0;
  for (const auto& [op, count] : by_op) n += count;
  return n;
}
}  // namespace

// ------------------------------------------------------------------------------------------------
// Roofline.

RooflinePoint roofline_point(double flops, double bytes, const DevicePeaks& peaks, bool fp64,
                             std::optional<double> measured_s) {
  RooflinePoint p;
  p.flops = flops;
  p.bytes = bytes;
  if (bytes > 0) p.intensity = flops / bytes;
  const double t_mem = bytes / peaks.bandwidth_bytes_per_s;
  const double t_fp = flops / peaks.flops_per_s(fp64);
  p.floor_s = std::max(t_mem, t_fp);
  p.bound = t_fp > t_mem ? "compute" : "memory";
  if (measured_s && *measured_s > 0) {
    p.measured_s = measured_s;
    p.fraction = p.floor_s / *measured_s;
  }
  return p;
}

Result<RooflinePoint> task_roofline(const task::Task& t, const task::Config& c, const DevicePeaks& peaks,
                                    std::optional<double> measured_s) {
  auto f = t.cost_flops.eval(c.sizes);
  if (auto* m = std::get_if<std::string>(&f)) return Diagnostic{t.id, 0, 0, fmt::format("config '{}': cost flops: {}", c.name, *m)};
  auto b = t.cost_bytes.eval(c.sizes);
  if (auto* m = std::get_if<std::string>(&b)) return Diagnostic{t.id, 0, 0, fmt::format("config '{}': cost bytes: {}", c.name, *m)};
  return roofline_point(static_cast<double>(std::get<int64_t>(f)), static_cast<double>(std::get<int64_t>(b)), peaks,
                        t.uses_double(), measured_s);
}

// ------------------------------------------------------------------------------------------------
// Scores.

CoalescingSummary coalescing_score(const std::vector<GlobalAccess>& accesses) {
  CoalescingSummary s;
  double sum = 0;
  for (const auto& a : accesses) {
    if (a.sectors <= 0 || a.ideal_sectors <= 0) {
      ++s.unknown;
      continue;
    }
    ++s.known;
    sum += std::min(1.0, static_cast<double>(a.ideal_sectors) / a.sectors);
  }
  if (s.known > 0) s.score = sum / s.known;
  return s;
}

double counted_flops(const Census& c) {
  return c.fp32_add + c.fp32_mul + 2.0 * c.fp32_fma + c.fp64_add + c.fp64_mul + 2.0 * c.fp64_fma + c.fp16;
}

double counted_global_bytes(const Census& c) {
  double b = 0;
  for (const auto* m : {&c.ld_global, &c.st_global})
    for (const auto& [width, count] : *m) b += static_cast<double>(width) * count;
  return b;
}

IntensitySummary intensity_score(const Census& c, const DevicePeaks& peaks, bool fp64,
                                 std::optional<double> task_intensity) {
  IntensitySummary s;
  s.flops = counted_flops(c);
  s.bytes = counted_global_bytes(c);
  if (s.bytes > 0) s.counted = s.flops / s.bytes;
  s.target = peaks.ridge(fp64);
  s.target_source = "ridge";
  if (task_intensity && *task_intensity < s.target) {
    s.target = *task_intensity;
    s.target_source = "task";
  }
  if (s.counted && s.target > 0) s.score = std::min(1.0, *s.counted / s.target);
  return s;
}

SyncSummary sync_score(const Census& c) {
  SyncSummary s;
  if (c.barriers_divergent > 0) {
    s.penalties.push_back({fmt::format("{} barrier(s) under a thread-dependent branch: threads that skip it deadlock "
                                       "the block or make its behaviour undefined",
                                       c.barriers_divergent),
                           1.0});
  }
  const int global_atomics = total(c.atomics_global);
  if (global_atomics > 0)
    s.penalties.push_back({fmt::format("{} global atomic instruction(s): they serialise when many threads hit one "
                                       "address (reduce per block first, one atomic per block)",
                                       global_atomics),
                           std::min(0.3, 0.1 * global_atomics)});
  if (c.fences > 0)
    s.penalties.push_back({fmt::format("{} memory fence(s): each waits for outstanding memory operations", c.fences),
                           std::min(0.2, 0.05 * c.fences)});
  double total = 0;
  for (const auto& p : s.penalties) total += p.amount;
  s.score = std::max(0.0, 1.0 - total);
  return s;
}

// ------------------------------------------------------------------------------------------------
// The analyze verb.

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json limit_json(int v) { return v == kUnlimited ? json(nullptr) : json(v); }

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string quote_cmd(const std::vector<std::string>& argv) {
  std::vector<std::string> q;
  for (const auto& a : argv) q.push_back(a.find(' ') == std::string::npos ? a : "'" + a + "'");
  return join(q, " ");
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

std::string pct(double f) { return fmt::format("{:.0f} %", 100 * f); }

std::string where(int src_line, int ptx_line) {
  return src_line > 0 ? fmt::format("line {}", src_line) : fmt::format("PTX line {}", ptx_line);
}

// The most registers per thread that would let more blocks fit, and how many the register limit
// then allows ({0, 0} when no count would).
std::pair<int, int> registers_for_next_block(const OccupancyInput& in, const Occupancy& o) {
  for (int r = in.registers_per_thread - 1; r > 0; --r) {
    OccupancyInput x = in;
    x.registers_per_thread = r;
    int b = occupancy_sm90(x).by_registers;
    if (b > o.blocks_per_sm) return {r, b};
  }
  return {0, 0};
}

std::string limiter_detail(const std::string& lim, const OccupancyInput& in, const Occupancy& o) {
  if (lim == "registers") {
    std::string s = fmt::format("registers ({} per thread)", in.registers_per_thread);
    if (o.blocks_per_sm > 0) {
      auto [r, b] = registers_for_next_block(in, o);
      if (r > 0) s += fmt::format("; at most {} would let registers allow {} blocks", r, b);
    }
    return s;
  }
  if (lim == "shared_memory")
    return fmt::format("shared memory ({} B per block with the 1 KB reserved, of 228 KB per SM)", o.shared_bytes_per_block);
  if (lim == "warps")
    return fmt::format("warps ({}-thread blocks take {} warp slots each, of 64)", in.block_size, o.warps_per_block);
  if (lim == "blocks")
    return fmt::format("blocks (32 resident blocks per SM; {}-thread blocks are too small to fill 64 warps)", in.block_size);
  if (lim == "barriers") return fmt::format("barriers ({} named barriers per block)", in.barriers);
  return lim;
}

json access_json(const GlobalAccess& a) {
  json j = {{"ptx_line", a.ptx_line},
            {"src_line", a.src_line},
            {"kind", a.store ? "store" : "load"},
            {"width_bytes", a.width_bytes},
            {"stride_bytes", a.stride_bytes ? json(*a.stride_bytes) : json(nullptr)},
            {"sectors", a.sectors > 0 ? json(a.sectors) : json(nullptr)},
            {"ideal_sectors", a.ideal_sectors},
            {"note", a.note}};
  if (a.sectors > 0 && a.ideal_sectors > 0)
    j["efficiency"] = std::min(1.0, static_cast<double>(a.ideal_sectors) / a.sectors);
  else
    j["efficiency"] = nullptr;
  return j;
}

json census_json(const Census& c) {
  auto widths = [](const std::map<int, int>& m) {
    json j = json::object();
    for (const auto& [w, n] : m) j[std::to_string(w)] = n;
    return j;
  };
  return {{"fp32", {{"add", c.fp32_add}, {"mul", c.fp32_mul}, {"fma", c.fp32_fma}, {"other", c.fp32_other}}},
          {"fp64", {{"add", c.fp64_add}, {"mul", c.fp64_mul}, {"fma", c.fp64_fma}, {"other", c.fp64_other}}},
          {"fp16", c.fp16},
          {"tensor", c.tensor},
          {"ld_global", widths(c.ld_global)},
          {"st_global", widths(c.st_global)},
          {"ld_shared", widths(c.ld_shared)},
          {"st_shared", widths(c.st_shared)},
          {"ld_local", widths(c.ld_local)},
          {"st_local", widths(c.st_local)},
          {"ld_param", c.ld_param},
          {"ld_const", c.ld_const},
          {"barriers", c.barriers},
          {"barriers_divergent", c.barriers_divergent},
          {"atomics_global", c.atomics_global},
          {"atomics_shared", c.atomics_shared},
          {"shuffles", c.shuffles},
          {"votes", c.votes},
          {"fences", c.fences},
          {"async_copies", c.async_copies}};
}

struct TaskContext {
  const task::Task* task = nullptr;
  std::optional<double> intensity;  // of the config the score uses
};

json analyze_kernel(const compile::KernelResources& res, const PtxKernel* k, bool ptx_ok, const AnalyzeOptions& o,
                    const TaskContext& tc, bool module_uses_dynamic_smem, const std::vector<LaunchSite>& launch_sites) {
  json j;
  j["name"] = res.name;
  j["mangled"] = res.mangled;
  j["resources"] = {{"source", "static (ptxas -v)"},
                    {"registers", res.registers},
                    {"barriers", res.barriers},
                    {"shared_static_bytes", res.shared_static},
                    {"stack_frame_bytes", res.stack_frame},
                    {"spill_store_bytes", res.spill_stores},
                    {"spill_load_bytes", res.spill_loads}};
  json findings = json::array();
  // Identical findings (an unrolled loop repeats its accesses) are listed once, with a count.
  auto add_finding = [&](int line, const std::string& kind, const std::string& msg) {
    for (auto& f : findings)
      if (f["message"] == msg && f["kind"] == kind) {
        f["count"] = f["count"].get<int>() + 1;
        return;
      }
    findings.push_back({{"src_line", line}, {"kind", kind}, {"message", msg}, {"count", 1}});
  };

  // Launch shape: __launch_bounds__, else --block-size, else the host launch code, else assumed.
  const KernelLaunchShape scan = launch_shape_for(launch_sites, res.name);
  OccupancyInput in;
  std::string block_source;
  if (k && k->reqntid > 0) {
    in.block_size = k->reqntid;
    block_source = "reqntid";
  } else if (k && k->maxntid > 0) {
    in.block_size = k->maxntid;
    block_source = "maxntid";
  } else if (o.block_size > 0) {
    in.block_size = o.block_size;
    block_source = "option";
  } else if (scan.block_size && *scan.block_size > 0 && *scan.block_size <= (1 << 30)) {
    in.block_size = static_cast<int>(*scan.block_size);
    block_source = "launch";
  } else {
    in.block_size = 256;
    block_source = "assumed";
  }
  in.registers_per_thread = res.registers;
  in.shared_static_bytes = res.shared_static;
  std::string smem_source;
  if (o.dynamic_smem >= 0) {
    in.shared_dynamic_bytes = o.dynamic_smem;
    smem_source = "option";
  } else if (scan.dynamic_smem && *scan.dynamic_smem >= 0 && *scan.dynamic_smem <= (1 << 30)) {
    in.shared_dynamic_bytes = static_cast<int>(*scan.dynamic_smem);
    smem_source = "launch";
  } else {
    in.shared_dynamic_bytes = 0;
    smem_source = "assumed";
  }
  in.barriers = res.barriers;
  j["launch"] = {{"block_size", in.block_size},
                 {"block_size_source", block_source},
                 {"dynamic_shared_bytes", in.shared_dynamic_bytes},
                 {"dynamic_shared_source", smem_source}};
  json sites = json::array();
  for (const auto* s : scan.sites) {
    auto value = [](const LaunchValue& v) { return v.known() ? json(v.values[0]) : json(nullptr); };
    json site = {{"line", s->line},
                 {"kernel", s->kernel},
                 {"block_expr", s->block.expr},
                 {"block_size", value(s->block)},
                 {"dynamic_shared_expr", s->dynamic_smem.expr},
                 {"dynamic_shared_bytes", value(s->dynamic_smem)}};
    if (!s->block.known()) site["block_note"] = s->block.why;
    if (!s->dynamic_smem.known()) site["dynamic_shared_note"] = s->dynamic_smem.why;
    sites.push_back(site);
  }
  j["launch_scan"] = {{"source", "static (host launch code in the .cu file)"},
                      {"block_size", scan.block_size ? json(*scan.block_size) : json(nullptr)},
                      {"block_note", scan.block_note},
                      {"dynamic_shared_bytes", scan.dynamic_smem ? json(*scan.dynamic_smem) : json(nullptr)},
                      {"dynamic_shared_note", scan.smem_note},
                      {"sites", sites}};
  if (block_source == "assumed")
    add_finding(0, "assumption",
                fmt::format("block size assumed to be 256 threads (no __launch_bounds__ / .maxntid, and the host code "
                            "does not give it: {}; give --block-size for the real one)",
                            scan.block_size ? fmt::format("it gives {}, not a block size", *scan.block_size)
                                            : scan.block_note));
  if ((block_source == "maxntid" || block_source == "reqntid") && scan.block_size &&
      *scan.block_size != in.block_size) {
    bool fails = block_source == "reqntid" || *scan.block_size > in.block_size;
    add_finding(0, "launch",
                fmt::format("the host code launches {} threads per block but .{} is {}{}", *scan.block_size,
                            block_source, in.block_size,
                            fails ? ": that launch fails"
                                  : " (occupancy above uses the bound; at the launch's size it may differ)"));
  }
  if (module_uses_dynamic_smem && smem_source == "assumed")
    add_finding(0, "assumption",
                fmt::format("the module declares extern (dynamic) shared memory; its size is a launch parameter, "
                            "assumed 0 B (the host code does not give it: {}; give --dynamic-smem)",
                            scan.dynamic_smem ? fmt::format("it gives {} B", *scan.dynamic_smem) : scan.smem_note));

  // Occupancy.
  Occupancy occ = occupancy_sm90(in);
  j["occupancy"] = {{"source", "static (sm_90 rules, ptxas resources, launch shape above)"},
                    {"blocks_per_sm", occ.blocks_per_sm},
                    {"warps_per_block", occ.warps_per_block},
                    {"active_warps", occ.active_warps},
                    {"max_warps", occ.max_warps},
                    {"fraction", occ.fraction},
                    {"limiter", occ.limiter},
                    {"limiters", occ.limiters},
                    {"limits",
                     {{"registers", limit_json(occ.by_registers)},
                      {"shared_memory", limit_json(occ.by_shared_memory)},
                      {"warps", limit_json(occ.by_warps)},
                      {"blocks", limit_json(occ.by_blocks)},
                      {"barriers", limit_json(occ.by_barriers)}}},
                    {"registers_per_block", occ.registers_per_block},
                    {"shared_bytes_per_block", occ.shared_bytes_per_block},
                    {"why_impossible", occ.why_impossible}};
  if (occ.blocks_per_sm == 0) {
    add_finding(0, "occupancy", fmt::format("launch impossible with {} threads per block: {}", in.block_size,
                                            occ.why_impossible));
  } else if (occ.fraction < 1.0) {
    std::vector<std::string> parts;
    for (const auto& l : occ.limiters) parts.push_back(limiter_detail(l, in, occ));
    add_finding(0, "occupancy",
                fmt::format("occupancy {}: limited by {}", pct(occ.fraction), join(parts, " and ")));
  }
  if (res.spill_stores + res.spill_loads > 0)
    add_finding(0, "spills",
                fmt::format("ptxas spills registers to local memory ({} B stores, {} B loads per thread): lower register "
                            "pressure or relax __launch_bounds__",
                            res.spill_stores, res.spill_loads));

  // PTX-based features.
  Census cen;
  std::vector<GlobalAccess> acc;
  std::string ptx_note;
  if (!ptx_ok) {
    ptx_note = "the PTX could not be parsed: coalescing, census and sync are unknown";
  } else if (!k) {
    ptx_note = "kernel not found in the PTX: coalescing, census and sync are unknown";
  } else {
    try {
      cen = census(*k);
      acc = coalescing(*k);
    } catch (const std::exception& e) {
      ptx_note = fmt::format("PTX analysis failed: {}", e.what());
    }
  }
  j["census"] = census_json(cen);
  if (!ptx_note.empty()) j["ptx_note"] = ptx_note;

  CoalescingSummary cs = coalescing_score(acc);
  json accesses = json::array();
  for (const auto& a : acc) {
    accesses.push_back(access_json(a));
    const char* kind = a.store ? "store" : "load";
    if (a.sectors > 0 && a.ideal_sectors > 0 && a.sectors > a.ideal_sectors) {
      std::string stride = a.stride_bytes ? fmt::format("strides {} bytes across threads", *a.stride_bytes)
                                          : std::string("has an irregular pattern across threads");
      add_finding(a.src_line, "coalescing",
                  fmt::format("{} at {} {}: {} sectors per request, ideal {}", kind, where(a.src_line, a.ptx_line),
                              stride, a.sectors, a.ideal_sectors));
    } else if (a.sectors <= 0) {
      add_finding(a.src_line, "coalescing_unknown",
                  fmt::format("{} at {}: stride across threads unknown{}", kind, where(a.src_line, a.ptx_line),
                              a.note.empty() ? "" : " (" + a.note + ")"));
    }
  }
  j["coalescing"] = {{"source", "static (PTX address analysis)"},
                     {"known", cs.known},
                     {"unknown", cs.unknown},
                     {"accesses", accesses}};

  bool fp64 = tc.task ? tc.task->uses_double()
                      : (cen.fp64_add + cen.fp64_mul + cen.fp64_fma > cen.fp32_add + cen.fp32_mul + cen.fp32_fma);
  IntensitySummary is = intensity_score(cen, o.peaks, fp64, tc.intensity);
  j["intensity"] = {{"source", "static (instruction counts in the PTX, each instruction once)"},
                    {"counted_flops", is.flops},
                    {"counted_global_bytes", is.bytes},
                    {"counted_intensity", opt(is.counted)},
                    {"target", is.target},
                    {"target_source", is.target_source},
                    {"precision", fp64 ? "fp64" : "fp32"}};
  if (cen.tensor > 0)
    add_finding(0, "intensity", fmt::format("{} tensor-core instruction(s) are not in the counted FLOPs", cen.tensor));
  if (is.score && *is.score < 0.5 && is.target_source == "task")
    add_finding(0, "intensity",
                fmt::format("counted intensity {:.3g} FLOP/B is under half the task's {:.3g} FLOP/B: the kernel moves more "
                            "global bytes per FLOP than the task needs (reuse loaded data from registers or shared memory)",
                            *is.counted, is.target));

  SyncSummary ss = sync_score(cen);
  json pen = json::array();
  for (const auto& p : ss.penalties) pen.push_back({{"reason", p.reason}, {"amount", p.amount}});
  j["sync"] = {{"source", "static (PTX)"},
               {"barriers", cen.barriers},
               {"barriers_divergent", cen.barriers_divergent},
               {"atomics_global", total(cen.atomics_global)},
               {"atomics_shared", total(cen.atomics_shared)},
               {"shuffles", cen.shuffles},
               {"votes", cen.votes},
               {"fences", cen.fences},
               {"async_copies", cen.async_copies},
               {"penalties", pen}};
  bool census_named_divergence = false;
  for (const auto& f : cen.findings) {
    add_finding(f.src_line, f.kind, f.message);
    if (f.kind.find("divergent") != std::string::npos) census_named_divergence = true;
  }
  for (const auto& p : ss.penalties)
    if (p.amount < 1.0 || !census_named_divergence) add_finding(0, "sync", p.reason);

  bool known_ptx = ptx_note.empty();
  j["scores"] = {{"coalescing", opt(cs.score)},
                 {"occupancy", occ.fraction},
                 {"intensity", opt(is.score)},
                 {"sync", known_ptx ? json(ss.score) : json(nullptr)}};
  j["findings"] = findings;
  return j;
}

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

// ------------------------------------------------------------------------------------------------
// Text.

namespace {

std::string num(const json& v, const char* f = "{:.2f}") {
  if (v.is_null()) return "n/a";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return fmt::format(fmt::runtime(f), v.get<double>());
}

}  // namespace

std::string render_text(const json& r) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  line(fmt::format("file:   {}", r.value("file", "")));
  if (!r["task"].is_null()) line(fmt::format("task:   {}", r["task"].get<std::string>()));
  line("arch:   sm_90 (H100/H200 limits)");
  line(fmt::format("values: static (no GPU used); measured: {}",
                   r["provenance"]["measured"].get<std::string>()));
  const auto& pk = r["peaks"];
  line(fmt::format("peaks:  {:.2g} B/s, {:.2g} FLOP/s fp32, {:.2g} FLOP/s fp64 ({}); ridge {:.1f} FLOP/B fp32",
                   pk["bandwidth_bytes_per_s"].get<double>(), pk["fp32_flops_per_s"].get<double>(),
                   pk["fp64_flops_per_s"].get<double>(), pk["measured"].get<bool>() ? "measured" : "defaults, not measured",
                   pk["ridge_fp32"].get<double>()));
  for (const auto& k : r["kernels"]) {
    line("");
    line(fmt::format("kernel {}", k["name"].get<std::string>()));
    const auto& rs = k["resources"];
    line(fmt::format("  resources (ptxas)  {} regs/thread, {} B static smem, {} barriers, {} B stack, {} B spill stores, "
                     "{} B spill loads",
                     rs["registers"].get<int>(), rs["shared_static_bytes"].get<int>(), rs["barriers"].get<int>(),
                     rs["stack_frame_bytes"].get<int>(), rs["spill_store_bytes"].get<int>(),
                     rs["spill_load_bytes"].get<int>()));
    const auto& la = k["launch"];
    line(fmt::format("  launch             {} threads/block ({}), {} B dynamic smem ({})", la["block_size"].get<int>(),
                     la["block_size_source"].get<std::string>(), la["dynamic_shared_bytes"].get<int>(),
                     la["dynamic_shared_source"].get<std::string>()));
    line(fmt::format("  {:<12} {:>6}  {}", "feature", "score", "raw (all static)"));
    const auto& sc = k["scores"];
    const auto& co = k["coalescing"];
    line(fmt::format("  {:<12} {:>6}  {} known global access(es), {} unknown", "coalescing", num(sc["coalescing"]),
                     co["known"].get<int>(), co["unknown"].get<int>()));
    const auto& oc = k["occupancy"];
    line(fmt::format("  {:<12} {:>6}  {}/{} warps, {} blocks/SM, {} {}", "occupancy", num(sc["occupancy"]),
                     oc["active_warps"].get<int>(), oc["max_warps"].get<int>(), oc["blocks_per_sm"].get<int>(),
                     oc["fraction"].get<double>() >= 1.0 ? "full; bound by" : "limited by",
                     join(oc["limiters"].get<std::vector<std::string>>(), " and ")));
    const auto& in = k["intensity"];
    line(fmt::format("  {:<12} {:>6}  counted {} FLOP / {} B = {} FLOP/B, target {} FLOP/B ({})", "intensity",
                     num(sc["intensity"]), num(in["counted_flops"], "{:.0f}"), num(in["counted_global_bytes"], "{:.0f}"),
                     num(in["counted_intensity"], "{:.3g}"), num(in["target"], "{:.3g}"),
                     in["target_source"].get<std::string>()));
    const auto& sy = k["sync"];
    line(fmt::format("  {:<12} {:>6}  {} barriers ({} divergent), {} global / {} shared atomics, {} shuffles, {} fences",
                     "sync", num(sc["sync"]), sy["barriers"].get<int>(), sy["barriers_divergent"].get<int>(),
                     sy["atomics_global"].get<int>(), sy["atomics_shared"].get<int>(), sy["shuffles"].get<int>(),
                     sy["fences"].get<int>()));
    if (k.contains("ptx_note")) line(fmt::format("  note: {}", k["ptx_note"].get<std::string>()));
    if (!k["findings"].empty()) {
      line("  findings:");
      for (const auto& f : k["findings"]) {
        int n = f.value("count", 1);
        line(fmt::format("    - {}{}", f["message"].get<std::string>(), n > 1 ? fmt::format(" (x{})", n) : ""));
      }
    }
  }
  if (!r["roofline"].is_null()) {
    const auto& rl = r["roofline"];
    line("");
    line(fmt::format("roofline (static: cost flops = {}, bytes = {}, {}; over the peaks above)",
                     rl["flops_expr"].get<std::string>(), rl["bytes_expr"].get<std::string>(),
                     rl["precision"].get<std::string>()));
    line(fmt::format("  {:<14} {:>12} {:>12} {:>9} {:>11} {:>8} {:>12} {:>9}", "config", "FLOP", "bytes", "FLOP/B",
                     "floor ms", "bound", "measured ms", "fraction"));
    for (const auto& c : rl["configs"])
      line(fmt::format("  {:<14} {:>12.4g} {:>12.4g} {:>9} {:>11.4g} {:>8} {:>12} {:>9}", c["config"].get<std::string>(),
                       c["flops"].get<double>(), c["bytes"].get<double>(), num(c["intensity"], "{:.3g}"),
                       c["floor_ms"].get<double>(), c["bound"].get<std::string>(), num(c["measured_ms"], "{:.4g}"),
                       num(c["fraction"], "{:.3f}")));
  }
  for (const auto& w : r["warnings"]) line(fmt::format("warning: {}", w.get<std::string>()));
  return out;
}

}  // namespace cudaperf::analysis
