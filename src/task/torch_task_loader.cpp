// torch2cuda task.toml parsing and validation (docs/torch2cuda.md); every problem collected, each located.
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "cudaperf/task/expr.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/util/file.hpp"
#include "impls.hpp"
#include "text.hpp"

namespace cudaperf::task {

namespace fs = std::filesystem;

namespace {
std::string toml_to_json(const toml::node& v, bool& ok) {
  if (auto i = v.value_exact<int64_t>()) return std::to_string(*i);
  if (auto b = v.value_exact<bool>()) return *b ? "true" : "false";
  if (auto d = v.value_exact<double>()) {
    if (!std::isfinite(*d)) {
      ok = false;
      return "null";
    }
    return fmt::format("{:.17g}", *d);
  }
  if (auto s = v.value_exact<std::string>()) {
    std::string out = "\"";
    for (char c : *s) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) < 0x20) {
        out += fmt::format("\\u{:04x}", static_cast<int>(c));
        continue;
      }
      out += c;
    }
    return out + "\"";
  }
  if (auto* a = v.as_array()) {
    std::string out = "[";
    for (size_t i = 0; i < a->size(); ++i) out += (i ? "," : "") + toml_to_json(*a->get(i), ok);
    return out + "]";
  }
  ok = false;
  return "null";
}

// `cost = { bytes = "..." }` (optional): the bytes a correct kernel must move, an expression over each
// config's integer globals; the roofline floor uses it in place of every input and output byte, for
// tasks whose fast kernels rightly read only part of an input (a gather of k rows). FLOPs are counted
// by torch, so `bytes` is the only key.
template <class Err, class LineOf>
void read_floor_bytes(const toml::table& root, std::vector<TorchConfig>& configs, Err&& err, LineOf&& line_of) {
  const toml::node* n = root.get("cost");
  if (!n) return;
  const toml::table* tb = n->as_table();
  const toml::node* b = tb ? tb->get("bytes") : nullptr;
  auto text = b ? b->value<std::string>() : std::nullopt;
  if (!tb || tb->size() != 1 || !text) {
    err(line_of(*n), "'cost' must be { bytes = \"<expression over the configs' integer globals>\" } (torch counts the FLOPs)");
    return;
  }
  auto parsed = parse_expr(*text);
  if (auto* m = std::get_if<std::string>(&parsed)) {
    err(line_of(*b), fmt::format("cost bytes: {}", *m));
    return;
  }
  const Expr& e = std::get<Expr>(parsed);
  for (auto& c : configs) {
    Expr::Env env;
    for (const auto& [k, v] : c.globals) {
      int64_t x = 0;
      auto r = std::from_chars(v.data(), v.data() + v.size(), x);
      if (r.ec == std::errc() && r.ptr == v.data() + v.size()) env[k] = x;  // integers only
    }
    auto val = e.eval(env);
    if (auto* m = std::get_if<std::string>(&val)) err(c.line, fmt::format("config '{}': cost bytes: {}", c.name, *m));
    else if (std::get<int64_t>(val) <= 0) err(c.line, fmt::format("config '{}': cost bytes is {}; it must be positive", c.name, std::get<int64_t>(val)));
    else c.floor_bytes = std::get<int64_t>(val);
  }
}
}  // namespace

Result<TorchTask> parse_torch_task_toml(const std::string& text, const std::string& file) {
  std::vector<Diagnostic> errors;
  auto err = [&](int line, std::string m) { errors.push_back(Diagnostic{file, line, 0, std::move(m)}); };
  auto line_of = [](const toml::node& n) { return static_cast<int>(n.source().begin.line); };
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    return Diagnostic{file, static_cast<int>(e.source().begin.line), static_cast<int>(e.source().begin.column),
                      fmt::format("invalid TOML: {}", e.description())};
  }
  TorchTask t;
  static const std::set<std::string> kKnown = {"kind", "id", "summary", "deterministic", "tolerance", "configs",
                                               "source", "tags", "input_dist", "cost"};
  for (auto&& [k, v] : root)
    if (!kKnown.count(std::string(k.str())))
      err(line_of(v), fmt::format("unknown key '{}' (known for torch2cuda: kind, id, summary, deterministic, tolerance, "
                                  "configs, source, input_dist, cost, tags)", k.str()));
  auto str = [&](const char* key, bool required) -> std::string {
    const toml::node* n = root.get(key);
    if (!n) {
      if (required) err(1, fmt::format("missing required key '{}'", key));
      return {};
    }
    auto s = n->value<std::string>();
    if (!s || s->empty()) {
      err(line_of(*n), fmt::format("'{}' must be a non-empty string", key));
      return {};
    }
    return *s;
  };
  if (str("kind", true) != "torch2cuda" && root.get("kind"))
    err(line_of(*root.get("kind")), "kind must be \"torch2cuda\" here");
  t.id = str("id", true);
  if (!t.id.empty()) {
    std::vector<std::string> parts;
    for (size_t a = 0, b; a <= t.id.size(); a = b + 1) {
      b = t.id.find('/', a);
      if (b == std::string::npos) b = t.id.size();
      parts.push_back(t.id.substr(a, b - a));
    }
    bool ok = parts.size() == 3 && parts[0] == "torch2cuda" && !parts[1].empty() && !parts[2].empty();
    for (const auto& p : parts) ok = ok && p.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == std::string::npos && p != "." && p != "..";
    if (!ok) err(line_of(*root.get("id")), fmt::format("id '{}' must have the form \"torch2cuda/<category>/<name>\"", t.id));
    else {
      t.category = parts[1];
      t.name = parts[2];
    }
  }
  t.summary = str("summary", true);
  detail::read_tags(root, t.tags, err);
  t.source = str("source", false);
  if (!t.source.empty() && t.source != "kernelbench")
    err(line_of(*root.get("source")), fmt::format("source '{}': the only known source is \"kernelbench\"", t.source));
  if (root.get("input_dist")) {
    t.input_dist = str("input_dist", false);
    if (t.input_dist != "as_written" && t.input_dist != "mixed")
      err(line_of(*root.get("input_dist")), "input_dist must be \"as_written\" or \"mixed\"");
  }
  if (auto* d = root.get("deterministic")) {
    if (auto b = d->value<bool>()) t.deterministic = *b;
    else err(line_of(*d), "'deterministic' must be true or false");
  } else {
    err(1, "missing required key 'deterministic' (true: two runs must agree bitwise)");
  }
  if (auto* n = root.get("tolerance"); !n || !n->as_table()) {
    err(n ? line_of(*n) : 1, "'tolerance' must be a table { rtol = ..., atol = ... }");
  } else {
    const toml::table* tb = n->as_table();
    for (auto&& [k, v] : *tb)
      if (k.str() != "rtol" && k.str() != "atol") err(line_of(v), fmt::format("unknown key '{}' in tolerance", k.str()));
    for (auto [key, out] : {std::pair<const char*, double*>{"rtol", &t.rtol}, {"atol", &t.atol}}) {
      auto* x = tb->get(key);
      auto v = x ? x->value<double>() : std::nullopt;
      if (!v || !std::isfinite(*v) || *v < 0 || *v >= 1) err(x ? line_of(*x) : line_of(*n), fmt::format("tolerance '{}' must be a number in [0, 1)", key));
      else *out = *v;
    }
  }
  const toml::node* cn = root.get("configs");
  const toml::array* arr = cn ? cn->as_array() : nullptr;
  if (!arr || arr->empty()) {
    err(cn ? line_of(*cn) : 1, "'configs' must be a non-empty array of tables like { name = \"tiny\", batch_size = 2 }");
  } else {
    std::set<std::string> names;
    for (const auto& el : *arr) {
      const toml::table* tb = el.as_table();
      if (!tb) {
        err(line_of(el), "each entry of 'configs' must be a table");
        continue;
      }
      TorchConfig c;
      c.line = line_of(el);
      if (auto nm = (*tb)["name"].value<std::string>(); nm && !nm->empty()) c.name = *nm;
      else err(c.line, "a config needs a 'name'");
      if (!c.name.empty() && !names.insert(c.name).second) err(c.line, fmt::format("config name '{}' is used twice", c.name));
      c.perf = c.name.rfind("perf", 0) == 0;
      for (auto&& [k, v] : *tb) {
        std::string key(k.str());
        if (key == "name") continue;
        bool ok = true;
        bool ident = !key.empty() && (std::isalpha(static_cast<unsigned char>(key[0])) || key[0] == '_') &&
                     std::all_of(key.begin(), key.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
        if (!ident) err(c.line, fmt::format("config '{}': '{}' is not a Python identifier", c.name, key));
        std::string json = toml_to_json(v, ok);
        if (!ok) err(c.line, fmt::format("config '{}': '{}' must be a number, bool, string or array of them", c.name, key));
        c.globals.push_back({key, json});
      }
      t.configs.push_back(std::move(c));
    }
    if (std::none_of(t.configs.begin(), t.configs.end(), [](const TorchConfig& c) { return c.perf; }))
      err(line_of(*cn), "configs need one whose name starts with \"perf\" (the timed size)");
    if (t.source != "kernelbench" && !names.count("tiny"))
      err(line_of(*cn), "configs need one named \"tiny\" (imported KernelBench tasks excepted)");
  }
  read_floor_bytes(root, t.configs, err, line_of);
  if (!errors.empty()) return errors;
  return t;
}

Result<TorchTask> load_torch_task(const fs::path& dir) {
  std::vector<Diagnostic> errors;
  fs::path toml_path = dir / "task.toml";
  auto text = read_file(toml_path);
  if (!text) return Diagnostic{toml_path.string(), 0, 0, "task.toml not found or unreadable"};
  auto parsed = parse_torch_task_toml(*text, toml_path.string());
  TorchTask t;
  if (parsed) t = parsed.value();
  else errors = parsed.errors();
  t.dir = dir;
  if (parsed) {
    // id == the folder path under the dataset root: .../torch2cuda/<category>/<name>
    std::string expect = fmt::format("{}/{}/{}", dir.parent_path().parent_path().filename().string(),
                                     dir.parent_path().filename().string(), dir.filename().string());
    if (t.id != expect)
      errors.push_back({toml_path.string(), 0, 0, fmt::format("id '{}' does not match the folder; expected \"{}\"", t.id, expect)});
  }
  t.reference = dir / "reference.py";
  if (!fs::is_regular_file(t.reference))
    errors.push_back({t.reference.string(), 0, 0, "reference.py is missing: the KernelBench-format reference (Model, get_inputs, get_init_inputs)"});
  fs::path impl_dir = dir / "impls";
  if (fs::is_directory(impl_dir)) {
    t.impls = detail::read_impls(impl_dir, ".py", "#", errors);
  }
  if (t.source != "kernelbench" && t.impls.size() < 2)
    errors.push_back({impl_dir.string(), 0, 0, fmt::format("{} implementation(s) in impls/; a torch2cuda task needs at least 2 "
                                                           "(imported KernelBench tasks, source = \"kernelbench\", may have none)", t.impls.size())});
  if (!errors.empty()) return errors;
  return t;
}

}  // namespace cudaperf::task
