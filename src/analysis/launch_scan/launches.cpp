// The <<<grid, block[, smem[, stream]]>>> sites of a file and their values.
#include <fmt/format.h>

#include "scanner.hpp"
#include "vocabulary.hpp"

namespace cudaperf::analysis::launch {

std::vector<LaunchSite> Scanner::launches() {
  std::vector<LaunchSite> out;
  for (size_t i = 0; i < toks_.size(); ++i) {
    if (toks_[i].text != "<<<" || toks_[i].kind != Tok::Punct) continue;
    LaunchSite site;
    site.line = toks_[i].line;
    // The callee: NAME, ns::NAME, NAME<args>.
    size_t k = i;
    size_t targs_b = 0, targs_e = 0;
    if (k > 0 && (is(k - 1, ">") || is(k - 1, ">>"))) {
      int depth = 0;
      size_t j = k;
      targs_e = k - 1;
      while (j-- > 0) {
        const std::string& s = toks_[j].text;
        if (s == ">") ++depth;
        if (s == ">>") depth += 2;
        if (s == "<") --depth;
        if (s == ";" || s == "{" || s == "}") break;
        if (depth == 0) break;
      }
      if (depth != 0 || j == 0) continue;
      targs_b = j + 1;
      k = j;
      site.templated = true;
    }
    if (k == 0 || !ident(k - 1)) continue;
    size_t nb = k - 1;
    while (nb >= 2 && is(nb - 1, "::") && ident(nb - 2)) nb -= 2;
    site.base = text(k - 1);
    site.kernel = compact_tokens(toks_, nb, site.templated ? targs_e + 1 : k);
    Ctx c{&toks_, i, tok_scope_[i]};
    if (site.templated) {
      size_t p = targs_b;
      int depth = 0;
      for (size_t j = targs_b; j <= targs_e; ++j) {
        const std::string& s = j < targs_e ? toks_[j].text : std::string(",");
        if (depth == 0 && s == ",") {
          TemplateArg a;
          std::string ty = join_tokens(toks_, p, j);
          if (!canonical_type(ty).empty()) {
            a.kind = TemplateArg::Type;
            a.text = canonical_type(ty);
          } else {
            Val v = eval_range(c, p, j);
            if (v.v.size() == 1) {
              a.kind = TemplateArg::Number;
              a.number = v.v[0];
            }
          }
          a.text = a.kind == TemplateArg::Type ? a.text : ty;
          site.template_args.push_back(a);
          p = j + 1;
          continue;
        }
        if (s == "(" || s == "<" || s == "[") ++depth;
        if (s == ")" || s == ">" || s == "]") --depth;
      }
    }
    // The configuration: args up to the matching '>>>'.
    std::vector<std::pair<size_t, size_t>> args;
    size_t p = i + 1, j = i + 1;
    int depth = 0;
    for (; j < toks_.size(); ++j) {
      const std::string& s = toks_[j].text;
      if (depth == 0 && (s == ">>>" || s == ",")) {
        args.push_back({p, j});
        p = j + 1;
        if (s == ">>>") break;
        continue;
      }
      if (s == "(" || s == "[" || s == "{") ++depth;
      if (s == ")" || s == "]" || s == "}") --depth;
      if (s == ";" || depth < 0) break;
    }
    if (j >= toks_.size() || toks_[j].text != ">>>") continue;  // not a launch after all
    if (args.size() < 2) {
      site.block.why = "the launch has fewer than two configuration arguments";
    } else {
      site.block.expr = join_tokens(toks_, args[1].first, args[1].second);
      Val v = eval_launch_value(c, args[1].first, args[1].second, true);
      site.block.values = v.v;
      site.block.why = v.why;
    }
    if (args.size() < 3) {
      site.dynamic_smem.expr = "";
      site.dynamic_smem.values = {0};
    } else {
      site.dynamic_smem.expr = join_tokens(toks_, args[2].first, args[2].second);
      Val v = eval_launch_value(c, args[2].first, args[2].second, false);
      site.dynamic_smem.values = v.v;
      site.dynamic_smem.why = v.why;
    }
    for (LaunchValue* lv : {&site.block, &site.dynamic_smem}) {
      if (lv->values.size() > 1)
        lv->why = fmt::format("one of {}{}", values_text(lv->values), lv->why.empty() ? "" : ": " + lv->why);
      else if (lv->values.size() == 1)
        lv->why.clear();
    }
    out.push_back(std::move(site));
  }
  return out;
}

}  // namespace cudaperf::analysis::launch
