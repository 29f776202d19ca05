// `cudaperf import-kernelbench DIR [--out OUT] [--category C] [--force]`: KernelBench-format problem files
// (Model, get_inputs, get_init_inputs; e.g. level1/19_ReLU.py) become torch2cuda tasks. The file is kept
// as reference.py; task.toml gets a "perf" config with the file's own values of the module-level
// constants that get_inputs/get_init_inputs use, and a "tiny" config derived from them (scaled down,
// run on the CPU where torch imports: python/cudaperf/torch_import.py) so the null battery runs.
// OUT is `<dataset>/torch2cuda/<category>` or any folder, which then becomes a dataset root
// (tasks in OUT/torch2cuda/<category>/).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>

#include "cli/commands.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::isalnum(static_cast<unsigned char>(l))) out += l;
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string toml_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

std::string toml_value(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_float()) {
    std::string s = fmt::format("{:.17g}", v.get<double>());
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
  }
  if (v.is_string()) return toml_string(v.get<std::string>());
  if (v.is_array()) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + toml_value(v[i]);
    return s + "]";
  }
  return "";
}

// The task name of a problem file: "<level>_<stem>" when it sits in a levelN folder.
std::string task_name(const fs::path& file) {
  std::string stem = sanitize(file.stem().string());
  std::string parent = sanitize(file.parent_path().filename().string());
  if (parent.rfind("level", 0) == 0) stem = "l" + parent.substr(5) + "_" + stem;
  if (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem[0]))) stem = "kb_" + stem;
  return stem;
}

// Where the tasks go: OUT itself when it is <dataset>/torch2cuda/<category>, else
// OUT/torch2cuda/<category> (OUT a dataset root; OUT named torch2cuda: OUT/<category>). Also the
// dataset root to validate.
std::pair<fs::path, fs::path> destination(const fs::path& out, const std::string& category) {
  fs::path dest = fs::absolute(out).lexically_normal();
  if (!dest.has_filename()) dest = dest.parent_path();
  if (dest.parent_path().filename() == "torch2cuda" && sanitize(dest.filename().string()) == dest.filename().string())
    return {category.empty() ? dest : dest.parent_path() / category, dest.parent_path().parent_path()};
  std::string cat = category.empty() ? "kernelbench" : category;
  if (dest.filename() == "torch2cuda") return {dest / cat, dest.parent_path()};
  return {dest / "torch2cuda" / cat, dest};
}

// The small config of each file (torch_import.py, one Python run for all of them): file -> its JSON.
std::map<std::string, json> small_configs(const std::vector<fs::path>& files, const torch2cuda::TorchRuntime& rt) {
  std::map<std::string, json> out;
  std::string why;
  std::string py = torch2cuda::torch_importable(rt, why) ? rt.python : "python3";  // without torch: derived, unchecked
  std::vector<std::string> argv{py, "-c",
                                "import sys; sys.path.insert(0, sys.argv[1]); from cudaperf import torch_import; "
                                "import os; sys.stdout.flush(); os._exit(torch_import.main(['torch_import', 'small'] + sys.argv[2:]))",
                                rt.python_dir.string()};
  for (const auto& f : files) argv.push_back(f.string());
  auto r = sandbox::run_process(argv, std::chrono::seconds(120 + 90 * static_cast<long>(files.size())), 16 << 20);
  std::istringstream lines(r.output);
  std::string line;
  while (std::getline(lines, line)) {
    auto j = json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("file") && j["file"].is_string()) out[j["file"].get<std::string>()] = j;
  }
  return out;
}

int import_kernelbench(const fs::path& in, const fs::path& out, const std::string& category_opt, bool force) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_regular_file(in, ec)) files.push_back(in);
  else
    for (auto it = fs::recursive_directory_iterator(in, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->is_regular_file() && it->path().extension() == ".py" && it->path().filename() != "__init__.py") files.push_back(it->path());
    }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    fmt::print(stderr, "cudaperf import-kernelbench: no .py problem files under {}\n", in.string());
    return 2;
  }
  if (!category_opt.empty() && sanitize(category_opt) != category_opt) {
    fmt::print(stderr, "cudaperf import-kernelbench: --category must be lower-case letters, digits and '_' (got {})\n", category_opt);
    return 2;
  }
  auto [dest, dataset] = destination(out, category_opt);
  std::string category = dest.filename().string();
  auto rt = torch2cuda::torch_runtime();
  auto smalls = small_configs(files, rt);
  int imported = 0, skipped = 0, failed = 0;
  for (const auto& f : files) {
    std::string name = task_name(f);
    auto r = sandbox::run_process({"python3", "-c",
                                   "import sys; sys.path.insert(0, sys.argv[1]); from cudaperf import torch_static; "
                                   "sys.exit(torch_static.main(['torch_static', 'kb', sys.argv[2]]))",
                                   rt.python_dir.string(), f.string()},
                                  std::chrono::seconds(60), 4 << 20);
    auto j = json::parse(r.output, nullptr, false);
    if (!r.ok() || j.is_discarded() || j.contains("error")) {
      fmt::print("FAIL {}: {}\n", f.string(), j.is_object() && j.contains("error") ? j["error"].get<std::string>() : r.output.substr(0, 300));
      ++failed;
      continue;
    }
    if (!j.value("has_model", false) || !j.value("has_get_inputs", false) || !j.value("has_get_init_inputs", false)) {
      fmt::print("skip {}: not a KernelBench problem (needs class Model, get_inputs, get_init_inputs)\n", f.string());
      ++skipped;
      continue;
    }
    fs::path dir = dest / name;
    if (fs::exists(dir / "task.toml") && !force) {
      fmt::print("skip {}: {} exists (--force replaces it)\n", f.string(), dir.string());
      ++skipped;
      continue;
    }
    std::vector<std::string> cfg;
    for (const auto& c : j["constants"]) {
      if (!c.value("used", false)) continue;
      std::string v = toml_value(c["value"]);
      if (!v.empty()) cfg.push_back(fmt::format("{} = {}", c["name"].get<std::string>(), v));
    }
    // the small config: scaled-down sizes (torch_import.py), checked on the CPU where torch imports
    std::string small_line, small_note = "no small config could be derived";
    if (auto it = smalls.find(f.string()); it != smalls.end()) {
      const json& s = it->second;
      small_note = s.value("note", "");
      if (s.contains("small") && s["small"].is_object()) {
        std::vector<std::string> kv;
        for (const auto& [k, v] : s["small"].items()) kv.push_back(fmt::format("{} = {}", k, toml_value(v)));
        small_line = fmt::format("  {{ name = \"tiny\"{}{} }},\n", kv.empty() ? "" : ", ", fmt::join(kv, ", "));
        small_note = fmt::format("tiny: derived by import-kernelbench ({}{})", s.value("note", ""),
                                 s.value("checked", false) ? "" : "; validate runs it");
      }
    }
    std::string summary = j.value("docstring", "");
    if (summary.empty()) summary = fmt::format("KernelBench {} {}", f.parent_path().filename().string(), f.stem().string());
    fs::create_directories(dir, ec);
    fs::copy_file(f, dir / "reference.py", fs::copy_options::overwrite_existing, ec);
    if (ec) {
      fmt::print("FAIL {}: cannot write {}: {}\n", f.string(), dir.string(), ec.message());
      ++failed;
      continue;
    }
    std::ofstream toml(dir / "task.toml");
    toml << "# imported by `cudaperf import-kernelbench` from " << f.filename().string()
         << " (reference.py is that file, unchanged)\n"
         << "kind = \"torch2cuda\"\n"
         << "id = " << toml_string(fmt::format("torch2cuda/{}/{}", category, name)) << "\n"
         << "summary = " << toml_string(summary) << "\n"
         << "source = \"kernelbench\"\n"
         << "# two runs of a candidate must agree within tolerance, not bitwise (atomics are fine)\n"
         << "deterministic = false\n"
         << "tolerance = { rtol = 1e-4, atol = 1e-4 }\n"
         << "# perf: the file's own sizes; " << small_note << "\n"
         << "configs = [\n" << small_line << "  { name = \"perf\"" << (cfg.empty() ? "" : ", ") << fmt::format("{}", fmt::join(cfg, ", ")) << " },\n]\n";
    fmt::print("imported {} -> {} ({})\n", f.string(), dir.string(), small_line.empty() ? "perf only: " + small_note : "with a tiny config");
    ++imported;
  }
  fmt::print("import-kernelbench: {} imported, {} skipped, {} failed into {} (run `cudaperf tasks validate {}`)\n", imported,
             skipped, failed, dest.string(), dataset.string());
  return failed ? 1 : 0;
}

}  // namespace

void add_import_command(CLI::App& app) {
  static std::string in, out = "data/tasks/torch2cuda/kernelbench", category;
  static bool force = false;
  auto* cmd = app.add_subcommand("import-kernelbench", "Turn KernelBench-format problem files (Model, get_inputs, "
                                                      "get_init_inputs) into torch2cuda tasks");
  cmd->add_option("dir", in, "a folder of problem files (e.g. KernelBench/level1) or one file")->required();
  cmd->add_option("--out", out, "where the tasks go: <dataset>/torch2cuda/<category>, or any folder (a dataset root: "
                                "tasks in OUT/torch2cuda/<category>/); default data/tasks/torch2cuda/kernelbench");
  cmd->add_option("--category", category, "the category (default: the --out folder's name, or kernelbench)");
  cmd->add_flag("--force", force, "replace tasks that exist");
  cmd->callback([] { g_action = [] { return import_kernelbench(in, out, category, force); }; });
}

}  // namespace cudaperf::cli
