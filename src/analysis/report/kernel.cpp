// One kernel's part of the analyze report (kernel.hpp; formulas: docs/analysis.md).
#include "kernel.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "common.hpp"
#include "cudaperf/analysis/occupancy.hpp"

namespace cudaperf::analysis::report_detail {

using nlohmann::json;

namespace {

json limit_json(int v) { return v == kUnlimited ? json(nullptr) : json(v); }

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

}  // namespace

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

}  // namespace cudaperf::analysis::report_detail
