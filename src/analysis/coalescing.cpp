#include "cudaperf/analysis/coalescing.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cudaperf::analysis {
namespace {

// ---------------------------------------------------------------------------------------------
// Polynomials in uniform symbols. Symbol 0 is "?" (an unknown warp-uniform value): any monomial
// containing it collapses into the monomial {0} with coefficient 1.

constexpr int kUnknown = 0;
using Mono = std::vector<int>;  // sorted symbol ids; empty = constant term

struct Poly {
  std::map<Mono, long long> t;
  bool operator==(const Poly&) const = default;
  bool empty() const { return t.empty(); }
  bool has_unknown() const { return t.count(Mono{kUnknown}) != 0; }
  bool is_const() const { return t.empty() || (t.size() == 1 && t.begin()->first.empty()); }
  long long constant() const {
    auto it = t.find(Mono{});
    return it == t.end() ? 0 : it->second;
  }
};

Poly make_const(long long c) {
  Poly p;
  if (c != 0) p.t[Mono{}] = c;
  return p;
}
Poly make_sym(int id) {
  Poly p;
  p.t[Mono{id}] = 1;
  return p;
}

int ctz64(unsigned long long v) { return v == 0 ? 64 : __builtin_ctzll(v); }

// "?" carries a coefficient 2^k: an unknown uniform multiple of 2^k (k <= 16).
long long unknown_coef(int k) { return 1LL << std::clamp(k, 0, 16); }

void add_term(Poly& p, const Mono& m, long long c) {
  if (c == 0) return;
  if (!m.empty() && m.front() == kUnknown) {
    auto it = p.t.find(Mono{kUnknown});
    int k = ctz64(static_cast<unsigned long long>(c));
    if (it != p.t.end()) k = std::min(k, ctz64(static_cast<unsigned long long>(it->second)));
    p.t[Mono{kUnknown}] = unknown_coef(k);
    return;
  }
  long long& slot = p.t[m];
  long long sum = 0;
  if (__builtin_add_overflow(slot, c, &sum)) {
    p.t.erase(m);
    add_term(p, Mono{kUnknown}, 1);
    return;
  }
  slot = sum;
  if (slot == 0) p.t.erase(m);
}

Poly padd(const Poly& a, const Poly& b) {
  Poly r = a;
  for (const auto& [m, c] : b.t) add_term(r, m, c);
  return r;
}

Poly pscale(const Poly& a, long long k) {
  Poly r;
  if (k == 0) return r;
  for (const auto& [m, c] : a.t) {
    long long v = 0;
    if (!m.empty() && m.front() == kUnknown) {
      add_term(r, m, unknown_coef(ctz64(static_cast<unsigned long long>(c)) + ctz64(static_cast<unsigned long long>(k))));
      continue;
    }
    if (__builtin_mul_overflow(c, k, &v)) {
      add_term(r, Mono{kUnknown}, 1);
      continue;
    }
    add_term(r, m, v);
  }
  return r;
}

Poly pmul(const Poly& a, const Poly& b) {
  Poly r;
  for (const auto& [ma, ca] : a.t) {
    for (const auto& [mb, cb] : b.t) {
      Mono m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      long long v = 0;
      if (!m.empty() && m.front() == kUnknown) {
        add_term(r, Mono{kUnknown},
                 unknown_coef(ctz64(static_cast<unsigned long long>(ca)) + ctz64(static_cast<unsigned long long>(cb))));
        continue;
      }
      if (__builtin_mul_overflow(ca, cb, &v)) {
        add_term(r, Mono{kUnknown}, 1);
        continue;
      }
      add_term(r, m, v);
    }
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Abstract values.

enum Space : int { kNoSpace = 0, kGlobal = 1, kParamPtr = 2, kShared = 3, kLocal = 4, kConst = 5 };

struct Val {
  enum Kind { Bottom, Aff, Top } kind = Bottom;
  Poly tid[3];
  Poly uni;
  int space = kNoSpace;
  std::string why;  // for Top

  bool uniform() const { return kind == Aff && tid[0].empty() && tid[1].empty() && tid[2].empty(); }
  bool is_const() const { return uniform() && uni.is_const(); }
  bool same_form(const Val& o) const {
    return kind == o.kind && uni == o.uni && tid[0] == o.tid[0] && tid[1] == o.tid[1] && tid[2] == o.tid[2];
  }
  bool same_tid(const Val& o) const { return tid[0] == o.tid[0] && tid[1] == o.tid[1] && tid[2] == o.tid[2]; }
};

Val top(std::string why) {
  Val v;
  v.kind = Val::Top;
  v.why = std::move(why);
  return v;
}
Val cst(long long c) {
  Val v;
  v.kind = Val::Aff;
  v.uni = make_const(c);
  return v;
}
Val unknown_uniform() {
  Val v;
  v.kind = Val::Aff;
  v.uni = make_sym(kUnknown);
  return v;
}

Val vadd(const Val& a, const Val& b) {
  if (a.kind == Val::Top) return a;
  if (b.kind == Val::Top) return b;
  if (a.kind == Val::Bottom || b.kind == Val::Bottom) return Val{};
  Val r;
  r.kind = Val::Aff;
  for (int d = 0; d < 3; ++d) r.tid[d] = padd(a.tid[d], b.tid[d]);
  r.uni = padd(a.uni, b.uni);
  r.space = a.space ? a.space : b.space;
  return r;
}

Val vscale(const Val& a, long long k) {
  if (a.kind != Val::Aff) return a;
  Val r;
  r.kind = Val::Aff;
  for (int d = 0; d < 3; ++d) r.tid[d] = pscale(a.tid[d], k);
  r.uni = pscale(a.uni, k);
  return r;
}

Val vmul(const Val& a, const Val& b) {
  if (a.kind == Val::Top) return a;
  if (b.kind == Val::Top) return b;
  if (a.kind == Val::Bottom || b.kind == Val::Bottom) return Val{};
  if (!a.uniform() && !b.uniform()) return top("non-affine: product of two thread-dependent values");
  const Val& u = a.uniform() ? a : b;
  const Val& o = a.uniform() ? b : a;
  Val r;
  r.kind = Val::Aff;
  for (int d = 0; d < 3; ++d) r.tid[d] = pmul(o.tid[d], u.uni);
  r.uni = pmul(o.uni, u.uni);
  return r;
}

// Join at a control-flow merge, into `a`. `divergent`: the merge reconverges a branch on a
// thread-dependent predicate, so lanes may come from different paths. `uni_tz(a.uni, b.uni)`: the
// alignment (trailing zero bits) both uniform parts share, needed only when two forms differ.
template <class SharedTz>
void vjoin_into(Val& a, const Val& b, bool divergent, SharedTz uni_tz) {
  if (a.kind == Val::Bottom) {
    a = b;
    return;
  }
  if (b.kind == Val::Bottom || a.kind == Val::Top) return;
  if (b.kind == Val::Top) {
    a = b;
    return;
  }
  if (a.same_form(b)) {
    if (a.space != b.space) a.space = a.space && b.space ? kNoSpace : (a.space | b.space);
    return;
  }
  if (!a.same_tid(b)) {
    a = top("thread-index coefficients differ between joining paths");
    return;
  }
  if (divergent) {
    a = top("depends on divergent control flow");
    return;
  }
  const int z = uni_tz(a.uni, b.uni);
  a.uni = Poly{};  // an unknown uniform value, keeping the alignment both sides share
  a.uni.t[Mono{kUnknown}] = unknown_coef(z);
  a.space = a.space == b.space ? a.space : kNoSpace;
}

// ---------------------------------------------------------------------------------------------
// Text helpers.

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(std::string(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

// Re-splits operands at top-level commas (a parser may or may not keep "{a, b}" together).
std::vector<std::string> normalize_operands(const std::vector<std::string>& ops) {
  std::string all;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i) all += ',';
    all += ops[i];
  }
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : all) {
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') depth = std::max(0, depth - 1);
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

std::optional<long long> parse_int(const std::string& s0) {
  std::string s = trim(s0);
  if (s.empty()) return std::nullopt;
  if (s.size() > 1 && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
  bool neg = false;
  size_t i = 0;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    i = 1;
  }
  if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  if (s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D'))
    return std::nullopt;  // float immediate
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s.c_str() + i, &end, 0);
  if (errno != 0 || end == nullptr || *end != '\0') return std::nullopt;
  long long r = static_cast<long long>(v);
  return neg ? -r : r;
}

bool is_float_imm(const std::string& s) {
  return s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D');
}

bool is_int_type(const std::string& t) {
  if (t.size() < 2) return false;
  if (t[0] != 's' && t[0] != 'u' && t[0] != 'b') return false;
  return t == "s8" || t == "s16" || t == "s32" || t == "s64" || t == "u8" || t == "u16" || t == "u32" || t == "u64" ||
         t == "b8" || t == "b16" || t == "b32" || t == "b64";
}

// The last dotted component that names a type ("ld.global.nc.v4.f32" -> "f32").
std::string last_type(const std::vector<std::string>& parts) {
  for (size_t i = parts.size(); i-- > 1;)
    if (type_bytes(parts[i]) > 0) return parts[i];
  return "";
}

bool has_part(const std::vector<std::string>& parts, std::string_view p) {
  return std::find(parts.begin(), parts.end(), p) != parts.end();
}

int state_space(const std::vector<std::string>& parts) {
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p == "global") return kGlobal;
    if (p.rfind("shared", 0) == 0) return kShared;
    if (p == "local") return kLocal;
    if (p == "const") return kConst;
    if (p.rfind("param", 0) == 0) return kParamPtr;  // param state space (not a pointer)
  }
  return kNoSpace;
}

// ---------------------------------------------------------------------------------------------
// The analysis of one kernel.

// The abstract state at one program point, over the kernel's destination registers (dense ids). A
// register is absent until an instruction defines it; it may then hold bottom, which is not the same
// as absent for a predicate (see pred_uniform). Used as the working state while interpreting a block;
// block entry and exit states are kept as RegVals, restricted to the registers live there.
class State {
 public:
  explicit State(size_t regs = 0) : val_(regs), has_(regs, 0) {}
  const Val* find(int id) const { return id >= 0 && has_[id] ? &val_[id] : nullptr; }
  Val* find(int id) { return id >= 0 && has_[id] ? &val_[id] : nullptr; }
  void set(int id, Val v) {
    if (!has_[id]) {
      has_[id] = 1;
      touched_.push_back(id);
    }
    val_[id] = std::move(v);
  }
  void clear() {  // the values stay allocated until overwritten
    for (int id : touched_) has_[id] = 0;
    touched_.clear();
  }

 private:
  std::vector<Val> val_;
  std::vector<char> has_;
  std::vector<int> touched_;
};

using RegVals = std::vector<std::pair<int, Val>>;  // sorted by register id

// One instruction, decoded once.
struct Decoded {
  std::vector<std::string> parts;  // opcode split at '.'
  std::vector<std::string> ops;    // operands re-split at top-level commas
  std::vector<std::string> srcs;   // ops[1..] of an instruction that defines (the sources)
  bool defines = false;            // ops[0] names destination registers
  std::vector<int> dests;          // their register ids (-1 for the sink "_")
  std::vector<int> uses, kills;    // registers read (for liveness, generously) and overwritten
};

class Analyzer {
 public:
  explicit Analyzer(const PtxKernel& k) : k_(k) {
    names_.push_back("?");
    decode();
    prepass();
  }

  void run();
  std::vector<GlobalAccess> accesses();
  std::string address_text(size_t instr);

 private:
  const PtxKernel& k_;
  std::vector<std::string> names_;
  std::map<std::string, int> ids_;
  std::set<int> pointer_params_;
  std::vector<Decoded> dec_;                        // parallel to k_.instrs
  std::unordered_map<std::string, int> reg_ids_;    // destination register name -> dense id
  std::vector<std::vector<int>> live_in_, live_out_;  // per block, sorted register ids
  std::vector<RegVals> in_, out_;                   // per block, restricted to live_in_ / live_out_
  std::vector<char> loop_header_;
  std::vector<std::vector<int>> region_branches_;  // per join block: blocks whose branch may diverge into it

  int sym(const std::string& name) {
    auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    int id = static_cast<int>(names_.size());
    names_.push_back(name);
    ids_[name] = id;
    return id;
  }
  Val symval(const std::string& name) {
    Val v;
    v.kind = Val::Aff;
    v.uni = make_sym(sym(name));
    return v;
  }
  int reg_id(const std::string& name) const {
    auto it = reg_ids_.find(name);
    return it == reg_ids_.end() ? -1 : it->second;
  }

  std::string param_symbol(const std::string& pname) const {
    for (size_t i = 0; i < k_.params.size(); ++i)
      if (k_.params[i] == pname) return "param_" + std::to_string(i);
    auto pos = pname.rfind("_param_");
    if (pos != std::string::npos) return pname.substr(pos + 1);
    return "";
  }

  void decode();
  void reads(const std::string& op, std::vector<int>& out) const;
  void liveness();
  void dominance();
  void prepass();
  void transfer(size_t instr, State& s);
  Val eval(const std::string& op, const State& s);
  Val address(const std::string& mem, const State& s);
  Val generic(const std::vector<std::string>& srcs, const State& s, const std::string& opcode);
  bool pred_uniform(const std::string& guard, const State& s) const {
    if (guard.empty()) return true;
    const Val* v = s.find(reg_id(guard[0] == '!' ? guard.substr(1) : guard));
    if (v == nullptr) return true;  // undefined yet: the fixpoint revisits
    return v->kind != Val::Top && v->uniform();
  }
  bool branch_divergent(int b, const State& out) const;
  void load(const RegVals& from, State& s) const {
    for (const auto& [id, v] : from) s.set(id, v);
  }
  int tz(const Mono& m, long long c) const;  // trailing zero bits of the monomial's values (capped)
  int value_tz(const Val& v) const;
  int poly_tz(const Poly& p) const {
    int z = 64;
    for (const auto& [m, c] : p.t) z = std::min(z, tz(m, c));
    return z;
  }
  void join_into(Val& a, const Val& b, bool divergent) const {
    vjoin_into(a, b, divergent, [this](const Poly& x, const Poly& y) { return std::min(poly_tz(x), poly_tz(y)); });
  }
  Val join(Val a, const Val& b, bool divergent) const {
    join_into(a, b, divergent);
    return a;
  }
  std::string poly_text(const Poly& p) const;
  std::string val_text(const Val& v) const;
};

void Analyzer::decode() {
  static const std::set<std::string> no_def = {"st",   "red",  "bra",      "bar",      "barrier", "ret",   "exit",
                                               "membar", "fence", "prefetch", "prefetchu", "trap",  "brkpt", "call",
                                               "cp",   "pmevent", "nanosleep", "griddepcontrol", "stmatrix",
                                               "tensormap", "multimem", "discard", "applypriority", "createpolicy"};
  dec_.resize(k_.instrs.size());
  std::vector<std::vector<std::string>> dest_names(k_.instrs.size());
  for (size_t i = 0; i < k_.instrs.size(); ++i) {
    Decoded& d = dec_[i];
    d.parts = opcode_parts(k_.instrs[i].opcode);
    d.ops = normalize_operands(k_.instrs[i].operands);
    const auto& ops = d.ops;
    d.defines = !(ops.empty() || no_def.count(d.parts[0]) || ops[0].empty() || ops[0][0] == '[');
    if (!d.defines) continue;
    d.srcs.assign(ops.begin() + 1, ops.end());
    // Destinations: "%p1|%p2", "{%f1, %f2}", or a register.
    if (ops[0][0] == '{') {
      for (auto& n : normalize_operands({ops[0].substr(1, ops[0].size() - 2)})) dest_names[i].push_back(trim(n));
    } else {
      for (auto& n : split(ops[0], '|')) dest_names[i].push_back(trim(n));
    }
    for (const auto& n : dest_names[i])
      if (!n.empty() && n != "_") reg_ids_.emplace(n, static_cast<int>(reg_ids_.size()));
  }
  for (size_t i = 0; i < k_.instrs.size(); ++i) {
    Decoded& d = dec_[i];
    const std::string& guard = k_.instrs[i].guard;
    for (const auto& n : dest_names[i]) d.dests.push_back(n.empty() || n == "_" ? -1 : reg_id(n));
    // Every register an operand names may be read: by the transfer function, or by accesses() for a
    // memory operand. A guarded definition reads the old value; an unguarded one overwrites it.
    for (size_t o = d.defines ? 1 : 0; o < d.ops.size(); ++o) reads(d.ops[o], d.uses);
    if (!guard.empty()) reads(guard[0] == '!' ? guard.substr(1) : guard, d.uses);
    for (int r : d.dests)
      if (r >= 0) (guard.empty() ? d.kills : d.uses).push_back(r);
  }
}

// The registers eval/address may look up for an operand (a superset).
void Analyzer::reads(const std::string& op0, std::vector<int>& out) const {
  auto add = [&](const std::string& n) {
    int id = reg_id(n);
    if (id >= 0) out.push_back(id);
  };
  for (const auto& r : operand_registers(op0)) add(r);
  std::string op = trim(op0);
  if (!op.empty() && op[0] == '!') op = op.substr(1);
  if (op.empty()) return;
  add(op);
  if (op[0] == '{' || op[0] == '[') {
    std::string inner = op.substr(1, op.size() >= 2 ? op.size() - 2 : 0);
    for (const auto& e : normalize_operands({inner})) reads(e, out);
    inner = trim(inner);
    for (size_t i = 1; i < inner.size(); ++i)
      if (inner[i] == '+' || inner[i] == '-') {
        add(trim(inner.substr(0, i)));
        break;
      }
  }
}

// Live registers at block entries and exits (backward dataflow over the edges the forward
// fixpoint joins along: p -> b for every p in b's preds).
void Analyzer::liveness() {
  const int n = static_cast<int>(k_.blocks.size());
  const size_t words = (reg_ids_.size() + 63) / 64;
  using Bits = std::vector<uint64_t>;
  std::vector<Bits> gen(n, Bits(words, 0)), kill(n, Bits(words, 0)), in(n, Bits(words, 0)), out(n, Bits(words, 0));
  auto set = [](Bits& b, int r) { b[r / 64] |= 1ULL << (r % 64); };
  auto get = [](const Bits& b, int r) { return (b[r / 64] >> (r % 64)) & 1; };
  std::vector<std::vector<int>> succ(n);
  for (int b = 0; b < n; ++b) {
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n) succ[p].push_back(b);
    const auto& ins = k_.blocks[b].instrs;
    for (auto it = ins.rbegin(); it != ins.rend(); ++it) {
      if (*it >= k_.instrs.size()) continue;
      const Decoded& d = dec_[*it];
      for (int r : d.kills) set(kill[b], r), gen[b][r / 64] &= ~(1ULL << (r % 64));
      for (int r : d.uses) set(gen[b], r);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = n - 1; b >= 0; --b) {
      Bits o(words, 0);
      for (int s : succ[b])
        for (size_t w = 0; w < words; ++w) o[w] |= in[s][w];
      Bits i(words, 0);
      for (size_t w = 0; w < words; ++w) i[w] = gen[b][w] | (o[w] & ~kill[b][w]);
      if (i != in[b] || o != out[b]) {
        in[b] = std::move(i);
        out[b] = std::move(o);
        changed = true;
      }
    }
  }
  live_in_.assign(n, {});
  live_out_.assign(n, {});
  for (int b = 0; b < n; ++b)
    for (int r = 0; r < static_cast<int>(reg_ids_.size()); ++r) {
      if (get(in[b], r)) live_in_[b].push_back(r);
      if (get(out[b], r)) live_out_[b].push_back(r);
    }
}

void Analyzer::prepass() {
  // Pointer parameters: 64-bit params loaded into a register that cvta.to.global converts.
  std::map<std::string, std::string> reg_param;
  for (const auto& d : dec_) {
    const auto& parts = d.parts;
    const auto& ops = d.ops;
    if (parts[0] == "ld" && has_part(parts, "param") && ops.size() == 2 && ops[1].size() > 2) {
      std::string name = trim(ops[1].substr(1, ops[1].size() - 2));
      if (name.find('+') == std::string::npos) reg_param[ops[0]] = param_symbol(name);
    } else if (parts[0] == "cvta" && has_part(parts, "to") && has_part(parts, "global") && ops.size() == 2) {
      auto it = reg_param.find(ops[1]);
      if (it != reg_param.end() && !it->second.empty()) pointer_params_.insert(sym(it->second));
    }
  }
}

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

void Analyzer::transfer(size_t instr, State& s) {
  const PtxInstruction& in = k_.instrs[instr];
  const Decoded& dc = dec_[instr];
  if (!dc.defines) return;
  const std::vector<std::string>& parts = dc.parts;
  const std::string& root = parts[0];
  const std::vector<std::string>& srcs = dc.srcs;
  auto src = [&](size_t i) { return i < srcs.size() ? eval(srcs[i], s) : top("missing operand"); };
  const std::string type = last_type(parts);
  const bool int_op = is_int_type(type);

  Val r;
  if (root == "mov" && srcs.size() == 1) {
    if (dc.dests.size() > 1) {  // unpack: mov.b64 {%r1, %r2}, %rd1
      r = generic(srcs, s, in.opcode);
    } else {
      r = src(0);
    }
  } else if ((root == "add" || root == "sub") && int_op && !has_part(parts, "cc") && !has_part(parts, "sat") &&
             srcs.size() == 2) {
    Val a = src(0), b = src(1);
    r = root == "add" ? vadd(a, b) : vadd(a, vscale(b, -1));
    if (root == "add") r.space = a.space ? a.space : b.space;
    else r.space = a.space;
  } else if ((root == "mul" || root == "mad") && int_op && (has_part(parts, "lo") || has_part(parts, "wide")) &&
             !has_part(parts, "cc")) {
    r = vmul(src(0), src(1));
    if (root == "mad") {
      Val c = src(2);
      int sp = c.space;
      r = vadd(r, c);
      r.space = sp;
    }
  } else if (root == "shl" && int_op && srcs.size() == 2) {
    Val a = src(0), b = src(1);
    if (b.is_const() && b.uni.constant() >= 0 && b.uni.constant() < 63) r = vscale(a, 1LL << b.uni.constant());
    else r = generic(srcs, s, in.opcode);
  } else if ((root == "shr" || root == "div" || root == "rem") && int_op && srcs.size() == 2) {
    Val a = src(0), b = src(1);
    const bool is_signed = type[0] == 's';
    int bits = type_bytes(type) * 8;
    if (a.is_const() && b.is_const()) {
      long long x = a.uni.constant(), y = b.uni.constant();
      if (root == "shr") {
        if (y < 0 || y >= 64) r = unknown_uniform();
        else if (is_signed) r = cst(x >> y);
        else {
          unsigned long long ux = static_cast<unsigned long long>(x);
          if (bits < 64) ux &= (1ULL << bits) - 1;
          r = cst(static_cast<long long>(ux >> y));
        }
      } else if (y == 0 || (x == INT64_MIN && y == -1)) {
        r = unknown_uniform();
      } else {
        r = cst(root == "div" ? x / y : x % y);
      }
    } else if (b.is_const() && a.kind == Val::Aff && a.tid[0] == make_const(1)) {
      // Warp decomposition of a linear thread index (blockDim.x a multiple of 32): x/32 is uniform
      // within the warp and x%32 = tid.x + uniform.
      long long y = b.uni.constant();
      long long divisor = root == "shr" ? (y >= 5 && y < 63 ? (1LL << y) : 0) : y;
      if (divisor > 0 && divisor % 32 == 0) {
        if (root == "rem") {
          r = unknown_uniform();
          r.tid[0] = make_const(1);
        } else {
          r = unknown_uniform();
        }
      } else {
        r = generic(srcs, s, in.opcode);
      }
    } else {
      r = generic(srcs, s, in.opcode);
    }
  } else if ((root == "and" || root == "or" || root == "xor") && int_op && srcs.size() == 2) {
    Val a = src(0), b = src(1);
    if (!b.is_const() && a.is_const()) std::swap(a, b);
    const int bits = type_bytes(type) * 8;
    const unsigned long long all = bits >= 64 ? ~0ULL : ((1ULL << bits) - 1);
    if (a.is_const() && b.is_const()) {
      unsigned long long x = static_cast<unsigned long long>(a.uni.constant());
      unsigned long long y = static_cast<unsigned long long>(b.uni.constant());
      unsigned long long z = root == "and" ? (x & y) : root == "or" ? (x | y) : (x ^ y);
      r = cst(static_cast<long long>(z & all));
    } else if (b.is_const() && a.kind == Val::Aff) {
      const unsigned long long m = static_cast<unsigned long long>(b.uni.constant()) & all;
      const int z = value_tz(a);  // low z bits of a are provably zero
      const unsigned long long low = z >= 64 ? all : ((1ULL << z) - 1);
      if (root == "and" && m == all) {
        r = a;
      } else if (root == "and" && z >= 0 && ((m | low) & all) == all) {
        r = a;  // the mask only clears bits that are already zero
      } else if (root != "and" && z >= 0 && (m & ~low) == 0) {
        r = vadd(a, cst(static_cast<long long>(m)));  // disjoint bits: or/xor act as add
        r.space = a.space;
      } else if (root == "and" && a.tid[0] == make_const(1) && m >= 31 && ((m + 1) & m) == 0) {
        r = unknown_uniform();  // (x & (2^k-1)), k >= 5: tid.x + uniform within an aligned warp
        r.tid[0] = make_const(1);
      } else {
        r = generic(srcs, s, in.opcode);
      }
    } else {
      r = generic(srcs, s, in.opcode);
    }
  } else if (root == "not" && int_op && srcs.size() == 1) {
    r = vadd(vscale(src(0), -1), cst(-1));
  } else if (root == "neg" && int_op && srcs.size() == 1) {
    r = vscale(src(0), -1);
  } else if (root == "cvt" && srcs.size() == 1) {
    // cvt.dst.src: integer <-> integer keeps the value (no overflow assumed).
    std::vector<std::string> types;
    for (size_t i = 1; i < parts.size(); ++i)
      if (type_bytes(parts[i]) > 0) types.push_back(parts[i]);
    if (types.size() == 2 && is_int_type(types[0]) && is_int_type(types[1])) {
      r = src(0);
    } else {
      r = generic(srcs, s, in.opcode);
    }
  } else if (root == "cvta" && srcs.size() == 1) {
    r = src(0);
    int sp = state_space(parts);
    if (sp == kParamPtr) sp = kNoSpace;
    if (r.kind == Val::Aff) r.space = sp;
  } else if ((root == "ld" || root == "ldu") && srcs.size() == 1 && srcs[0].size() && srcs[0][0] == '[') {
    const int sp = state_space(parts);
    if (sp == kParamPtr) {
      std::string name = trim(srcs[0].substr(1, srcs[0].size() - 2));
      long long off = 0;
      auto plus = name.find('+');
      if (plus != std::string::npos) {
        if (auto c = parse_int(name.substr(plus + 1))) off = *c;
        name = trim(name.substr(0, plus));
      }
      std::string ps = param_symbol(name);
      if (ps.empty() || name.rfind("retval", 0) == 0) {
        r = top("value returned from a call");
      } else {
        r = symval(off ? ps + "+" + std::to_string(off) : ps);
        if (pointer_params_.count(sym(ps))) r.space = kParamPtr;
      }
    } else {
      Val a = address(srcs[0], s);
      if (a.kind == Val::Bottom) r = Val{};
      else if (a.kind == Val::Aff && a.uniform()) r = unknown_uniform();
      else r = top("address depends on loaded data (gather)");
    }
  } else if (root == "atom") {
    r = top("address depends on loaded data (gather): atomic result");
  } else if (root == "selp" && srcs.size() == 3) {
    Val a = src(0), b = src(1);
    r = join(a, b, !pred_uniform(srcs[2], s));
    if (a.kind == Val::Bottom || b.kind == Val::Bottom) r = Val{};
  } else if (root == "vote" || root == "activemask" || root == "match" || root == "elect") {
    r = unknown_uniform();  // the same for every lane of the warp
  } else {
    r = generic(srcs, s, in.opcode);
  }

  for (int d : dc.dests) {
    if (d < 0) continue;
    if (!in.guard.empty()) {
      const Val* old = s.find(d);
      s.set(d, join(old ? *old : Val{}, r, !pred_uniform(in.guard, s)));
    } else {
      s.set(d, r);
    }
  }
}

bool same_val(const Val& x, const Val& y) {
  if (x.kind != y.kind || x.space != y.space) return false;
  return x.kind != Val::Aff || x.same_form(y);
}

// How two states differ: `changed`, as the fixpoint's termination test sees it (same_val: kind,
// space and form); `differs`, in anything, the reasons carried by top values included (what decides
// whether the blocks reading the state must be visited again).
struct Diff {
  bool changed = false, differs = false;
};
Diff compare_states(const RegVals& a, const RegVals& b) {
  if (a.size() != b.size()) return {true, true};
  Diff d;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first || !same_val(a[i].second, b[i].second)) return {true, true};
    if (a[i].second.why != b[i].second.why) d.differs = true;
  }
  return d;
}

bool Analyzer::branch_divergent(int b, const State& out) const {
  const auto& ins = k_.blocks[b].instrs;
  if (ins.empty()) return false;
  const PtxInstruction& last = k_.instrs[ins.back()];
  if (last.guard.empty() || last.opcode.rfind("bra", 0) != 0) return false;
  if (last.opcode == "bra.uni") return false;
  return !pred_uniform(last.guard, out);
}

// Loop headers, and for every other join block the blocks on paths from its immediate dominator
// whose conditional branch could diverge into it.
void Analyzer::dominance() {
  const int n = static_cast<int>(k_.blocks.size());
  const std::vector<int> idom = immediate_dominators(block_successors(k_), 0);
  auto dominates = [&](int d, int b) {
    for (int x = b; x >= 0; x = idom[x]) {
      if (x == d) return true;
      if (idom[x] == x) break;  // the entry
    }
    return false;
  };
  for (int b = 0; b < n; ++b) {
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n && dominates(b, p)) loop_header_[b] = 1;
    if (loop_header_[b] || k_.blocks[b].preds.size() < 2) continue;
    const int d = b == 0 ? -1 : idom[b];
    std::vector<char> seen(n, 0);
    std::vector<int> work;
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n && !seen[p]) seen[p] = 1, work.push_back(p);
    while (!work.empty()) {
      int x = work.back();
      work.pop_back();
      region_branches_[b].push_back(x);
      if (x == d) continue;
      for (int p : k_.blocks[x].preds)
        if (p >= 0 && p < n && p != b && !seen[p]) seen[p] = 1, work.push_back(p);
    }
  }
}

// The forward fixpoint: rounds over the blocks in order, each block's entry state the join of its
// predecessors' exit states and of its previous entry state (monotone ascent), until a round changes
// nothing (or 200 rounds). A block is visited only when something it reads changed since its last
// visit (a predecessor's exit state, the divergence of a branch into it, or its own entry state):
// skipping it otherwise changes nothing, so the result is that of visiting every block every round.
// States hold only the registers live at that point.
void Analyzer::run() {
  const int n = static_cast<int>(k_.blocks.size());
  in_.assign(n, {});
  out_.assign(n, {});
  loop_header_.assign(n, 0);
  region_branches_.assign(n, {});
  if (n == 0) return;
  liveness();
  dominance();

  std::vector<std::vector<int>> succ(n), readers(n);  // readers[x]: blocks whose joins read x's branch
  for (int b = 0; b < n; ++b) {
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n) succ[p].push_back(b);
    for (int x : region_branches_[b]) readers[x].push_back(b);
  }
  std::vector<std::vector<char>> live_in(n, std::vector<char>(reg_ids_.size(), 0));
  for (int b = 0; b < n; ++b)
    for (int r : live_in_[b]) live_in[b][r] = 1;

  std::vector<char> divergent_branch(n, 0), dirty(n, 1);
  State s(reg_ids_.size());
  const int max_rounds = 200;
  for (int round = 0; round < max_rounds; ++round) {
    bool changed = false;
    for (int b = 0; b < n; ++b) {
      if (!dirty[b]) continue;
      dirty[b] = 0;
      bool divergent = false;
      for (int x : region_branches_[b]) divergent = divergent || divergent_branch[x];
      // entry = join of the predecessors' exits (in order), then in_[b] joined with it
      bool first = true;
      for (int p : k_.blocks[b].preds) {
        if (p < 0 || p >= n) continue;
        for (const auto& [r, v] : out_[p]) {
          if (!live_in[b][r]) continue;
          Val* cur = first ? nullptr : s.find(r);
          if (cur == nullptr) s.set(r, v);
          else join_into(*cur, v, divergent);
        }
        first = false;
      }
      RegVals entry;
      entry.reserve(live_in_[b].size());
      {
        auto it = in_[b].begin();
        for (int r : live_in_[b]) {
          const Val* old = it != in_[b].end() && it->first == r ? &(it++)->second : nullptr;
          Val* fresh = s.find(r);
          if (old) entry.emplace_back(r, *old);
          if (old && fresh) join_into(entry.back().second, *fresh, divergent);
          else if (fresh) entry.emplace_back(r, std::move(*fresh));
        }
      }
      s.clear();
      load(entry, s);
      for (size_t i : k_.blocks[b].instrs)
        if (i < k_.instrs.size()) transfer(i, s);
      const char div = branch_divergent(b, s) ? 1 : 0;
      RegVals exit;
      exit.reserve(live_out_[b].size());
      for (int r : live_out_[b])
        if (Val* v = s.find(r)) exit.emplace_back(r, std::move(*v));  // s is cleared next
      s.clear();

      const Diff din = compare_states(entry, in_[b]), dout = compare_states(exit, out_[b]);
      if (din.changed || dout.changed) changed = true;
      if (din.changed || din.differs) dirty[b] = 1;
      if (dout.changed || dout.differs)
        for (int x : succ[b]) dirty[x] = 1;
      if (div != divergent_branch[b]) {
        divergent_branch[b] = div;
        for (int x : readers[b]) dirty[x] = 1;
      }
      in_[b] = std::move(entry);
      out_[b] = std::move(exit);
    }
    if (!changed) break;
  }
}

std::string Analyzer::address_text(size_t instr) {
  if (instr >= k_.instrs.size()) return "bottom";
  const PtxInstruction& target = k_.instrs[instr];
  int b = target.block;
  if (b < 0 || b >= static_cast<int>(k_.blocks.size())) return "bottom";
  State s(reg_ids_.size());
  load(in_[b], s);
  for (size_t i : k_.blocks[b].instrs) {
    if (i == instr) {
      for (const auto& o : dec_[i].ops)
        if (!o.empty() && o[0] == '[') return val_text(address(o, s));
      return "no memory operand";
    }
    if (i < k_.instrs.size()) transfer(i, s);
  }
  return "bottom";
}

int sectors_for(long long stride, int w, long long base) {
  auto fdiv = [](long long a) { return a >= 0 ? a / 32 : -((-a + 31) / 32); };
  const long long kFar = 1LL << 40;  // beyond this, every lane has its own sectors
  if (stride > kFar || stride < -kFar || base > kFar || base < -kFar) {
    long long b = ((base % 32) + 32) % 32;
    return 32 * static_cast<int>(fdiv(b + w - 1) - fdiv(b) + 1);
  }
  std::set<long long> sec;
  for (int i = 0; i < 32; ++i) {
    long long a = base + stride * i;
    for (long long x = fdiv(a); x <= fdiv(a + w - 1); ++x) sec.insert(x);
  }
  return static_cast<int>(sec.size());
}

std::vector<GlobalAccess> Analyzer::accesses() {
  std::vector<GlobalAccess> out;
  State s(reg_ids_.size());
  for (size_t b = 0; b < k_.blocks.size(); ++b) {
    s.clear();
    load(in_[b], s);
    for (size_t idx : k_.blocks[b].instrs) {
      if (idx >= k_.instrs.size()) continue;
      const PtxInstruction& in = k_.instrs[idx];
      const auto& parts = dec_[idx].parts;
      const std::string& root = parts[0];
      const auto& ops = dec_[idx].ops;
      const bool mem_op = root == "ld" || root == "ldu" || root == "st" || root == "atom" || root == "red";
      const bool cp_async = root == "cp" && parts.size() > 1 && parts[1] == "async" && !has_part(parts, "bulk") &&
                            has_part(parts, "global");
      if (!mem_op && !cp_async) {
        transfer(idx, s);
        continue;
      }
      const int explicit_space = state_space(parts);
      std::string mem;
      if (cp_async) {
        int seen = 0;
        for (const auto& o : ops)
          if (!o.empty() && o[0] == '[' && ++seen == 2) mem = o;
      } else {
        for (const auto& o : ops)
          if (!o.empty() && o[0] == '[') {
            mem = o;
            break;
          }
      }
      if (mem.empty() || (!cp_async && explicit_space != kGlobal && explicit_space != kNoSpace)) {
        transfer(idx, s);
        continue;
      }
      Val a = address(mem, s);
      bool inferred = false;
      if (!cp_async && explicit_space == kNoSpace) {
        if (a.kind != Val::Aff || (a.space != kGlobal && a.space != kParamPtr)) {
          transfer(idx, s);
          continue;
        }
        inferred = true;
      }

      GlobalAccess g;
      g.instr = idx;
      g.src_line = in.src_line;
      g.ptx_line = in.ptx_line;
      g.opcode = in.opcode;
      g.store = root == "st" || root == "atom" || root == "red";
      g.atomic = root == "atom" || root == "red";
      g.space_inferred = inferred;
      if (cp_async) {
        g.width_bytes = ops.size() >= 3 ? static_cast<int>(parse_int(ops[2]).value_or(0)) : 0;
      } else {
        int vec = has_part(parts, "v2") ? 2 : has_part(parts, "v4") ? 4 : has_part(parts, "v8") ? 8 : 1;
        g.width_bytes = vec * type_bytes(last_type(parts));
      }
      const int w = std::max(1, g.width_bytes);
      g.ideal_sectors = (32 * w + 31) / 32;
      std::vector<std::string> notes;
      if (inferred)
        notes.push_back(std::string("generic address; global space inferred from ") +
                        (a.space == kGlobal ? "cvta.to.global" : "a pointer parameter"));

      if (a.kind == Val::Bottom) {
        notes.push_back("address register not defined on every path");
      } else if (a.kind == Val::Top) {
        notes.push_back(a.why.empty() ? "address is not affine in the thread index" : a.why);
      } else {
        const Poly& sx = a.tid[0];
        g.uses_tid_yz = !a.tid[1].empty() || !a.tid[2].empty();
        g.stride_expr = poly_text(sx);
        // Provable lane-0 offset mod 32: every other term a multiple of 32 (the warp's first tid.x
        // is a multiple of 32).
        bool provable = true;
        for (const auto& [m, c] : a.uni.t) {
          if (m.empty()) continue;
          int z = tz(m, c);
          if (z < 5) provable = false;
        }
        for (int d = 0; d < 3 && provable; ++d)
          for (const auto& [m, c] : a.tid[d].t) {
            int z = tz(m, c);
            if (z < 0 || z + (d == 0 ? 5 : 0) < 5) provable = false;
          }
        if (sx.has_unknown()) {
          notes.push_back("stride is warp-uniform but not known statically");
        } else if (sx.is_const()) {
          long long st = sx.constant();
          g.stride_bytes = st;
          long long base = 0;
          if (provable) {
            base = ((a.uni.constant() % 32) + 32) % 32;
            g.base_offset = static_cast<int>(base);
          } else {
            g.alignment_assumed = true;
            base = st < 0 ? -st * 31 : 0;  // lowest lane address at 0
            notes.push_back("base alignment not provable; assumed the warp's lowest address is 32-byte aligned");
          }
          g.sectors = sectors_for(st, w, base);
        } else {
          g.stride_symbolic = true;
          std::set<std::string> syms;
          for (const auto& [m, c] : sx.t)
            for (int id : m) syms.insert(names_[id]);
          std::string list;
          for (const auto& n : syms) list += (list.empty() ? "" : ", ") + n;
          g.sectors = 32 * ((w + 31) / 32);
          notes.push_back("stride " + g.stride_expr + " bytes depends on " + list +
                          "; sectors assume |stride| >= 32 bytes");
          if (provable) g.base_offset = static_cast<int>(((a.uni.constant() % 32) + 32) % 32);
        }
        if (g.uses_tid_yz)
          notes.push_back(
              "address also depends on threadIdx.y/z; assumes blockDim.x is a multiple of 32 so a warp spans "
              "threadIdx.x only (with blockDim.x < 32 lanes also step threadIdx.y)");
      }
      for (size_t i = 0; i < notes.size(); ++i) g.note += (i ? "; " : "") + notes[i];
      out.push_back(std::move(g));
      transfer(idx, s);
    }
  }
  std::sort(out.begin(), out.end(), [](const GlobalAccess& x, const GlobalAccess& y) { return x.instr < y.instr; });
  return out;
}

}  // namespace

std::vector<GlobalAccess> coalescing(const PtxKernel& k) {
  Analyzer a(k);
  a.run();
  return a.accesses();
}

std::string address_form(const PtxKernel& k, size_t instr) {
  Analyzer a(k);
  a.run();
  return a.address_text(instr);
}

}  // namespace cudaperf::analysis
