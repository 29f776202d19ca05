// The abstract values of operands and addresses, their alignment, and their text.
#include "analyzer.hpp"

#include <algorithm>

#include "../text.hpp"
#include "operands.hpp"

namespace cudaperf::analysis::coalesce {

using detail::trim;

int Analyzer::tz(const Mono& m, long long c) const {
  int z = std::min(ctz64(static_cast<unsigned long long>(c)), 16);
  for (int id : m) {
    if (id == kUnknown) continue;  // the coefficient carries its alignment
    const std::string& n = names_[id];
    if (n == "%ntid.x") z += 5;
    else if (pointer_params_.count(id)) z += 8;
  }
  return std::min(z, 16);
}

int Analyzer::value_tz(const Val& v) const {
  if (v.kind != Val::Aff) return -1;
  int z = 64;
  auto scan = [&](const Poly& p) {
    for (const auto& [m, c] : p.t) {
      int t = tz(m, c);
      if (t < 0) return false;
      z = std::min(z, t);
    }
    return true;
  };
  for (const auto& p : v.tid)
    if (!scan(p)) return -1;
  if (!scan(v.uni)) return -1;
  return z;
}

std::string Analyzer::poly_text(const Poly& p) const {
  if (p.empty()) return "0";
  std::string out;
  // constant last, other monomials in map order
  std::vector<std::pair<Mono, long long>> terms(p.t.begin(), p.t.end());
  std::stable_sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
    return a.first.empty() < b.first.empty();
  });
  for (const auto& [m, c] : terms) {
    std::string term;
    long long a = c < 0 ? -c : c;
    if (m.empty()) {
      term = std::to_string(a);
    } else {
      if (a != 1) term = std::to_string(a) + "*";
      for (size_t i = 0; i < m.size(); ++i) term += (i ? "*" : "") + names_[m[i]];
    }
    if (out.empty()) out = (c < 0 && !(m.size() == 1 && m.front() == kUnknown) ? "-" : "") + term;
    else out += (c < 0 && !(m.size() == 1 && m.front() == kUnknown) ? " - " : " + ") + term;
  }
  return out;
}

std::string Analyzer::val_text(const Val& v) const {
  if (v.kind == Val::Bottom) return "bottom";
  if (v.kind == Val::Top) return "top(" + v.why + ")";
  std::string out;
  static const char* tn[3] = {"tid.x", "tid.y", "tid.z"};
  for (int d = 0; d < 3; ++d) {
    if (v.tid[d].empty()) continue;
    std::string c = poly_text(v.tid[d]);
    bool simple = v.tid[d].t.size() == 1;
    std::string term = c == "1" ? tn[d] : (simple ? c : "(" + c + ")") + "*" + tn[d];
    out += (out.empty() ? "" : " + ") + term;
  }
  if (!v.uni.empty() || out.empty()) {
    std::string u = poly_text(v.uni);
    out = out.empty() ? u : u + " + " + out;
  }
  return out;
}

Val Analyzer::eval(const std::string& op0, const State& s) {
  std::string op = trim(op0);
  if (op.empty()) return top("empty operand");
  if (op[0] == '!') op = op.substr(1);
  if (op[0] == '{') {
    auto inner = normalize_operands({op.substr(1, op.size() >= 2 ? op.size() - 2 : 0)});
    for (const auto& e : inner) {
      Val v = eval(e, s);
      if (v.kind != Val::Aff || !v.uniform()) return top("non-affine: vector packing");
    }
    return unknown_uniform();
  }
  if (op[0] == '%') {
    if (const Val* v = s.find(reg_id(op))) return *v;
    if (op == "%tid.x" || op == "%tid.y" || op == "%tid.z") {
      Val v;
      v.kind = Val::Aff;
      v.tid[op.back() - 'x'] = make_const(1);
      return v;
    }
    if (op.rfind("%ntid.", 0) == 0 || op.rfind("%ctaid.", 0) == 0 || op.rfind("%nctaid.", 0) == 0) return symval(op);
    if (op == "%laneid") {
      Val v = unknown_uniform();
      v.tid[0] = make_const(1);
      return v;
    }
    static const char* uniform_specials[] = {"%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock",
                                             "%globaltimer", "%envreg", "%dynamic_smem_size", "%total_smem_size",
                                             "%cluster", "%nclusterid", "%clusterid", "%is_explicit_cluster"};
    for (const char* u : uniform_specials)
      if (op.rfind(u, 0) == 0) return unknown_uniform();
    if (op.rfind("%lanemask", 0) == 0) return top("lane mask");
    return Val{};  // register not defined on this path (yet)
  }
  if (auto c = parse_int(op)) return cst(*c);
  if (is_float_imm(op)) return unknown_uniform();
  // A named variable's address, possibly with an offset.
  std::string name = op;
  long long off = 0;
  auto plus = op.find('+');
  if (plus != std::string::npos) {
    name = trim(op.substr(0, plus));
    if (auto c = parse_int(op.substr(plus + 1))) off = *c;
  }
  return vadd(symval("&" + name), cst(off));
}

Val Analyzer::address(const std::string& mem0, const State& s) {
  std::string mem = trim(mem0);
  if (mem.size() < 2 || mem.front() != '[') return top("unparsed memory operand");
  std::string inner = trim(mem.substr(1, mem.size() - 2));
  size_t cut = std::string::npos;
  for (size_t i = 1; i < inner.size(); ++i)
    if (inner[i] == '+' || inner[i] == '-') {
      cut = i;
      break;
    }
  if (cut == std::string::npos) return eval(inner, s);
  std::string base = trim(inner.substr(0, cut));
  std::string rest = trim(inner.substr(inner[cut] == '+' ? cut + 1 : cut));
  auto off = parse_int(rest);
  Val b = eval(base, s);
  if (!off) return top("unparsed memory operand");
  Val r = vadd(b, cst(*off));
  r.space = b.space;
  return r;
}

Val Analyzer::generic(const std::vector<std::string>& srcs, const State& s, const std::string& opcode) {
  bool uniform = true;
  for (const auto& o : srcs) {
    Val v = o.size() && o[0] == '[' ? address(o, s) : eval(o, s);
    if (v.kind == Val::Bottom) return Val{};
    if (v.kind == Val::Top) {
      if (v.why.find("gather") != std::string::npos) return v;
      uniform = false;
      continue;
    }
    if (!v.uniform()) uniform = false;
  }
  if (uniform) return unknown_uniform();
  return top("non-affine: " + opcode);
}

}  // namespace cudaperf::analysis::coalesce
