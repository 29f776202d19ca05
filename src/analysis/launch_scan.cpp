// Launch shapes from host code (include/cudaperf/analysis/launch_scan.hpp; rules in
// docs/analysis.md, "Launch shape").
//
// Not a C++ parser: a tokenizer, a brace-scope tracker, a statement-level recogniser of simple
// declarations (`[static] [constexpr|const] <integer type|dim3|auto> NAME = expr;`, `dim3 NAME(a, b)`,
// `#define NAME expr`) and a constant-expression evaluator (launch_scan/scanner.hpp). Whatever it does
// not understand is reported as unknown, with the reason; it never guesses. This file: the public
// entry points and the matching of launch sites to a kernel's demangled name.
#include "cudaperf/analysis/launch_scan.hpp"

#include <cctype>
#include <fmt/format.h>
#include <set>

#include "launch_scan/scanner.hpp"
#include "launch_scan/values.hpp"
#include "launch_scan/vocabulary.hpp"
#include "text.hpp"

namespace cudaperf::analysis {

namespace {

using launch::canonical_type;
using launch::parse_int_literal;

struct KernelName {
  std::string base;
  bool templated = false;
  std::vector<TemplateArg> args;
};

KernelName parse_demangled(std::string_view n) {
  std::string s(n);
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  // Cut at the first '(' outside template brackets, except "(anonymous namespace)".
  std::string name;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' && s.compare(i, 21, "(anonymous namespace)") == 0) {
      name += "(anonymous namespace)";
      i += 20;
      continue;
    }
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0) break;
    name += c;
  }
  KernelName k;
  size_t lt = std::string::npos;
  depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {  // the first '<' at depth 0 after the last '::'
    if (name[i] == '<' && depth++ == 0 && lt == std::string::npos) lt = i;
    if (name[i] == '>') --depth;
    if (depth == 0 && name.compare(i, 2, "::") == 0) lt = std::string::npos;
  }
  std::string head = lt == std::string::npos ? name : name.substr(0, lt);
  size_t colons = head.rfind("::");
  k.base = colons == std::string::npos ? head : head.substr(colons + 2);
  while (!k.base.empty() && k.base.back() == ' ') k.base.pop_back();
  if (lt != std::string::npos) {
    k.templated = true;
    size_t close = name.rfind('>');
    std::string inner = close > lt ? name.substr(lt + 1, close - lt - 1) : "";
    std::vector<std::string> parts;
    std::string cur;
    depth = 0;
    for (char c : inner) {
      if (c == '<' || c == '(') ++depth;
      if (c == '>' || c == ')') --depth;
      if (c == ',' && depth == 0) {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    parts.push_back(cur);
    for (std::string p : parts) {
      p = detail::trim(p, " ");  // c++filt separates arguments with ", "
      TemplateArg a;
      a.text = p;
      std::string num = p;
      if (!num.empty() && num.front() == '(') {  // (char)65
        size_t e = num.find(')');
        num = e == std::string::npos ? "" : num.substr(e + 1);
      }
      bool neg = !num.empty() && num.front() == '-';
      if (neg) num = num.substr(1);
      if (p == "true" || p == "false") {
        a.kind = TemplateArg::Number;
        a.number = p == "true";
      } else if (auto v = parse_int_literal(num); v && !num.empty() && std::isdigit(static_cast<unsigned char>(num[0]))) {
        a.kind = TemplateArg::Number;
        a.number = neg ? -*v : *v;
      } else if (!canonical_type(p).empty()) {
        a.kind = TemplateArg::Type;
        a.text = canonical_type(p);
      }
      k.args.push_back(a);
    }
  }
  return k;
}

bool may_launch(const LaunchSite& s, const KernelName& k) {
  if (s.base != k.base) return false;
  if (!s.templated) return true;  // arguments deduced or defaulted
  if (!k.templated) return false;
  for (size_t i = 0; i < s.template_args.size() && i < k.args.size(); ++i) {
    const auto& a = s.template_args[i];
    const auto& b = k.args[i];
    if (a.kind == TemplateArg::Unknown || b.kind == TemplateArg::Unknown) continue;
    if (a.kind != b.kind) return false;
    if (a.kind == TemplateArg::Number && a.number != b.number) return false;
    if (a.kind == TemplateArg::Type && a.text != b.text) return false;
  }
  return true;
}

// One value for the kernel from its sites, or why not.
std::optional<int64_t> resolve(const std::vector<const LaunchSite*>& sites, LaunchValue LaunchSite::*field,
                               const char* what, const char* plural, std::string& note) {
  if (sites.empty()) {
    note = "no launch of this kernel in the file";
    return std::nullopt;
  }
  std::vector<const LaunchSite*> unknown_sites;
  std::set<int64_t> values;
  for (const auto* s : sites) {
    const LaunchValue& v = s->*field;
    if (!v.known())
      unknown_sites.push_back(s);
    else
      values.insert(v.values[0]);
  }
  if (!unknown_sites.empty()) {
    const LaunchSite* s = unknown_sites.front();
    const LaunchValue& v = s->*field;
    note = fmt::format("{} '{}' at line {}: {}", what, v.expr, s->line, v.why);
    if (unknown_sites.size() > 1) note += fmt::format(" (and {} more launch(es) not resolved)", unknown_sites.size() - 1);
    return std::nullopt;
  }
  if (values.size() > 1) {
    std::string list;
    for (const auto* s : sites)
      list += fmt::format("{}{} (line {})", list.empty() ? "" : ", ", (s->*field).values[0], s->line);
    note = fmt::format("launched with different {}: {}", plural, list);
    return std::nullopt;
  }
  note.clear();
  return *values.begin();
}

}  // namespace

std::vector<LaunchSite> scan_launches(std::string_view source) {
  launch::Scanner s(source);
  return s.launches();
}

KernelLaunchShape launch_shape_for(const std::vector<LaunchSite>& sites, std::string_view demangled_name) {
  KernelLaunchShape k;
  KernelName name = parse_demangled(demangled_name);
  for (const auto& s : sites)
    if (may_launch(s, name)) k.sites.push_back(&s);
  k.block_size = resolve(k.sites, &LaunchSite::block, "block size", "block sizes", k.block_note);
  k.dynamic_smem = resolve(k.sites, &LaunchSite::dynamic_smem, "dynamic shared memory", "dynamic shared memory sizes",
                           k.smem_note);
  return k;
}

}  // namespace cudaperf::analysis
