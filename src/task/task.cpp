// Small helpers of the task model: names, declarations, lengths, roofline floor.
#include <algorithm>
#include <fmt/format.h>

#include "cudaperf/task/task.hpp"

namespace cudaperf::task {


const char* role_name(Role r) {
  switch (r) {
    case Role::Size: return "size";
    case Role::Scalar: return "scalar";
    case Role::In: return "in";
    case Role::Out: return "out";
    case Role::InOut: return "inout";
  }
  return "?";
}

const char* c_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::I8: return "signed char";
    case ScalarType::U8: return "unsigned char";
    case ScalarType::I32: return "int";
    case ScalarType::U32: return "unsigned int";
    case ScalarType::I64: return "long long";
    case ScalarType::U64: return "unsigned long long";
    case ScalarType::F32: return "float";
    case ScalarType::F64: return "double";
  }
  return "?";
}

size_t type_size(ScalarType t) {
  switch (t) {
    case ScalarType::I8:
    case ScalarType::U8: return 1;
    case ScalarType::I32:
    case ScalarType::U32:
    case ScalarType::F32: return 4;
    case ScalarType::I64:
    case ScalarType::U64:
    case ScalarType::F64: return 8;
  }
  return 0;
}

bool is_float(ScalarType t) { return t == ScalarType::F32 || t == ScalarType::F64; }

std::string Param::c_decl() const {
  return fmt::format("{}{}{} {}", is_const ? "const " : "", c_type_name(type), pointer ? "*" : "", name);
}

std::string tag_value(const std::vector<std::string>& tags, const std::string& key) {
  for (const auto& tg : tags)
    if (tg.size() > key.size() && tg.compare(0, key.size(), key) == 0 && tg[key.size()] == ':') return tg.substr(key.size() + 1);
  return "";
}

bool has_tag(const std::vector<std::string>& tags, const std::string& tag) { return std::find(tags.begin(), tags.end(), tag) != tags.end(); }

const Param* Task::find_param(const std::string& n) const {
  auto it = std::find_if(params.begin(), params.end(), [&](const Param& p) { return p.name == n; });
  return it == params.end() ? nullptr : &*it;
}

bool Task::uses_double() const {
  return std::any_of(params.begin(), params.end(),
                     [](const Param& p) { return p.pointer && p.type == ScalarType::F64; });
}

static std::string param_list(const Task& t) {
  std::vector<std::string> parts;
  for (const auto& p : t.params) parts.push_back(p.c_decl());
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string Task::c_reference_declaration() const {
  return fmt::format("/* generated from {}/task.toml */\nvoid {}({});\n", id, function, param_list(*this));
}

std::string Task::cuda_declaration() const {
  std::string params_text = param_list(*this);
  return fmt::format("/* generated from {}/task.toml */\n#include <cuda_runtime.h>\nextern \"C\" void {}({}{}cudaStream_t stream);\n",
                     id, function, params_text, params_text.empty() ? "" : ", ");
}

std::variant<int64_t, std::string> buffer_len(const Param& p, const Config& c) {
  if (p.len.empty()) return std::string("no len");
  return p.len.eval(c.sizes);
}

std::variant<Roofline, std::string> roofline(const Task& t, const Config& c, const Peaks& peaks) {
  auto f = t.cost_flops.eval(c.sizes);
  if (auto* m = std::get_if<std::string>(&f)) return *m;
  auto b = t.cost_bytes.eval(c.sizes);
  if (auto* m = std::get_if<std::string>(&b)) return *m;
  Roofline r;
  r.flops = static_cast<double>(std::get<int64_t>(f));
  r.bytes = static_cast<double>(std::get<int64_t>(b));
  r.floor_s = std::max(r.bytes / peaks.bandwidth_bytes_per_s,
                       r.flops / (t.uses_double() ? peaks.fp64_flops_per_s : peaks.fp32_flops_per_s));
  return r;
}

}  // namespace cudaperf::task
