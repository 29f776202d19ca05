#include "value.hpp"

#include <utility>

namespace cudaperf::analysis::coalesce {

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

bool same_val(const Val& x, const Val& y) {
  if (x.kind != y.kind || x.space != y.space) return false;
  return x.kind != Val::Aff || x.same_form(y);
}

}  // namespace cudaperf::analysis::coalesce
