#include "cudaperf/verify/dataset_check.hpp"
#include "cudaperf/util/file.hpp"

#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/verify/task_warnings.hpp"
#include "cudaperf/util/parallel.hpp"

namespace cudaperf::verify {

namespace fs = std::filesystem;

bool DatasetCheck::ok() const {
  if (!problems.empty() || tasks.empty()) return false;
  return std::all_of(tasks.begin(), tasks.end(), [](const TaskCheck& t) { return t.problems.empty(); });
}

size_t DatasetCheck::categories() const {
  std::set<std::string> cats;
  for (const auto& t : tasks)
    if (t.task) cats.insert(t.task->category);
  return cats.size();
}

bool uses_cooperation(const std::string& src) {
  for (const char* k : {"__shared__", "__shfl", "atomic", "__syncthreads", "cooperative_groups", "__ballot", "__reduce_"})
    if (src.find(k) != std::string::npos) return true;
  return false;
}

namespace {

// Splits trimmed compiler output into one diagnostic per line that names the source file.
void add_compile_problem(TaskCheck& tc, const fs::path& source, const std::string& what, const std::string& diag) {
  tc.problems.push_back(Diagnostic{source.string(), 0, 0, fmt::format("{}:\n{}", what, diag)});
}

}  // namespace

DatasetCheck check_tasks(const fs::path& root_in, const CheckOptions& o) {
  DatasetCheck out;
  fs::path root = root_in.lexically_normal();
  if (!root.has_filename() && root.has_parent_path()) root = root.parent_path();  // "dir/" -> "dir"
  std::error_code ec;
  if (!fs::exists(root, ec)) {
    out.problems.push_back({root.string(), 0, 0, "no such file or directory"});
    return out;
  }
  auto dirs = task::find_task_dirs(root);
  if (dirs.empty()) {
    // A folder that looks like a task but has no task.toml is reported as that task (one with a
    // task.toml that is not found here is a torch2cuda task: validated by the torch path, not as C).
    if (fs::is_directory(root) && !fs::exists(root / "task.toml") &&
        (fs::exists(root / "reference.c") || fs::exists(root / "impls")))
      dirs.push_back(root);
    else {
      out.problems.push_back({root.string(), 0, 0, "no task folders (folders holding a task.toml) found here"});
      return out;
    }
  }
  unsigned jobs = o.jobs ? o.jobs : default_jobs();
  auto say = [&](const std::string& s) {
    if (o.progress) o.progress(s);
  };
  out.tasks.resize(dirs.size());
  for (size_t i = 0; i < dirs.size(); ++i) {
    TaskCheck& tc = out.tasks[i];
    tc.dir = dirs[i];
    auto r = task::load_task(dirs[i]);
    if (r) tc.task = r.value();
    else tc.problems = r.errors();
    if (tc.task) tc.warnings = task_warnings(*tc.task);
  }
  // Ids and function names must be unique across the tree.
  std::map<std::string, fs::path> ids;
  for (auto& tc : out.tasks) {
    if (!tc.task) continue;
    auto [it, fresh] = ids.emplace(tc.task->id, tc.dir);
    if (!fresh)
      tc.problems.push_back({(tc.dir / "task.toml").string(), 0, 0, fmt::format("id '{}' is also used by {}", tc.task->id, it->second.string())});
    std::map<std::string, std::string> by_hash;
    for (const auto& im : tc.task->impls) {
      std::string src = read_file(im.path).value_or("");
      tc.cooperative = tc.cooperative || (!im.weak && uses_cooperation(src));
      std::string h = fmt::format("{:x}", XXH3_64bits(src.data(), src.size()));
      auto [hit, fresh_src] = by_hash.emplace(h, im.strategy);
      if (!fresh_src)
        tc.problems.push_back({im.path.string(), 0, 0, fmt::format("identical to impls/{}.cu: strategies must be distinct", hit->second)});
    }
  }
  if (!o.compile) return out;

  // Build every reference and implementation, in parallel.
  struct Job {
    size_t task;
    std::optional<size_t> impl;  // nullopt: the reference
  };
  std::vector<Job> build_jobs;
  for (size_t i = 0; i < out.tasks.size(); ++i) {
    if (!out.tasks[i].task) continue;
    build_jobs.push_back({i, std::nullopt});
    for (size_t k = 0; k < out.tasks[i].task->impls.size(); ++k) build_jobs.push_back({i, k});
  }
  std::vector<compile::Artifact> built(build_jobs.size());
  std::atomic<size_t> done{0};
  std::mutex mu;
  size_t refs = static_cast<size_t>(std::count_if(build_jobs.begin(), build_jobs.end(), [](const Job& j) { return !j.impl; }));
  if (!build_jobs.empty())
    say(fmt::format("building {} sources ({} references, {} CUDA implementations) with {} job(s)...", build_jobs.size(),
                    refs, build_jobs.size() - refs, jobs));
  parallel_for(build_jobs.size(), jobs, [&](size_t j) {
    const Job& job = build_jobs[j];
    const task::Task& t = *out.tasks[job.task].task;
    built[j] = job.impl ? compile::compile_cuda(t, t.impls[*job.impl].path) : compile::compile_reference(t);
    size_t d = ++done;
    if (d % 25 == 0 || d == build_jobs.size()) {
      std::lock_guard lock(mu);
      say(fmt::format("  built {}/{}", d, build_jobs.size()));
    }
  });
  std::vector<std::optional<fs::path>> reference_so(out.tasks.size());
  for (size_t j = 0; j < build_jobs.size(); ++j) {
    TaskCheck& tc = out.tasks[build_jobs[j].task];
    const task::Task& t = *tc.task;
    const auto& a = built[j];
    if (!build_jobs[j].impl) {
      if (a.ok) reference_so[build_jobs[j].task] = a.path;
      else add_compile_problem(tc, t.reference, "reference.c does not build with gcc -std=c11 -O2 -Wall -Werror against the declaration generated from task.toml", a.diagnostics);
    } else {
      const auto& im = t.impls[*build_jobs[j].impl];
      if (a.ok) ++tc.sources_built;
      if (a.ok) {  // what eval refuses as link_error must fail here too
        auto link = compile::check_link(a.path);
        for (auto& v : compile::check_source_rules(read_file(im.path).value_or(""))) link.violations.push_back(v);
        if (!link.ok())
          tc.problems.push_back({im.path.string(), 0, 0, fmt::format("fails the link allowlist (eval's link_error):\n{}", link.message())});
      } else add_compile_problem(tc, im.path, fmt::format("does not build with nvcc -arch=sm_90 against the declaration generated from task.toml:\n  {}", t.cuda_declaration().substr(t.cuda_declaration().rfind("extern"))), a.diagnostics);
    }
  }
  if (!o.cpu_gates) return out;

  if (refs > 0) say(fmt::format("running the C references and the null-solution battery on {} task(s)...", refs));
  done = 0;
  parallel_for(out.tasks.size(), jobs, [&](size_t i) {
    TaskCheck& tc = out.tasks[i];
    if (!tc.task || !reference_so[i]) return;
    auto g0 = std::chrono::steady_clock::now();
    GateReport g = run_cpu_gates(*tc.task, *reference_so[i], o.seed, o.reference_timeout_s);
    double gate_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
    for (auto& w : reference_time_warnings(*tc.task, gate_s, 2 * g.configs_run)) tc.warnings.push_back(w);
    tc.nulls = g.nulls;
    for (auto& p : g.problems) tc.problems.push_back({tc.task->reference.string(), 0, 0, p});
    size_t d = ++done;
    if (d % 10 == 0 || d == out.tasks.size()) {
      std::lock_guard lock(mu);
      say(fmt::format("  checked {}/{}", d, out.tasks.size()));
    }
  });
  return out;
}

}  // namespace cudaperf::verify
