// Features of one implementation for the ranker: the analyzer's report, aggregated over kernels.
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <unistd.h>
#include <sstream>

#include "cudaperf/analysis/report.hpp"
#include "cudaperf/util/file.hpp"
#include "cudaperf/rank/ranker.hpp"

namespace cudaperf::rank {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr float kMissing = std::numeric_limits<float>::quiet_NaN();

double num(const json& j, const char* key, double dflt = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : dflt;
}

// Sum and widest access of a {"width": count} map.
void widths(const json& m, double& count, double& max_width) {
  if (!m.is_object()) return;
  for (auto it = m.begin(); it != m.end(); ++it) {
    double n = it.value().is_number() ? it.value().get<double>() : 0;
    count += n;
    if (n > 0) max_width = std::max(max_width, std::atof(it.key().c_str()));
  }
}

double map_total(const json& m) {
  double t = 0;
  if (m.is_object())
    for (const auto& v : m) t += v.is_number() ? v.get<double>() : 0;
  return t;
}

// This build of cudaperf: a rebuilt analyzer must not reuse features of an older one.
const std::string& build_id() {
  static const std::string id = [] {
    std::string exe = read_file("/proc/self/exe").value_or("");
    return fmt::format("{:016x}", XXH3_64bits(exe.data(), exe.size()));
  }();
  return id;
}

}  // namespace

const std::vector<std::string>& feature_names() {
  static const std::vector<std::string> n = {
      "kernels",           "coalescing_min",     "coalescing_mean",   "coalescing_unknown_frac",
      "occupancy_min",     "occupancy_mean",     "intensity_max",     "sync_min",
      "registers_max",     "shared_static_max",  "spill_bytes",       "ld_global",
      "ld_global_width",   "st_global",          "st_global_width",   "ld_shared",
      "st_shared",         "atomics_global",     "atomics_shared",    "shuffles",
      "votes",             "barriers",           "barriers_divergent", "fences",
      "async_copies",      "fp32_ops",           "fp64_ops",          "fp16_tensor_ops",
      "counted_intensity", "block_size_max",     "task_log10_bytes",  "task_intensity",
  };
  return n;
}

std::vector<float> features_from_report(const json& r) {
  const auto& names = feature_names();
  std::vector<float> x(names.size(), kMissing);
  auto set = [&](const char* name, double v) {
    auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end() && std::isfinite(v)) x[static_cast<size_t>(it - names.begin())] = static_cast<float>(v);
  };
  const json ks = r.value("kernels", json::array());
  set("kernels", static_cast<double>(ks.size()));
  double cmin = 2, csum = 0, cn = 0, known = 0, unknown = 0, omin = 2, osum = 0, on = 0, imax = -1, smin = 2;
  double regs = 0, smem = 0, spill = 0, ldg = 0, ldgw = 0, stg = 0, stgw = 0, lds = 0, sts = 0, ag = 0, as = 0;
  double shfl = 0, votes = 0, bars = 0, dbars = 0, fences = 0, async = 0, fp32 = 0, fp64 = 0, fp16 = 0, flops = 0, bytes = 0;
  double block = 0;
  for (const auto& k : ks) {
    const json sc = k.value("scores", json::object());
    if (sc.contains("coalescing") && sc["coalescing"].is_number()) {
      double v = sc["coalescing"];
      cmin = std::min(cmin, v), csum += v, ++cn;
    }
    if (sc.contains("occupancy") && sc["occupancy"].is_number()) {
      double v = sc["occupancy"];
      omin = std::min(omin, v), osum += v, ++on;
    }
    if (sc.contains("intensity") && sc["intensity"].is_number()) imax = std::max(imax, sc["intensity"].get<double>());
    if (sc.contains("sync") && sc["sync"].is_number()) smin = std::min(smin, sc["sync"].get<double>());
    const json co = k.value("coalescing", json::object());
    known += num(co, "known"), unknown += num(co, "unknown");
    const json res = k.value("resources", json::object());
    regs = std::max(regs, num(res, "registers")), smem = std::max(smem, num(res, "shared_static_bytes"));
    spill += num(res, "spill_store_bytes") + num(res, "spill_load_bytes");
    const json c = k.value("census", json::object());
    widths(c.value("ld_global", json::object()), ldg, ldgw);
    widths(c.value("st_global", json::object()), stg, stgw);
    double w = 0;
    widths(c.value("ld_shared", json::object()), lds, w);
    widths(c.value("st_shared", json::object()), sts, w);
    ag += map_total(c.value("atomics_global", json::object()));
    as += map_total(c.value("atomics_shared", json::object()));
    shfl += num(c, "shuffles"), votes += num(c, "votes"), bars += num(c, "barriers");
    dbars += num(c, "barriers_divergent"), fences += num(c, "fences"), async += num(c, "async_copies");
    const json f32 = c.value("fp32", json::object()), f64 = c.value("fp64", json::object());
    fp32 += num(f32, "add") + num(f32, "mul") + 2 * num(f32, "fma") + num(f32, "other");
    fp64 += num(f64, "add") + num(f64, "mul") + 2 * num(f64, "fma") + num(f64, "other");
    fp16 += num(c, "fp16") + num(c, "tensor");
    const json in = k.value("intensity", json::object());
    flops += num(in, "counted_flops"), bytes += num(in, "counted_global_bytes");
    block = std::max(block, num(k.value("launch", json::object()), "block_size"));
  }
  if (cn > 0) set("coalescing_min", cmin), set("coalescing_mean", csum / cn);
  if (known + unknown > 0) set("coalescing_unknown_frac", unknown / (known + unknown));
  if (on > 0) set("occupancy_min", omin), set("occupancy_mean", osum / on);
  if (imax >= 0) set("intensity_max", imax);
  if (smin <= 1) set("sync_min", smin);
  set("registers_max", regs), set("shared_static_max", smem), set("spill_bytes", spill);
  set("ld_global", ldg), set("ld_global_width", ldgw), set("st_global", stg), set("st_global_width", stgw);
  set("ld_shared", lds), set("st_shared", sts), set("atomics_global", ag), set("atomics_shared", as);
  set("shuffles", shfl), set("votes", votes), set("barriers", bars), set("barriers_divergent", dbars);
  set("fences", fences), set("async_copies", async), set("fp32_ops", fp32), set("fp64_ops", fp64);
  set("fp16_tensor_ops", fp16);
  if (bytes > 0) set("counted_intensity", flops / bytes);
  if (block > 0) set("block_size_max", block);
  // The task's perf config (the same for every implementation of a task).
  const json rl = r.value("roofline", json());
  if (rl.is_object())
    for (const auto& c : rl.value("configs", json::array()))
      if (c.value("perf", false)) {
        if (num(c, "bytes") > 0) set("task_log10_bytes", std::log10(num(c, "bytes")));
        set("task_intensity", num(c, "intensity", NAN));
        break;
      }
  return x;
}

Result<std::vector<float>> extract_features(const task::Task& t, const fs::path& cu, const fs::path& cache_dir) {
  std::string src = read_file(cu).value_or("");
  if (src.empty()) return Diagnostic{cu.string(), 0, 0, "cannot read the source"};
  std::string key_text = src + "\n" + t.id + "\n" + build_id();
  fs::path file = cache_dir / "features" / fmt::format("{:016x}.json", XXH3_64bits(key_text.data(), key_text.size()));
  if (std::ifstream in(file); in) {
    auto j = json::parse(in, nullptr, false);
    if (!j.is_discarded() && j.value("names", json::array()) == json(feature_names())) {
      std::vector<float> x;
      for (const auto& v : j["values"]) x.push_back(v.is_null() ? kMissing : v.get<float>());
      return x;
    }
  }
  analysis::AnalyzeOptions o;
  o.task_id = t.id;
  o.task_root = t.dir.parent_path().parent_path();  // <root>/c2cuda: <root>/c2cuda/<category>/<name>
  auto rep = analysis::analyze_file(cu, o);
  if (!rep) return rep.errors();
  auto x = features_from_report(rep.value());
  json values = json::array();
  for (float v : x) values.push_back(std::isnan(v) ? json(nullptr) : json(v));
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  fs::path tmp = file;
  tmp += fmt::format(".{}.tmp", static_cast<long>(getpid()));
  std::ofstream(tmp) << json{{"task", t.id}, {"source", cu.string()}, {"names", feature_names()}, {"values", values}}.dump() << "\n";
  fs::rename(tmp, file, ec);
  return x;
}

}  // namespace cudaperf::rank
