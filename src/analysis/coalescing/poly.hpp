// Polynomials in warp-uniform symbols: the coefficients of the coalescing domain (see
// cudaperf/analysis/coalescing.hpp). Symbol 0 is "?" (an unknown warp-uniform value): any monomial
// containing it collapses into the monomial {0}, whose coefficient 2^k says the unknown value is a
// multiple of 2^k.
#pragma once
#include <algorithm>
#include <map>
#include <vector>

namespace cudaperf::analysis::coalesce {

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

inline Poly make_const(long long c) {
  Poly p;
  if (c != 0) p.t[Mono{}] = c;
  return p;
}
inline Poly make_sym(int id) {
  Poly p;
  p.t[Mono{id}] = 1;
  return p;
}

inline int ctz64(unsigned long long v) { return v == 0 ? 64 : __builtin_ctzll(v); }

// "?" carries a coefficient 2^k: an unknown uniform multiple of 2^k (k <= 16).
inline long long unknown_coef(int k) { return 1LL << std::clamp(k, 0, 16); }

// p += c * m; a sum that overflows becomes "?".
void add_term(Poly& p, const Mono& m, long long c);
Poly padd(const Poly& a, const Poly& b);
Poly pscale(const Poly& a, long long k);
Poly pmul(const Poly& a, const Poly& b);

}  // namespace cudaperf::analysis::coalesce
