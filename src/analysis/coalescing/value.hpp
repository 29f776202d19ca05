// The abstract value of an integer register in the coalescing analysis: bottom, an affine form in
// the thread index with polynomial coefficients (poly.hpp), or top with the reason; the arithmetic
// on them and the join at control-flow merges.
#pragma once
#include <string>

#include "poly.hpp"

namespace cudaperf::analysis::coalesce {

// Where an address points, as far as the analysis knows: kGlobal (cvta.to.global), kParamPtr (the
// .param space for an opcode; a pointer kernel parameter for a value), kShared, kLocal, kConst.
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

Val top(std::string why);
Val cst(long long c);
Val unknown_uniform();
Val vadd(const Val& a, const Val& b);
Val vscale(const Val& a, long long k);
Val vmul(const Val& a, const Val& b);
// Equal as the fixpoint compares values: kind, space and form (not the reason of a top).
bool same_val(const Val& x, const Val& y);

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

}  // namespace cudaperf::analysis::coalesce
