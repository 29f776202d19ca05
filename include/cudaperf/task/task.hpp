// The C-to-CUDA task model and its loader (docs/task-format.md is the contract).
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/task/expr.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::task {

enum class Role { Size, Scalar, In, Out, InOut };
enum class ScalarType { I8, U8, I32, U32, I64, U64, F32, F64 };

const char* role_name(Role r);
const char* c_type_name(ScalarType t);  // canonical C spelling, e.g. "unsigned int"
size_t type_size(ScalarType t);
bool is_float(ScalarType t);

// How the harness draws an input buffer.
struct Dist {
  enum class Kind { Uniform, Normal, Mixed, Index, Permutation, RowPtr, Sorted, Const } kind =
      Kind::Uniform;
  std::vector<double> reals;  // uniform/normal/mixed/sorted/const
  std::vector<Expr> ints;     // index(lo, hi), rowptr(nnz)
  std::string text;
};

struct Param {
  std::string name;
  ScalarType type = ScalarType::I32;
  bool pointer = false;
  bool is_const = false;
  Role role = Role::Scalar;
  Expr len;                    // buffers
  std::optional<Dist> dist;    // in / inout
  std::optional<double> value; // scalar default
  int line = 0;

  bool is_buffer() const { return pointer; }
  std::string c_decl() const;  // "const float* x"
};

struct Config {
  std::string name;
  bool perf = false;
  Expr::Env sizes;                       // every size param
  std::map<std::string, double> scalars; // scalar params set by this config
  int line = 0;
};

struct Impl {
  std::string strategy;  // file stem
  std::filesystem::path path;
  std::string header;    // the strategy line's text after "strategy:"
  bool weak = false;     // header says "(weak)"
};

// Tags are free-form; the generated tier uses "generated", "family:X", "split:S", "field:F"
// (docs/generators.md). The value of the first tag "<key>:<value>", or "".
std::string tag_value(const std::vector<std::string>& tags, const std::string& key);
bool has_tag(const std::vector<std::string>& tags, const std::string& tag);

struct Task {
  std::filesystem::path dir;
  std::string id, category, name, summary, function;
  bool deterministic = true;
  std::vector<Param> params;
  std::vector<Config> configs;
  double rtol = 0, atol = 0;
  Expr cost_flops, cost_bytes;
  std::filesystem::path reference;
  std::vector<Impl> impls;
  std::vector<std::string> tags;

  std::string tag_value(const std::string& key) const { return task::tag_value(tags, key); }
  bool has_tag(const std::string& tag) const { return task::has_tag(tags, tag); }
  const Param* find_param(const std::string& n) const;
  bool uses_double() const;
  // Declarations generated from task.toml, used to check signatures by compiling against them.
  std::string c_reference_declaration() const;  // C: void f(...);
  std::string cuda_declaration() const;         // CUDA C++: extern "C" void f(..., cudaStream_t);
};

// Loads and validates one task folder. Every problem found is reported, each with file and line.
Result<Task> load_task(const std::filesystem::path& dir);

// ---- PyTorch-to-CUDA tasks (kind = "torch2cuda", docs/torch2cuda.md)
enum class TaskKind { C2Cuda, Torch2Cuda, Unknown };
// The kind a task folder's task.toml declares ("c2cuda" when the key is absent); Unknown when
// task.toml does not parse or names another kind.
TaskKind task_kind(const std::filesystem::path& dir);

struct TorchConfig {
  std::string name;
  bool perf = false;
  std::vector<std::pair<std::string, std::string>> globals;  // module global -> value as JSON text
  int line = 0;
  // The bytes a correct kernel must move at this config, from task.toml `cost = { bytes = "..." }`
  // over the config's integer globals; -1 when the task has no cost (the roofline floor then counts
  // every input and output byte).
  int64_t floor_bytes = -1;
};

struct TorchTask {
  std::filesystem::path dir;
  std::string id, category, name, summary;
  std::string source;            // "" or "kernelbench" (imported: impls optional)
  std::string input_dist = "as_written";  // or "mixed": torch.rand/randn in get_inputs draw mixed families
  bool deterministic = true;
  double rtol = 0, atol = 0;
  std::vector<TorchConfig> configs;
  std::filesystem::path reference;  // reference.py
  std::vector<Impl> impls;          // impls/<strategy>.py
  std::vector<std::string> tags;
};

// task.toml and the folder layout of a torch2cuda task (no Python: reference.py and the impls are
// checked by verify::check_torch_tasks). Every problem is reported.
Result<TorchTask> load_torch_task(const std::filesystem::path& dir);
Result<TorchTask> parse_torch_task_toml(const std::string& text, const std::string& file_name);
// Task folders of one kind under root, sorted.
std::vector<std::filesystem::path> find_task_dirs(const std::filesystem::path& root, TaskKind kind);
// The folder of torch2cuda task `id` ("torch2cuda/<category>/<name>") under a dataset root.
std::optional<std::filesystem::path> find_torch_task_by_id(const std::filesystem::path& root, const std::string& id);

// Parses task.toml text only (no file-system checks); used by the fuzzer and by load_task.
Result<Task> parse_task_toml(const std::string& text, const std::string& file_name);

// Finds C-to-CUDA task folders (those holding a task.toml of kind c2cuda) under `root`, sorted;
// torch2cuda folders are left out (find_task_dirs(root, TaskKind::Torch2Cuda) lists those).
std::vector<std::filesystem::path> find_task_dirs(const std::filesystem::path& root);

// The folder of task `id` ("category/name") under a dataset root (root/c2cuda/id, root/id, or a search).
std::optional<std::filesystem::path> find_task_by_id(const std::filesystem::path& root, const std::string& id);

// Evaluates a buffer's length for a config; error message on failure.
std::variant<int64_t, std::string> buffer_len(const Param& p, const Config& c);

// Peak rates a roofline floor is computed against.
struct Peaks {
  double bandwidth_bytes_per_s = 4.8e12;  // defaults: H200 SXM datasheet (HBM3e; non-tensor FMA)
  double fp32_flops_per_s = 67e12;
  double fp64_flops_per_s = 34e12;
};
// Roofline floor at a config in seconds, from the cost model over `peaks`. With the datasheet
// peaks (the default) it is a physical limit: a median below it means the work was not done.
struct Roofline {
  double flops = 0, bytes = 0, floor_s = 0;
};
std::variant<Roofline, std::string> roofline(const Task& t, const Config& c, const Peaks& peaks = Peaks{});

}  // namespace cudaperf::task
