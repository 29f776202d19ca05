// Finding task folders under a root: their kinds, and a task by its id.
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/file.hpp"

namespace cudaperf::task {

namespace fs = std::filesystem;

std::optional<fs::path> find_task_by_id(const fs::path& root, const std::string& id) {
  for (const fs::path& d : {root / "c2cuda" / id, root / id})
    if (fs::exists(d / "task.toml")) return d;
  for (const auto& d : find_task_dirs(root))
    if (d.parent_path().filename().string() + "/" + d.filename().string() == id) return d;
  return std::nullopt;
}

namespace {
std::vector<fs::path> all_task_dirs(const fs::path& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (fs::is_regular_file(root / "task.toml", ec)) return {root};
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_directory() && fs::is_regular_file(it->path() / "task.toml")) {
      out.push_back(it->path());
      it.disable_recursion_pending();
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

std::vector<fs::path> find_task_dirs(const fs::path& root) {
  std::vector<fs::path> out;
  for (auto& d : all_task_dirs(root))
    if (task_kind(d) != TaskKind::Torch2Cuda) out.push_back(d);  // unknown kinds: load_task reports them
  return out;
}

std::vector<fs::path> find_task_dirs(const fs::path& root, TaskKind kind) {
  std::vector<fs::path> out;
  for (auto& d : all_task_dirs(root))
    if (task_kind(d) == kind) out.push_back(d);
  return out;
}

TaskKind task_kind(const fs::path& dir) {
  auto text = read_file(dir / "task.toml");
  if (!text) return TaskKind::Unknown;
  // Cheap first: most task.toml files are c2cuda and never mention the other kind.
  if (text->find("torch2cuda") == std::string::npos) return TaskKind::C2Cuda;
  try {
    auto root = toml::parse(*text, (dir / "task.toml").string());
    auto kind = root["kind"].value<std::string>();
    if (!kind || *kind == "c2cuda") return TaskKind::C2Cuda;
    if (*kind == "torch2cuda") return TaskKind::Torch2Cuda;
    return TaskKind::Unknown;
  } catch (const toml::parse_error&) {
    return TaskKind::Unknown;
  }
}

std::optional<fs::path> find_torch_task_by_id(const fs::path& root, const std::string& id) {
  if (id.empty() || id.find("..") != std::string::npos) return std::nullopt;
  fs::path d = root / id;
  if (fs::exists(d / "task.toml") && task_kind(d) == TaskKind::Torch2Cuda) return d;
  for (const auto& x : find_task_dirs(root, TaskKind::Torch2Cuda)) {
    auto r = load_torch_task(x);
    if (r && r->id == id) return x;
  }
  return std::nullopt;
}

}  // namespace cudaperf::task
