#include "cudaperf/agent/feedback.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <regex>
#include <set>

namespace cudaperf::agent {

using nlohmann::json;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t p = 0;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    std::string l = text.substr(p, e - p);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(std::move(l));
    p = e + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& v, const char* sep = "\n") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string trim_end(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string str(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

std::optional<double> num(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
  return j[key].get<double>();
}

// A phrase with its placeholders filled.
Result<std::string> phrase(const task::PromptTemplates& tp, const std::string& key, const std::map<std::string, std::string>& vars = {}) {
  const std::string& p = tp.phrase(key);
  if (p.empty() && !tp.phrases.count(key)) return Diagnostic{"phrases.txt", 0, 0, fmt::format("no phrase '{}'", key)};
  auto r = task::fill(p, vars);
  if (!r) {
    auto errs = r.errors();
    for (auto& d : errs) d.message = fmt::format("phrase '{}': {}", key, d.message);
    return errs;
  }
  return r;
}

std::string fmt_speedup(double s) { return s >= 100 ? fmt::format("{:.0f}", s) : s >= 10 ? fmt::format("{:.1f}", s) : fmt::format("{:.2f}", s); }

// Which structure feature a finding kind costs (kinds of src/analysis/report.cpp and census.cpp).
std::string feature_of(const std::string& kind) {
  if (kind == "coalescing") return "coalescing";
  if (kind == "occupancy" || kind == "spills") return "occupancy";
  if (kind == "intensity") return "intensity";
  if (kind == "sync" || kind.find("barrier") != std::string::npos || kind.find("divergent") != std::string::npos) return "sync";
  return "";  // coalescing_unknown, assumption, launch: facts, not costs
}

int outcome_class(const Candidate& c) {
  if (c.verdict == "ok") return 3;
  if (c.verdict == "pending_gpu") return 2;
  if (c.verdict == "no_code" || c.code.empty()) return 0;
  return 1;
}

}  // namespace

std::string turn_verdict(const json& eval) {
  std::string v = str(eval, "verdict");
  if (v.empty()) return "eval_error";
  bool final = !eval.contains("final") || !eval["final"].is_boolean() || eval["final"].get<bool>();
  return v == "ok" && !final ? "pending_gpu" : v;
}

std::string anonymize_paths(const std::string& text) {
  static const std::regex abs_cu(R"((/[^\s:"'()\[\]]+/)?[^\s/:"'()\[\]]+\.cu\b)");
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), abs_cu);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    if (!m[1].matched) continue;  // a bare file name stays as written
    out.append(text, last, static_cast<size_t>(m.position(0)) - last);
    out += "candidate.cu";
    last = static_cast<size_t>(m.position(0) + m.length(0));
  }
  out.append(text, last, std::string::npos);
  return out;
}

std::string trim_compile_errors(const std::string& diagnostics, const std::string& code, int max_errors) {
  static const std::regex diag(R"(^(?:.*?)(?:\((\d+)\):|:(\d+):(?:\d+:)?)\s*(catastrophic error|fatal error|error|warning|note|remark)\b)");
  static const std::regex tool_error(R"(^(?:ptxas|nvlink|nvcc|ld|collect2)\b.*\b(?:error|fatal)\b)", std::regex::icase);
  static const std::regex noise(R"(^\d+ errors? detected in the compilation|^\[\d+ more line\(s\) omitted\]|^Remark: The warnings can be suppressed)");
  const auto src = lines_of(code);
  const auto in = lines_of(anonymize_paths(diagnostics));
  struct Block {
    bool error = false;
    int line = 0;
    std::vector<std::string> text;
  };
  std::vector<Block> blocks;
  for (const auto& l : in) {
    if (std::regex_search(l, noise)) continue;
    std::smatch m;
    if (std::regex_search(l, m, diag)) {
      std::string kind = m[3];
      if (kind == "note" && !blocks.empty()) {  // gcc's notes belong to the error before them
        blocks.back().text.push_back(l);
        continue;
      }
      Block b;
      b.error = kind.find("error") != std::string::npos;
      b.line = m[1].matched ? std::stoi(m[1]) : std::stoi(m[2]);
      b.text.push_back(l);
      blocks.push_back(std::move(b));
    } else if (std::regex_search(l, tool_error)) {
      blocks.push_back(Block{true, 0, {l}});
    } else if (!blocks.empty()) {
      blocks.back().text.push_back(l);
    } else if (!l.empty()) {
      blocks.push_back(Block{false, 0, {l}});  // a preamble line, shown only in the fallback
    }
  }
  std::vector<std::string> out;
  int shown = 0, total = 0;
  for (const auto& b : blocks) {
    if (!b.error) continue;
    ++total;
    if (shown >= max_errors) continue;
    ++shown;
    size_t keep = std::min<size_t>(b.text.size(), 8);
    while (keep > 1 && b.text[keep - 1].find_first_not_of(' ') == std::string::npos) --keep;
    out.insert(out.end(), b.text.begin(), b.text.begin() + static_cast<long>(keep));
    if (keep == 1 && b.line > 0 && static_cast<size_t>(b.line) <= src.size())
      out.push_back(fmt::format("  > {}", src[static_cast<size_t>(b.line) - 1]));
  }
  if (total == 0) {
    std::vector<std::string> first(in.begin(), in.begin() + static_cast<long>(std::min<size_t>(in.size(), 20)));
    return trim_end(join(first));
  }
  if (total > shown) out.push_back(fmt::format("({} more error(s) not shown)", total - shown));
  return trim_end(join(out));
}

std::optional<Mismatch> parse_mismatch(const std::string& message) {
  static const std::regex re(
      R"(config '([^']*)': (?:.*?: )?([A-Za-z_][A-Za-z_0-9]*)\[(\d+)\]: expected ([^,]+), got (\S+?)(?: \((\d+) of (\d+) elements differ\))?(?:$|[\s;.]))");
  std::smatch m;
  if (!std::regex_search(message, m, re)) return std::nullopt;
  Mismatch x;
  x.config = m[1];
  x.buffer = m[2];
  x.index = std::stoll(m[3]);
  x.expected = m[4];
  x.got = m[5];
  if (m[6].matched) {
    x.bad = std::stoll(m[6]);
    x.total = std::stoll(m[7]);
  }
  return x;
}

std::vector<Finding> costly_findings(const json& analysis, const reward::RewardConfig& cfg, size_t n) {
  std::vector<Finding> all;
  if (!analysis.is_object() || !analysis.contains("kernels") || !analysis["kernels"].is_array()) return all;
  for (const auto& k : analysis["kernels"]) {
    if (!k.is_object() || !k.contains("findings") || !k["findings"].is_array()) continue;
    const json scores = k.value("scores", json::object());
    for (const auto& f : k["findings"]) {
      Finding x;
      x.kernel = str(k, "name");
      x.kind = str(f, "kind");
      x.message = str(f, "message");
      x.src_line = f.value("src_line", 0);
      x.count = f.value("count", 1);
      x.feature = feature_of(x.kind);
      if (x.feature.empty() || !scores.contains(x.feature) || !scores[x.feature].is_number()) continue;
      auto w = cfg.feature_weights.find(x.feature);
      double weight = w == cfg.feature_weights.end() ? 1.0 : w->second;
      x.cost = weight * (1.0 - std::clamp(scores[x.feature].get<double>(), 0.0, 1.0));
      if (x.cost > 1e-9) all.push_back(std::move(x));
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Finding& a, const Finding& b) {
    return a.cost != b.cost ? a.cost > b.cost : a.count > b.count;
  });
  if (all.size() > n) all.resize(n);
  return all;
}

bool ranks_above(const Candidate& a, const Candidate& b) {
  int ca = outcome_class(a), cb = outcome_class(b);
  if (ca != cb) return ca > cb;
  if (ca == 2) return a.round > b.round;  // nothing measured: the later refinement first
  double ra = a.reward.value_or(-1e300), rb = b.reward.value_or(-1e300);
  if (ra != rb) return ra > rb;
  return a.round > b.round;
}

Result<std::string> render_contrastive(const task::PromptTemplates& tp, std::vector<Candidate> pool, size_t n, size_t max_lines) {
  std::stable_sort(pool.begin(), pool.end(), ranks_above);
  std::set<std::string> seen;
  std::vector<std::string> entries;
  for (const auto& c : pool) {
    if (entries.size() >= n) break;
    // a task_error says nothing of its code (the task failed)
    if (c.code.empty() || c.verdict == "compile_error" || c.verdict == "task_error" || !seen.insert(c.code).second) continue;
    std::string outcome;
    Result<std::string> o = c.verdict == "ok" && c.speedup ? phrase(tp, "contrastive.measured", {{"speedup", fmt_speedup(*c.speedup)}})
                            : c.verdict == "pending_gpu"   ? phrase(tp, "contrastive.pending")
                                                           : phrase(tp, "contrastive.failed", {{"verdict", c.verdict}});
    if (!o) return o.errors();
    auto label = phrase(tp, "contrastive.label", {{"n", std::to_string(entries.size() + 1)}, {"round", std::to_string(c.round)},
                                                  {"sample", std::to_string(c.sample)}});
    if (!label) return label.errors();
    std::vector<std::string> fl;
    for (const auto& f : c.findings) {
      auto x = phrase(tp, "contrastive.finding", {{"message", f}});
      if (!x) return x.errors();
      fl.push_back(x.value());
    }
    auto code_lines = lines_of(trim_end(c.code));
    std::string code;
    if (code_lines.size() > max_lines) {
      auto cut = phrase(tp, "contrastive.cut", {{"lines", std::to_string(code_lines.size() - max_lines)}});
      if (!cut) return cut.errors();
      code_lines.resize(max_lines);
      code_lines.push_back(cut.value());
    }
    code = join(code_lines);
    auto e = task::fill(tp.file("contrastive_entry.md"),
                        {{"label", label.value()}, {"outcome", o.value()}, {"findings", join(fl)}, {"code", code}});
    if (!e) return e.errors();
    entries.push_back(trim_end(e.value()));
  }
  if (entries.empty()) return std::string();
  auto s = task::fill(tp.file("contrastive.md"), {{"candidates", join(entries, "\n\n")}});
  if (!s) return s.errors();
  return trim_end(s.value());
}

Result<std::string> render_feedback(const task::PromptTemplates& tp, const FeedbackInput& in) {
  const json& ev = in.eval;
  const std::string& v = in.verdict;
  std::map<std::string, std::string> hv = {{"round", std::to_string(in.round)}, {"verdict", v}};
  if (v == "no_code") {
    auto why = phrase(tp, "nocode." + (in.no_code_reason.empty() ? std::string("none") : in.no_code_reason));
    if (!why) return why.errors();
    hv["why"] = why.value();
  }
  const std::string vkey = "verdict." + v;
  auto headline = phrase(tp, tp.phrases.count(vkey) ? vkey : "verdict.other", hv);
  if (!headline) return headline.errors();

  // Details: what went wrong, in the evaluator's words, trimmed.
  std::string message = anonymize_paths(str(ev, "message"));
  if (message.size() > 1500) message = message.substr(0, 1500) + "\n[...]";
  std::string details;
  if (v == "compile_error") {
    details = trim_compile_errors(str(ev, "message"), in.code);
  } else if (v == "wrong_answer") {
    if (auto m = parse_mismatch(message)) {
      std::string count;
      if (m->bad >= 0) {
        auto c = phrase(tp, "mismatch.count", {{"bad", std::to_string(m->bad)}, {"total", std::to_string(m->total)}});
        if (!c) return c.errors();
        count = c.value();
      }
      auto mm = phrase(tp, "mismatch", {{"config", m->config}, {"buffer", m->buffer}, {"index", std::to_string(m->index)},
                                        {"expected", m->expected}, {"got", m->got}, {"count", count}});
      if (!mm) return mm.errors();
      details = mm.value();
    } else {
      details = message;
    }
  } else if (v != "ok" && v != "pending_gpu" && v != "no_code") {
    details = message;
  }

  // Timing per configuration and the overall speedup (measured runs only).
  std::vector<std::string> timing;
  if (ev.is_object() && ev.contains("configs") && ev["configs"].is_array()) {
    for (const auto& c : ev["configs"]) {
      auto med = num(c, "median_ms");
      if (!c.value("perf", false) || !med || *med <= 0) continue;
      std::string naive, roof;
      if (auto nm = num(c, "naive_median_ms"); nm && *nm > 0) {
        auto x = phrase(tp, "timing.naive", {{"naive_ms", fmt::format("{:.4g}", *nm)}, {"speedup", fmt_speedup(*nm / *med)}});
        if (!x) return x.errors();
        naive = x.value();
      }
      if (auto rf = num(c, "roofline_fraction"); rf && *rf > 0) {
        auto x = phrase(tp, "timing.roofline", {{"fraction", fmt::format("{:.2f}", *rf)}});
        if (!x) return x.errors();
        roof = x.value();
      }
      auto line = phrase(tp, "timing.config", {{"config", str(c, "config")}, {"median", fmt::format("{:.4g}", *med)},
                                               {"naive", naive}, {"roofline", roof}});
      if (!line) return line.errors();
      timing.push_back(line.value());
    }
  }
  if (!timing.empty()) {
    auto h = phrase(tp, "timing.header", {{"device", str(ev, "device").empty() ? "the GPU" : str(ev, "device")}});
    if (!h) return h.errors();
    timing.insert(timing.begin(), h.value());
  }
  if (v == "ok")
    if (auto s = num(ev, "speedup"); s && *s > 0) {
      auto x = phrase(tp, "timing.overall", {{"speedup", fmt_speedup(*s)}});
      if (!x) return x.errors();
      timing.push_back(x.value());
    }

  // The costliest structural findings (correct or CPU-clean code only).
  std::vector<std::string> findings;
  if (v == "ok" || v == "pending_gpu") {
    if (in.findings.empty()) {
      auto x = phrase(tp, "findings.none");
      if (!x) return x.errors();
      findings.push_back(x.value());
    } else {
      auto h = phrase(tp, "findings.header");
      if (!h) return h.errors();
      findings.push_back(h.value());
      for (const auto& f : in.findings) {
        std::string where = f.kernel.empty() ? "" : ", " + f.kernel.substr(0, f.kernel.find('('));
        auto x = phrase(tp, "findings.item", {{"kind", f.kind}, {"where", where}, {"message", f.message}});
        if (!x) return x.errors();
        findings.push_back(x.value());
      }
    }
  }

  auto request = phrase(tp, v == "ok"            ? "request.faster"
                           : v == "pending_gpu" ? "request.pending"
                           : v == "task_error"  ? "request.task_error"
                                                : "request.fix");
  if (!request) return request.errors();
  auto text = task::fill(tp.file("feedback.md"), {{"headline", headline.value()},
                                                  {"details", details},
                                                  {"timing", join(timing)},
                                                  {"findings", join(findings)},
                                                  {"contrastive", in.contrastive},
                                                  {"request", request.value()}});
  if (!text) return text.errors();
  // Empty sections leave runs of blank lines: keep at most one.
  std::string out;
  int newlines = 0;
  for (char c : text.value()) {
    newlines = c == '\n' ? newlines + 1 : 0;
    if (newlines <= 2) out += c;
  }
  size_t a = out.find_first_not_of('\n');
  return trim_end(a == std::string::npos ? "" : out.substr(a)) + "\n";
}

}  // namespace cudaperf::agent
