// `cudaperf tasks stats [--root DIR]... [--records PATH]... [--json]`: what the dataset holds —
// counts by tier (curated / generated), category, family, element type and cooperation pattern,
// the roofline floor distribution at the perf configs, and which tasks are verified on which
// device (from the check-gpu records, data/records/*.jsonl).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>

#include "cli/commands.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/util/file.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

namespace {

struct TaskInfo {
  std::string id, kind = "c2cuda", tier = "curated", category, family, field, type = "-", coop = "-", split = "train";
  double floor_us = -1;
  std::set<std::string> impls;                 // strategies
  std::set<std::string> configs;               // config names
};

// shared / warp / atomic, joined by '+', over the implementations that are not the weak baseline.
std::string coop_pattern(const task::Task& t) {
  std::set<std::string> seen;
  for (const auto& im : t.impls) {
    if (im.weak) continue;
    std::string src = read_file(im.path).value_or("");
    if (src.find("__shared__") != std::string::npos) seen.insert("shared");
    if (src.find("__shfl") != std::string::npos || src.find("__ballot") != std::string::npos || src.find("__match_any") != std::string::npos)
      seen.insert("warp");
    if (src.find("atomic") != std::string::npos) seen.insert("atomic");
  }
  if (seen.empty()) return "none";
  std::string out;
  for (const auto& s : seen) out += (out.empty() ? "" : "+") + s;
  return out;
}

// Tier, family, field and split from a task's tags (the generated tier marks itself with tags,
// docs/generators.md); the category where a tag is absent.
void apply_tags(TaskInfo& ti, const std::vector<std::string>& tags, const std::string& category) {
  ti.category = category;
  if (task::has_tag(tags, "generated")) ti.tier = "generated";
  ti.family = task::tag_value(tags, "family");
  ti.field = task::tag_value(tags, "field");
  if (auto split = task::tag_value(tags, "split"); !split.empty()) ti.split = split;
  if (ti.family.empty()) ti.family = category;
  if (ti.field.empty()) ti.field = category;
}

std::vector<TaskInfo> collect(const std::vector<fs::path>& roots, std::vector<std::string>& problems) {
  std::vector<TaskInfo> out;
  for (const auto& root : roots) {
    for (const auto& d : task::find_task_dirs(root)) {
      auto r = task::load_task(d);
      if (!r) {
        problems.push_back(fmt::format("{}: does not load (run `cudaperf tasks validate {}`)", d.string(), d.string()));
        continue;
      }
      const task::Task& t = r.value();
      TaskInfo ti;
      ti.id = t.id;
      apply_tags(ti, t.tags, t.category);
      for (const auto& p : t.params)
        if (p.role == task::Role::Out || p.role == task::Role::InOut) {
          ti.type = task::c_type_name(p.type);
          break;
        }
      ti.coop = coop_pattern(t);
      for (const auto& c : t.configs) {
        ti.configs.insert(c.name);
        if (!c.perf || ti.floor_us >= 0) continue;
        if (auto rl = task::roofline(t, c); auto* v = std::get_if<task::Roofline>(&rl)) ti.floor_us = v->floor_s * 1e6;
      }
      for (const auto& im : t.impls) ti.impls.insert(im.strategy);
      out.push_back(std::move(ti));
    }
    for (const auto& d : task::find_task_dirs(root, task::TaskKind::Torch2Cuda)) {
      auto r = task::load_torch_task(d);
      if (!r) {
        problems.push_back(fmt::format("{}: does not load", d.string()));
        continue;
      }
      TaskInfo ti;
      ti.id = r->id;
      ti.kind = "torch2cuda";
      apply_tags(ti, r->tags, r->category);
      for (const auto& c : r->configs) ti.configs.insert(c.name);
      for (const auto& im : r->impls) ti.impls.insert(im.strategy);
      out.push_back(std::move(ti));
    }
  }
  return out;
}

// Newest record per (task, device, impl, config) from JSON-lines files.
struct Rec {
  std::string date, status;
};
using RecordMap = std::map<std::string, std::map<std::string, std::map<std::pair<std::string, std::string>, Rec>>>;

std::string short_device(const std::string& d) { return d.substr(0, d.find(',')); }

RecordMap read_records(const std::vector<fs::path>& paths, std::vector<std::string>& problems) {
  RecordMap m;
  std::vector<fs::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::directory_iterator(p, ec))
        if (e.path().extension() == ".jsonl") files.push_back(e.path());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.empty()) continue;
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("task") || !j.contains("impl") || !j.contains("config")) {
        problems.push_back(fmt::format("{}:{}: not a record (task, impl, config, status, device, date)", f.string(), n));
        continue;
      }
      std::string dev = short_device(j.value("device", "?"));
      Rec r{j.value("date", ""), j.value("status", "?")};
      auto& slot = m[j.value("task", "")][dev][{j.value("impl", ""), j.value("config", "")}];
      if (slot.date.empty() || r.date >= slot.date) slot = r;
    }
  }
  return m;
}

// "verified": every impl at every config has a newest record on the device and all are ok;
// "task_error": some newest record says the task itself failed (a defect of the task, not of an impl);
// "failing": some other newest record is not ok; "partial": records for part of the impls x configs.
std::string device_state(const TaskInfo& t, const std::map<std::pair<std::string, std::string>, Rec>& recs) {
  bool all = true, bad = false, task_error = false;
  for (const auto& im : t.impls)
    for (const auto& c : t.configs) {
      auto it = recs.find({im, c});
      if (it == recs.end()) all = false;
      else if (it->second.status == verify::verdict_name(verify::Verdict::TaskError)) task_error = true;
      else if (it->second.status != "ok") bad = true;
    }
  return task_error ? "task_error" : bad ? "failing" : all ? "verified" : "partial";
}

const std::vector<std::pair<double, std::string>> kFloorBuckets = {
    {50, "< 50 us"}, {100, "50-100 us"}, {500, "100-500 us"}, {1000, "0.5-1 ms"}, {10000, "1-10 ms"}, {1e300, ">= 10 ms"}};

std::string bucket_of(double us) {
  for (const auto& [hi, name] : kFloorBuckets)
    if (us < hi) return name;
  return kFloorBuckets.back().second;
}

int run_stats(const std::vector<std::string>& roots_in, const std::vector<std::string>& records_in, bool as_json) {
  std::vector<fs::path> roots;
  for (const auto& r : roots_in) roots.emplace_back(r);
  if (roots.empty()) {
    roots.push_back(default_root());
    fs::path gen = default_root().parent_path() / "generated";
    if (fs::is_directory(gen)) roots.push_back(gen);
  }
  std::vector<fs::path> records;
  for (const auto& r : records_in) records.emplace_back(r);
  if (records.empty()) records.push_back(default_root().parent_path() / "records");
  std::vector<std::string> problems;
  for (const auto& r : roots)
    if (!fs::exists(r)) problems.push_back(fmt::format("{}: no such folder", r.string()));
  auto tasks = collect(roots, problems);
  auto recs = read_records(records, problems);

  nlohmann::json j;
  j["roots"] = nlohmann::json::array();
  for (const auto& r : roots) j["roots"].push_back(r.string());
  j["tasks"] = tasks.size();
  auto count = [&](const char* name, auto key) {
    std::map<std::string, std::map<std::string, int>> by;  // value -> tier -> n
    for (const auto& t : tasks) ++by[key(t)][t.tier];
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [v, tiers] : by) o[v] = tiers;
    j["by_" + std::string(name)] = o;
  };
  count("tier", [](const TaskInfo& t) { return t.tier; });
  count("kind", [](const TaskInfo& t) { return t.kind; });
  count("category", [](const TaskInfo& t) { return t.category; });
  count("family", [](const TaskInfo& t) { return t.family; });
  count("field", [](const TaskInfo& t) { return t.field; });
  count("type", [](const TaskInfo& t) { return t.type; });
  count("coop", [](const TaskInfo& t) { return t.coop; });
  count("split", [](const TaskInfo& t) { return t.split; });

  std::vector<double> floors;
  std::map<std::string, int> buckets;
  for (const auto& t : tasks)
    if (t.floor_us >= 0) floors.push_back(t.floor_us), ++buckets[bucket_of(t.floor_us)];
  std::sort(floors.begin(), floors.end());
  nlohmann::json fl = {{"n", floors.size()}, {"buckets", nlohmann::json::object()}};
  for (const auto& [hi, name] : kFloorBuckets) fl["buckets"][name] = buckets.count(name) ? buckets[name] : 0;
  if (!floors.empty())
    fl["min_us"] = floors.front(), fl["median_us"] = floors[floors.size() / 2], fl["max_us"] = floors.back();
  j["roofline_floor"] = fl;

  // device -> tier -> state -> n, plus the task lists of the states that are not verified
  nlohmann::json dev = nlohmann::json::object();
  std::map<std::string, int> unmeasured;
  for (const auto& t : tasks) {
    auto it = recs.find(t.id);
    if (it == recs.end()) {
      ++unmeasured[t.tier];
      continue;
    }
    for (const auto& [d, rs] : it->second) {
      std::string st = device_state(t, rs);
      auto& slot = dev[d][t.tier][st];
      slot = slot.is_number() ? slot.get<int>() + 1 : 1;
      if (st != "verified") dev[d]["not_verified"].push_back(fmt::format("{} ({})", t.id, st));
    }
  }
  j["devices"] = dev;
  j["unmeasured"] = unmeasured;
  j["problems"] = problems;

  if (as_json) {
    fmt::print("{}\n", j.dump(1));
    for (const auto& p : problems) fmt::print(stderr, "{}\n", p);
    return problems.empty() ? 0 : 1;
  }
  fmt::print("tasks: {} under {}\n", tasks.size(), fmt::join(j["roots"].get<std::vector<std::string>>(), ", "));
  for (const char* key : {"tier", "kind", "split", "field", "type", "coop", "category", "family"}) {
    std::vector<std::string> parts;
    for (const auto& [v, tiers] : j[std::string("by_") + key].items()) {
      int n = 0;
      std::vector<std::string> sub;
      for (const auto& [tier, c] : tiers.items()) n += c.get<int>(), sub.push_back(fmt::format("{} {}", c.get<int>(), tier));
      parts.push_back(sub.size() > 1 ? fmt::format("{} {} ({})", v, n, fmt::join(sub, ", ")) : fmt::format("{} {}", v, n));
    }
    fmt::print("by {}: {}\n", key, fmt::join(parts, "; "));
  }
  std::vector<std::string> bparts;
  for (const auto& [hi, name] : kFloorBuckets) bparts.push_back(fmt::format("{}: {}", name, fl["buckets"][name].get<int>()));
  fmt::print("roofline floor at the first perf config ({} tasks): {}{}\n", floors.size(), fmt::join(bparts, ", "),
             floors.empty() ? "" : fmt::format("; min {:.1f} us, median {:.1f} us, max {:.1f} us", floors.front(), floors[floors.size() / 2], floors.back()));
  for (const auto& [d, tiers] : dev.items())
    for (const auto& [tier, states] : tiers.items()) {
      if (tier == "not_verified") continue;
      std::vector<std::string> parts;
      for (const auto& [st, n] : states.items()) parts.push_back(fmt::format("{} {}", n.get<int>(), st));
      fmt::print("device {}: {} tasks: {}\n", d, tier, fmt::join(parts, ", "));
    }
  for (const auto& [tier, n] : unmeasured) fmt::print("no records: {} {} task(s) (unverified)\n", n, tier);
  for (const auto& p : problems) fmt::print(stderr, "{}\n", p);
  return problems.empty() ? 0 : 1;
}

}  // namespace

void add_tasks_stats_command(CLI::App& tasks) {
  static std::vector<std::string> roots, records;
  static bool json = false;
  auto* st = tasks.add_subcommand("stats", "Dataset statistics: tiers, categories, families, types, cooperation, roofline floors, verified devices");
  st->add_option("--root", roots, "a dataset folder (repeatable; default: data/tasks and data/generated)");
  st->add_option("--records", records, "a records file or folder of *.jsonl (repeatable; default: data/records)");
  st->add_flag("--json", json, "print the statistics as one JSON object instead of text");
  st->callback([] { g_action = [] { return run_stats(roots, records, json); }; });
}

}  // namespace cudaperf::cli
