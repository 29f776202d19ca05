// C-to-CUDA task.toml parsing and validation. Every problem is collected (not just the first), each located.
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/file.hpp"
#include "impls.hpp"
#include "text.hpp"

namespace cudaperf::task {

namespace fs = std::filesystem;

namespace {

using detail::collapse_spaces;

// An integer field: a TOML integer, or a float that is one exactly (what toml++'s value<int64_t>()
// accepts), without its undefined float-to-integer conversion for values outside int64_t.
std::optional<int64_t> integer_of(const toml::node& n) {
  if (auto i = n.value_exact<int64_t>()) return i;
  if (auto d = n.value_exact<double>(); d && std::isfinite(*d) && *d >= -9.2e18 && *d <= 9.2e18 && *d == std::trunc(*d))
    return static_cast<int64_t>(*d);
  return std::nullopt;
}

struct TypeName {
  const char* spelling;
  ScalarType type;
};
constexpr TypeName kTypes[] = {
    {"int", ScalarType::I32},          {"int32_t", ScalarType::I32},
    {"unsigned int", ScalarType::U32}, {"unsigned", ScalarType::U32},
    {"uint32_t", ScalarType::U32},     {"long long", ScalarType::I64},
    {"int64_t", ScalarType::I64},      {"unsigned long long", ScalarType::U64},
    {"uint64_t", ScalarType::U64},     {"float", ScalarType::F32},
    {"double", ScalarType::F64},       {"unsigned char", ScalarType::U8},
    {"uint8_t", ScalarType::U8},       {"signed char", ScalarType::I8},
    {"int8_t", ScalarType::I8},
};

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Parses "const float*" etc. Returns an error message on failure.
std::optional<std::string> parse_type(std::string_view text, Param& p) {
  std::string t = collapse_spaces(text);
  p.pointer = false;
  p.is_const = false;
  if (!t.empty() && t.back() == '*') {
    p.pointer = true;
    t.pop_back();
    t = collapse_spaces(t);
  }
  if (t.rfind("const ", 0) == 0) {
    p.is_const = true;
    t = t.substr(6);
  }
  for (const auto& tn : kTypes) {
    if (t == tn.spelling) {
      p.type = tn.type;
      if (p.is_const && !p.pointer) return "'const' is only meaningful on pointer parameters";
      return std::nullopt;
    }
  }
  return fmt::format(
      "unknown type '{}' (use int, unsigned int, long long, unsigned long long, float, double, "
      "unsigned char, signed char, or the <stdint.h> aliases, optionally as 'T*' or 'const T*')",
      std::string(text));
}

class Loader {
 public:
  explicit Loader(std::string file) : file_(std::move(file)) {}

  std::vector<Diagnostic> errors;

  void error(int line, std::string msg, int col = 0) {
    errors.push_back(Diagnostic{file_, line, col, std::move(msg)});
  }
  static int line_of(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

  std::optional<Task> parse(const std::string& text) {
    toml::table root;
    try {
      root = toml::parse(text, file_);
    } catch (const toml::parse_error& e) {
      errors.push_back(Diagnostic{file_, static_cast<int>(e.source().begin.line),
                                  static_cast<int>(e.source().begin.column),
                                  fmt::format("invalid TOML: {}", e.description())});
      return std::nullopt;
    }
    Task t;
    static const std::set<std::string> kKnown = {"kind",   "id",      "summary",   "function",
                                                 "params", "configs", "tolerance", "cost",
                                                 "deterministic", "tags"};
    for (auto&& [k, v] : root) {
      if (!kKnown.count(std::string(k.str())))
        error(line_of(v), fmt::format("unknown key '{}' (known: kind, id, summary, function, "
                                      "deterministic, params, configs, tolerance, cost, tags)",
                                      k.str()));
    }
    if (auto kind = root["kind"].value<std::string>(); kind && *kind != "c2cuda")
      error(line_of(*root.get("kind")), fmt::format("kind '{}' is not supported by this loader "
                                                    "(expected \"c2cuda\"; torch2cuda tasks load with "
                                                    "load_torch_task)", *kind));

    t.id = required_string(root, "id");
    if (!t.id.empty()) {
      auto slash = t.id.find('/');
      if (slash == std::string::npos || slash == 0 || slash + 1 == t.id.size() ||
          t.id.find('/', slash + 1) != std::string::npos) {
        error(line_of(*root.get("id")),
              fmt::format("id '{}' must have the form \"<category>/<name>\"", t.id));
      } else {
        t.category = t.id.substr(0, slash);
        t.name = t.id.substr(slash + 1);
      }
    }
    t.summary = required_string(root, "summary");
    t.function = required_string(root, "function");
    if (!t.function.empty() && !is_identifier(t.function))
      error(line_of(*root.get("function")),
            fmt::format("function '{}' is not a C identifier", t.function));
    if (auto* d = root.get("deterministic")) {
      if (auto b = d->value<bool>()) t.deterministic = *b;
      else error(line_of(*d), "'deterministic' must be true or false");
    }
    detail::read_tags(root, t.tags, [&](int line, std::string m) { error(line, std::move(m)); });
    parse_params(root, t);
    parse_configs(root, t);
    parse_tolerance(root, t);
    parse_cost(root, t);
    if (!errors.empty()) return std::nullopt;
    return t;
  }

 private:
  std::string file_;

  std::string required_string(const toml::table& tbl, const char* key, int ctx_line = 1) {
    const toml::node* n = tbl.get(key);
    if (!n) {
      error(ctx_line, fmt::format("missing required key '{}'", key));
      return {};
    }
    auto s = n->value<std::string>();
    if (!s) {
      error(line_of(*n), fmt::format("'{}' must be a string", key));
      return {};
    }
    if (s->empty()) error(line_of(*n), fmt::format("'{}' is empty", key));
    return *s;
  }

  // Parses an expression and checks its names are size parameters.
  std::optional<Expr> expr_field(const std::string& text, int line, const std::string& what,
                                 const std::set<std::string>& sizes) {
    auto parsed = parse_expr(text);
    if (auto* msg = std::get_if<std::string>(&parsed)) {
      error(line, fmt::format("{}: {}", what, *msg));
      return std::nullopt;
    }
    Expr e = std::get<Expr>(parsed);
    bool ok = true;
    for (const auto& n : e.names()) {
      if (!sizes.count(n)) {
        error(line, fmt::format("{} '{}' uses unknown name '{}' (size parameters: {})", what,
                                text, n, sizes.empty() ? "none" : fmt::format("{}", fmt::join(sizes, ", "))));
        ok = false;
      }
    }
    return ok ? std::optional<Expr>(e) : std::nullopt;
  }

  std::set<std::string> size_names_;
  std::set<std::string> ignored_params_;

  std::optional<Dist> parse_dist(const std::string& text, int line, const Param& p) {
    Dist d;
    d.text = text;
    auto open = text.find('(');
    auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open ||
        !collapse_spaces(text.substr(close + 1)).empty()) {
      error(line, fmt::format("dist '{}' of '{}' must look like name(args), e.g. uniform(-1, 1)",
                              text, p.name));
      return std::nullopt;
    }
    std::string fn = collapse_spaces(text.substr(0, open));
    std::vector<std::string> args;
    {
      std::string inner = text.substr(open + 1, close - open - 1);
      int depth = 0;
      std::string cur;
      for (char c : inner) {
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if (c == ',' && depth == 0) {
          args.push_back(collapse_spaces(cur));
          cur.clear();
        } else {
          cur += c;
        }
      }
      if (!collapse_spaces(cur).empty() || !args.empty()) args.push_back(collapse_spaces(cur));
    }
    struct Spec {
      const char* name;
      Dist::Kind kind;
      size_t nargs;
      bool int_args;
      int type_req;  // 0 any, 1 float only, 2 integer only
    };
    static const Spec kSpecs[] = {
        {"uniform", Dist::Kind::Uniform, 2, false, 0}, {"normal", Dist::Kind::Normal, 2, false, 1},
        {"mixed", Dist::Kind::Mixed, 2, false, 1},     {"index", Dist::Kind::Index, 2, true, 2},
        {"permutation", Dist::Kind::Permutation, 0, true, 2},
        {"rowptr", Dist::Kind::RowPtr, 1, true, 2},    {"sorted", Dist::Kind::Sorted, 2, false, 0},
        {"const", Dist::Kind::Const, 1, false, 0},
    };
    const Spec* spec = nullptr;
    for (const auto& s : kSpecs)
      if (fn == s.name) spec = &s;
    if (!spec) {
      error(line, fmt::format("unknown dist '{}' for '{}' (known: uniform, normal, mixed, index, "
                              "permutation, rowptr, sorted, const)", fn, p.name));
      return std::nullopt;
    }
    d.kind = spec->kind;
    if (args.size() != spec->nargs) {
      error(line, fmt::format("dist {}() of '{}' takes {} argument(s), got {}", fn, p.name,
                              spec->nargs, args.size()));
      return std::nullopt;
    }
    if (spec->type_req == 1 && !is_float(p.type)) {
      error(line, fmt::format("dist {}() needs a float or double buffer, '{}' is {}", fn, p.name,
                              c_type_name(p.type)));
      return std::nullopt;
    }
    if (spec->type_req == 2 && is_float(p.type)) {
      error(line, fmt::format("dist {}() needs an integer buffer, '{}' is {}", fn, p.name,
                              c_type_name(p.type)));
      return std::nullopt;
    }
    bool ok = true;
    for (const auto& a : args) {
      if (spec->int_args) {
        auto e = expr_field(a, line, fmt::format("dist argument of '{}'", p.name), size_names_);
        if (e) d.ints.push_back(*e);
        else ok = false;
      } else {
        char* end = nullptr;
        double v = std::strtod(a.c_str(), &end);
        if (a.empty() || end != a.c_str() + a.size() || !std::isfinite(v)) {
          error(line, fmt::format("dist argument '{}' of '{}' is not a finite number", a, p.name));
          ok = false;
        } else {
          d.reals.push_back(v);
        }
      }
    }
    if (ok && (d.kind == Dist::Kind::Uniform || d.kind == Dist::Kind::Mixed ||
               d.kind == Dist::Kind::Sorted) && !(d.reals[0] < d.reals[1] ||
                                                 (!is_float(p.type) && d.reals[0] <= d.reals[1]))) {
      error(line, fmt::format("dist '{}' of '{}' has an empty range", text, p.name));
      ok = false;
    }
    if (ok && d.kind == Dist::Kind::Normal && !(d.reals[1] > 0)) {
      error(line, fmt::format("dist '{}' of '{}' needs sigma > 0", text, p.name));
      ok = false;
    }
    return ok ? std::optional<Dist>(d) : std::nullopt;
  }

  void parse_params(const toml::table& root, Task& t) {
    const toml::node* pn = root.get("params");
    if (!pn) {
      error(1, "missing required key 'params' (the function's parameters in call order)");
      return;
    }
    const toml::array* arr = pn->as_array();
    if (!arr || arr->empty()) {
      error(line_of(*pn), "'params' must be a non-empty array of tables");
      return;
    }
    // First pass: names and size params so expressions can be checked in any order.
    for (const auto& el : *arr)
      if (auto* tb = el.as_table())
        if (auto role = (*tb)["role"].value<std::string>(); role && *role == "size")
          if (auto nm = (*tb)["name"].value<std::string>()) size_names_.insert(*nm);

    std::set<std::string> seen;
    static const std::set<std::string> kParamKeys = {"name", "type", "role", "len", "dist", "value"};
    for (const auto& el : *arr) {
      const toml::table* tb = el.as_table();
      int line = line_of(el);
      if (!tb) {
        error(line, "each entry of 'params' must be a table like { name = ..., type = ..., role = ... }");
        continue;
      }
      for (auto&& [k, v] : *tb)
        if (!kParamKeys.count(std::string(k.str())))
          error(line, fmt::format("unknown key '{}' in a parameter (known: name, type, role, len, dist, value)", k.str()));
      Param p;
      p.line = line;
      p.name = required_string(*tb, "name", line);
      if (!p.name.empty() && !is_identifier(p.name))
        error(line, fmt::format("parameter name '{}' is not a C identifier", p.name));
      if (!p.name.empty() && !seen.insert(p.name).second)
        error(line, fmt::format("parameter '{}' is declared twice", p.name));
      if (!p.name.empty() && p.name == "stream")
        error(line, "parameter name 'stream' is reserved for the trailing cudaStream_t");
      std::string type = required_string(*tb, "type", line);
      bool type_ok = false;
      if (!type.empty()) {
        if (auto msg = parse_type(type, p)) error(line, fmt::format("parameter '{}': {}", p.name, *msg));
        else type_ok = true;
      }
      std::string role = required_string(*tb, "role", line);
      bool role_ok = true;
      if (role == "size") p.role = Role::Size;
      else if (role == "scalar") p.role = Role::Scalar;
      else if (role == "in") p.role = Role::In;
      else if (role == "out") p.role = Role::Out;
      else if (role == "inout") p.role = Role::InOut;
      else {
        role_ok = false;
        if (!role.empty())
          error(line, fmt::format("parameter '{}': unknown role '{}' (known: size, scalar, in, out, inout)",
                                  p.name, role));
      }
      if (type_ok && role_ok) check_param(*tb, p, line);
      if (role_ok) t.params.push_back(std::move(p));
      else ignored_params_.insert(p.name);  // reported once above; configs may still name it
    }
  }

  void check_param(const toml::table& tb, Param& p, int line) {
    bool buffer_role = p.role == Role::In || p.role == Role::Out || p.role == Role::InOut;
    if (buffer_role && !p.pointer)
      error(line, fmt::format("parameter '{}' has role {} but type {} is not a pointer", p.name,
                              role_name(p.role), c_type_name(p.type)));
    if (!buffer_role && p.pointer)
      error(line, fmt::format("parameter '{}' has role {} but is a pointer (use in, out or inout)",
                              p.name, role_name(p.role)));
    if (p.role == Role::In && p.pointer && !p.is_const)
      error(line, fmt::format("input buffer '{}' must be 'const {}*'", p.name, c_type_name(p.type)));
    if ((p.role == Role::Out || p.role == Role::InOut) && p.is_const)
      error(line, fmt::format("{} buffer '{}' cannot be const", role_name(p.role), p.name));
    if (p.role == Role::Size && p.type != ScalarType::I32 && p.type != ScalarType::I64)
      error(line, fmt::format("size parameter '{}' must be int or long long", p.name));
    const toml::node* len = tb.get("len");
    const toml::node* dist = tb.get("dist");
    const toml::node* value = tb.get("value");
    if (buffer_role && p.pointer) {
      if (!len) {
        error(line, fmt::format("buffer '{}' needs 'len', an element-count expression", p.name));
      } else if (auto s = len->value<std::string>()) {
        if (auto e = expr_field(*s, line, fmt::format("len of '{}'", p.name), size_names_)) p.len = *e;
      } else if (auto i = integer_of(*len)) {
        p.len = std::get<Expr>(parse_expr(std::to_string(*i)));
      } else {
        error(line, fmt::format("len of '{}' must be a string expression or an integer", p.name));
      }
    } else if (len) {
      error(line, fmt::format("'len' is only for buffers, '{}' is a {}", p.name, role_name(p.role)));
    }
    if (p.role == Role::In || p.role == Role::InOut) {
      if (!dist) {
        error(line, fmt::format("{} buffer '{}' needs 'dist' (e.g. \"uniform(-1, 1)\")",
                                role_name(p.role), p.name));
      } else if (auto s = dist->value<std::string>()) {
        if (p.pointer) p.dist = parse_dist(*s, line, p);
      } else {
        error(line, fmt::format("dist of '{}' must be a string", p.name));
      }
    } else if (dist) {
      error(line, fmt::format("'dist' is only for in/inout buffers, '{}' is {}", p.name, role_name(p.role)));
    }
    if (value) {
      if (p.role != Role::Scalar) {
        error(line, fmt::format("'value' is only for scalar parameters, '{}' is {}", p.name, role_name(p.role)));
      } else if (auto v = value->value<double>()) {
        p.value = *v;
      } else {
        error(line, fmt::format("value of '{}' must be a number", p.name));
      }
    }
  }

  void parse_configs(const toml::table& root, Task& t) {
    const toml::node* cn = root.get("configs");
    if (!cn) {
      error(1, "missing required key 'configs' (a list of { name = ..., <size> = ... })");
      return;
    }
    const toml::array* arr = cn->as_array();
    if (!arr || arr->empty()) {
      error(line_of(*cn), "'configs' must be a non-empty array of tables");
      return;
    }
    std::set<std::string> names;
    for (const auto& el : *arr) {
      int line = line_of(el);
      const toml::table* tb = el.as_table();
      if (!tb) {
        error(line, "each entry of 'configs' must be a table like { name = \"tiny\", n = 5 }");
        continue;
      }
      Config c;
      c.line = line;
      c.name = required_string(*tb, "name", line);
      if (!c.name.empty() && !names.insert(c.name).second)
        error(line, fmt::format("config name '{}' is used twice", c.name));
      c.perf = c.name.rfind("perf", 0) == 0;
      for (auto&& [k, v] : *tb) {
        std::string key(k.str());
        if (key == "name") continue;
        const Param* p = t.find_param(key);
        if (!p && ignored_params_.count(key)) continue;
        if (!p) {
          error(line, fmt::format("config '{}' sets '{}', which is not a size or scalar parameter",
                                  c.name, key));
        } else if (p->role == Role::Size) {
          if (auto i = v.value_exact<int64_t>()) {
            if (*i < 0) error(line, fmt::format("config '{}': size '{}' is negative", c.name, key));
            c.sizes[key] = *i;
          } else {
            error(line, fmt::format("config '{}': size '{}' must be an integer", c.name, key));
          }
        } else if (p->role == Role::Scalar) {
          if (auto d = v.value<double>()) c.scalars[key] = *d;
          else error(line, fmt::format("config '{}': scalar '{}' must be a number", c.name, key));
        } else {
          error(line, fmt::format("config '{}' sets '{}', a {} buffer; configs set only sizes and scalars",
                                  c.name, key, role_name(p->role)));
        }
      }
      for (const auto& p : t.params) {
        if (p.role == Role::Size && !c.sizes.count(p.name))
          error(line, fmt::format("config '{}' is missing size '{}'", c.name, p.name));
        if (p.role == Role::Scalar && !p.value && !c.scalars.count(p.name))
          error(line, fmt::format("config '{}' gives no value for scalar '{}' and the parameter has no default 'value'",
                                  c.name, p.name));
      }
      t.configs.push_back(std::move(c));
    }
    if (!names.count("tiny")) error(line_of(*cn), "configs need one named \"tiny\"");
    if (std::none_of(t.configs.begin(), t.configs.end(),
                     [](const Config& c) { return c.name.rfind("odd", 0) == 0; }))
      error(line_of(*cn), "configs need one whose name starts with \"odd\" (a size that is not a multiple of 16)");
    if (std::none_of(t.configs.begin(), t.configs.end(), [](const Config& c) { return c.perf; }))
      error(line_of(*cn), "configs need one whose name starts with \"perf\" (the timed size)");
    for (const auto& c : t.configs) {
      if (c.name.rfind("odd", 0) == 0 && !c.sizes.empty() &&
          std::all_of(c.sizes.begin(), c.sizes.end(), [](const auto& kv) { return kv.second % 16 == 0; }))
        error(c.line, fmt::format("config '{}': every size is a multiple of 16; an odd config needs one that is not", c.name));
    }
  }

  void parse_tolerance(const toml::table& root, Task& t) {
    const toml::node* n = root.get("tolerance");
    if (!n) {
      error(1, "missing required key 'tolerance' (e.g. { rtol = 1e-5, atol = 1e-6 })");
      return;
    }
    const toml::table* tb = n->as_table();
    if (!tb) {
      error(line_of(*n), "'tolerance' must be a table { rtol = ..., atol = ... }");
      return;
    }
    for (auto&& [k, v] : *tb)
      if (k.str() != "rtol" && k.str() != "atol")
        error(line_of(v), fmt::format("unknown key '{}' in tolerance (known: rtol, atol)", k.str()));
    auto get = [&](const char* key, double& out) {
      const toml::node* x = tb->get(key);
      if (!x) {
        error(line_of(*n), fmt::format("tolerance is missing '{}'", key));
        return;
      }
      auto v = x->value<double>();
      if (!v || !std::isfinite(*v) || *v < 0 || *v >= 1)
        error(line_of(*x), fmt::format("tolerance '{}' must be a number in [0, 1)", key));
      else out = *v;
    };
    get("rtol", t.rtol);
    get("atol", t.atol);
  }

  void parse_cost(const toml::table& root, Task& t) {
    const toml::node* n = root.get("cost");
    if (!n) {
      error(1, "missing required key 'cost' (e.g. { flops = \"2*n\", bytes = \"12*n\" })");
      return;
    }
    const toml::table* tb = n->as_table();
    if (!tb) {
      error(line_of(*n), "'cost' must be a table { flops = \"...\", bytes = \"...\" }");
      return;
    }
    for (auto&& [k, v] : *tb)
      if (k.str() != "flops" && k.str() != "bytes")
        error(line_of(v), fmt::format("unknown key '{}' in cost (known: flops, bytes)", k.str()));
    auto get = [&](const char* key, Expr& out) {
      const toml::node* x = tb->get(key);
      if (!x) {
        error(line_of(*n), fmt::format("cost is missing '{}'", key));
        return;
      }
      std::string text;
      if (auto s = x->value<std::string>()) text = *s;
      else if (auto i = integer_of(*x)) text = std::to_string(*i);
      else {
        error(line_of(*x), fmt::format("cost '{}' must be an expression string", key));
        return;
      }
      if (auto e = expr_field(text, line_of(*x), fmt::format("cost {}", key), size_names_)) out = *e;
    };
    get("flops", t.cost_flops);
    get("bytes", t.cost_bytes);
  }
};

// Evaluates every expression at every config, so a division by zero or a negative length
// is reported against the config that causes it.
void check_config_values(const Task& t, const std::string& file, std::vector<Diagnostic>& errors) {
  for (const auto& c : t.configs) {
    for (const auto& p : t.params) {
      if (!p.pointer || p.len.empty()) continue;
      auto n = buffer_len(p, c);
      if (auto* msg = std::get_if<std::string>(&n))
        errors.push_back({file, p.line, 0, fmt::format("config '{}': len of '{}': {}", c.name, p.name, *msg)});
      else if (std::get<int64_t>(n) < 0)
        errors.push_back({file, p.line, 0, fmt::format("config '{}': len of '{}' is negative ({})",
                                                        c.name, p.name, std::get<int64_t>(n))});
      if (p.dist)
        for (const auto& e : p.dist->ints)
          if (auto v = e.eval(c.sizes); std::holds_alternative<std::string>(v))
            errors.push_back({file, p.line, 0, fmt::format("config '{}': dist of '{}': {}", c.name,
                                                            p.name, std::get<std::string>(v))});
      if (p.dist && p.dist->kind == Dist::Kind::Index) {
        auto lo = p.dist->ints[0].eval(c.sizes), hi = p.dist->ints[1].eval(c.sizes);
        auto n_ok = std::get_if<int64_t>(&n);
        if (std::holds_alternative<int64_t>(lo) && std::holds_alternative<int64_t>(hi) && n_ok &&
            *n_ok > 0 && std::get<int64_t>(lo) >= std::get<int64_t>(hi))
          errors.push_back({file, p.line, 0, fmt::format("config '{}': dist '{}' of '{}' has an empty range",
                                                          c.name, p.dist->text, p.name)});
      }
    }
    for (const Expr* e : {&t.cost_flops, &t.cost_bytes})
      if (!e->empty())
        if (auto v = e->eval(c.sizes); std::holds_alternative<std::string>(v))
          errors.push_back({file, 0, 0, fmt::format("config '{}': cost: {}", c.name, std::get<std::string>(v))});
  }
}

}  // namespace

Result<Task> parse_task_toml(const std::string& text, const std::string& file_name) {
  Loader l(file_name);
  auto t = l.parse(text);
  if (!t) return l.errors;
  check_config_values(*t, file_name, l.errors);
  if (!l.errors.empty()) return l.errors;
  return std::move(*t);
}

Result<Task> load_task(const fs::path& dir) {
  std::vector<Diagnostic> errors;
  fs::path toml_path = dir / "task.toml";
  std::string file = toml_path.string();
  auto text = read_file(toml_path);
  if (!text) return Diagnostic{file, 0, 0, "task.toml not found or unreadable"};
  auto parsed = parse_task_toml(*text, file);
  Task t;
  if (parsed.ok()) t = parsed.value();
  else errors = parsed.errors();
  t.dir = dir;

  // Folder layout: .../<category>/<name>/ must match the id.
  if (parsed.ok()) {
    std::string expect = fmt::format("{}/{}", dir.parent_path().filename().string(), dir.filename().string());
    if (t.id != expect)
      errors.push_back({file, 0, 0, fmt::format("id '{}' does not match the folder; expected \"{}\"", t.id, expect)});
  }
  t.reference = dir / "reference.c";
  if (!fs::is_regular_file(t.reference))
    errors.push_back({t.reference.string(), 0, 0, "reference.c is missing: the sequential C function is the ground truth"});
  fs::path impl_dir = dir / "impls";
  if (!fs::is_directory(impl_dir)) {
    errors.push_back({impl_dir.string(), 0, 0, "impls/ folder is missing (need >= 3 CUDA implementations)"});
  } else {
    t.impls = detail::read_impls(impl_dir, ".cu", "//", errors);
    if (t.impls.size() < 3)
      errors.push_back({impl_dir.string(), 0, 0, fmt::format("{} implementation(s) found; a task needs at least 3 with distinct strategies", t.impls.size())});
    auto naive = std::find_if(t.impls.begin(), t.impls.end(), [](const Impl& i) { return i.strategy == "naive"; });
    if (naive == t.impls.end())
      errors.push_back({impl_dir.string(), 0, 0, "impls/naive.cu is missing: every task needs the deliberately weak baseline"});
    else if (!naive->weak && !naive->header.empty())
      errors.push_back({naive->path.string(), 1, 0, "naive.cu's strategy line must say \"(weak)\": it is the deliberately weak baseline"});
  }
  if (!errors.empty()) return errors;
  return t;
}

}  // namespace cudaperf::task
