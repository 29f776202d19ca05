#include "poly.hpp"

namespace cudaperf::analysis::coalesce {

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

}  // namespace cudaperf::analysis::coalesce
