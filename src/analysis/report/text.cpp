// The text form of the analyze report (render_text).
#include <fmt/format.h>

#include "common.hpp"
#include "cudaperf/analysis/report.hpp"

namespace cudaperf::analysis {

using nlohmann::json;
using report_detail::join;

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
