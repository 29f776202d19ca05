// agent/feedback + the prompt templates: what the model is told after a turn, from evaluation JSON
// shaped like reward::score_candidate's, through the built-in data/prompts/ templates.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "cudaperf/agent/feedback.hpp"
#include "cudaperf/task/prompt.hpp"

using namespace cudaperf;
using namespace cudaperf::agent;
using nlohmann::json;

namespace {

const task::PromptTemplates& tp() { return task::builtin_templates(); }

std::string render(const std::string& verdict, json eval, const std::string& code = "", std::vector<Finding> findings = {},
                   std::string contrastive = "") {
  FeedbackInput in;
  in.round = 2;
  in.verdict = verdict;
  in.eval = std::move(eval);
  in.code = code;
  in.findings = std::move(findings);
  in.contrastive = std::move(contrastive);
  auto r = render_feedback(tp(), in);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.errors().front().message);
  return r.ok() ? r.value() : "";
}

bool has(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

TEST(PromptTemplates, FillAndPhrases) {
  auto f = task::fill("a {{x}} b {{y_2}}", {{"x", "{{y_2}}"}, {"y_2", "Y"}});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.value(), "a {{y_2}} b Y");  // values are not re-scanned
  auto unknown = task::fill("{{nope}}", {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(has(unknown.errors().front().message, "nope"));
  EXPECT_FALSE(task::fill("{{open", {}).ok());
  EXPECT_EQ(task::fill("no placeholders {x}", {}).value(), "no placeholders {x}");
  auto p = task::parse_phrases("# c\n\na.b:  two spaces\nc: x\n", "p.txt");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->at("a.b"), " two spaces");
  auto bad = task::parse_phrases("ok: 1\nno colon here\nok: 2\n", "p.txt");
  ASSERT_FALSE(bad.ok());
  ASSERT_EQ(bad.errors().size(), 2u);
  EXPECT_EQ(bad.errors()[0].line, 2);
  EXPECT_TRUE(has(bad.errors()[1].message, "duplicate"));
}

TEST(PromptTemplates, BuiltinsCompleteAndOverridable) {
  for (const char* f : {"task.md", "torch_task.md", "rules.md", "system.md", "feedback.md", "contrastive.md", "contrastive_entry.md", "phrases.txt"})
    EXPECT_FALSE(tp().file(f).empty()) << f;
  // every verdict renders with the built-ins (a missing phrase or placeholder would fail)
  for (const char* v : {"compile_error", "link_error", "runtime_error", "timeout", "wrong_answer", "out_of_bounds", "input_mutated",
                        "nondeterministic", "hack_suspected", "task_error", "ok", "pending_gpu", "no_code", "something_new"})
    EXPECT_FALSE(render(v, json{{"verdict", v}, {"message", "m"}}).empty()) << v;
  // a folder overrides file by file
  auto dir = std::filesystem::temp_directory_path() / "cudaperf-prompts-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "system.md") << "custom system\n";
  auto t = task::load_templates(dir);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->file("system.md"), "custom system\n");
  EXPECT_EQ(t->file("task.md"), tp().file("task.md"));
  std::ofstream(dir / "phrases.txt") << "broken line\n";
  auto broken = task::load_templates(dir);
  ASSERT_FALSE(broken.ok());
  EXPECT_TRUE(has(broken.errors().front().to_string(), "phrases.txt:1"));
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(task::load_templates(dir).ok());
}

TEST(AgentFeedback, TurnVerdict) {
  EXPECT_EQ(turn_verdict(json{{"verdict", "ok"}, {"final", false}}), "pending_gpu");
  EXPECT_EQ(turn_verdict(json{{"verdict", "ok"}, {"final", true}}), "ok");
  EXPECT_EQ(turn_verdict(json{{"verdict", "link_error"}, {"final", true}}), "link_error");
  EXPECT_EQ(turn_verdict(json{{"verdict", "compile_error"}}), "compile_error");
  EXPECT_EQ(turn_verdict(json::object()), "eval_error");
}

TEST(AgentFeedback, TrimsCompileErrorsToTheFirstOnesWithSourceLines) {
  std::string code = "line1\nint main() {\n  foo(;\n}\nline5\n";
  std::string nvcc =
      "/tmp/cudaperf-refine-1/s0/r1/candidate.cu(3): warning #177-D: variable \"q\" was declared but never referenced\n"
      "    int q;\n        ^\n\n"
      "/tmp/cudaperf-refine-1/s0/r1/candidate.cu(3): error: expected an expression\n    foo(;\n        ^\n\n"
      "/tmp/cudaperf-refine-1/s0/r1/candidate.cu(4): error: identifier \"a\" is undefined\n    a\n    ^\n\n"
      "/tmp/cudaperf-refine-1/s0/r1/candidate.cu(5): error: third\n    x\n\n"
      "/tmp/cudaperf-refine-1/s0/r1/candidate.cu(5): error: fourth\n    y\n\n"
      "4 errors detected in the compilation of \"/tmp/cudaperf-refine-1/s0/r1/candidate.cu\".\n";
  std::string t = trim_compile_errors(nvcc, code, 3);
  EXPECT_TRUE(has(t, "candidate.cu(3): error: expected an expression\n    foo(;\n        ^")) << t;
  EXPECT_TRUE(has(t, "error: third"));
  EXPECT_FALSE(has(t, "fourth"));
  EXPECT_TRUE(has(t, "(1 more error(s) not shown)"));
  EXPECT_FALSE(has(t, "warning")) << t;
  EXPECT_FALSE(has(t, "/tmp/")) << t;
  EXPECT_FALSE(has(t, "errors detected"));
  // gcc style without context lines: the candidate's line is added
  std::string gcc = "candidate.cu:3:7: error: expected primary-expression before ';' token\n";
  std::string g = trim_compile_errors(gcc, code);
  EXPECT_TRUE(has(g, "error: expected primary-expression")) << g;
  EXPECT_TRUE(has(g, "  >   foo(;")) << g;
  // ptxas and unrecognised output
  EXPECT_TRUE(has(trim_compile_errors("ptxas fatal   : Unresolved extern function 'f'\n", code), "ptxas fatal"));
  EXPECT_EQ(trim_compile_errors("the object does not define saxpy_f32\n", code), "the object does not define saxpy_f32");
}

TEST(AgentFeedback, AnonymisesPaths) {
  EXPECT_EQ(anonymize_paths("/tmp/x/y/candidate.cu(3): error"), "candidate.cu(3): error");
  EXPECT_EQ(anonymize_paths("in /var/w-9/abc.cu:3:1 and /a/b.cu"), "in candidate.cu:3:1 and candidate.cu");
  EXPECT_EQ(anonymize_paths("naive.cu stays; /usr/include/x.cuh stays"), "naive.cu stays; /usr/include/x.cuh stays");
}

TEST(AgentFeedback, ParsesTheFirstMismatch) {
  auto m = parse_mismatch("config 'odd': out[17]: expected 1.5, got nan (3 of 100003 elements differ)");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->config, "odd");
  EXPECT_EQ(m->buffer, "out");
  EXPECT_EQ(m->index, 17);
  EXPECT_EQ(m->expected, "1.5");
  EXPECT_EQ(m->got, "nan");
  EXPECT_EQ(m->bad, 3);
  EXPECT_EQ(m->total, 100003);
  auto n = parse_mismatch("config 'perf': warm-up output, set 1: C[0]: expected -3.25e-05, got 0");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->buffer, "C");
  EXPECT_EQ(n->got, "0");
  EXPECT_EQ(n->bad, -1);
  EXPECT_FALSE(parse_mismatch("config 'odd': two runs differ").has_value());
}

TEST(AgentFeedback, VerdictSpecificContent) {
  std::string code = "a\nb\n  foo(;\n";
  std::string ce = render("compile_error", json{{"verdict", "compile_error"}, {"message", "/w/candidate.cu(3): error: expected an expression\n"}}, code);
  EXPECT_TRUE(has(ce, "Round 2: your code did not compile")) << ce;
  EXPECT_TRUE(has(ce, "candidate.cu(3): error: expected an expression\n  >   foo(;")) << ce;
  EXPECT_TRUE(has(ce, "Fix the problem"));
  EXPECT_FALSE(has(ce, "\n\n\n")) << ce;  // empty sections leave no gaps

  std::string le = render("link_error", json{{"verdict", "link_error"}, {"message", "cudaMalloc: allocates outside the stream"}});
  EXPECT_TRUE(has(le, "rules forbid")) << le;
  EXPECT_TRUE(has(le, "cudaMalloc: allocates outside the stream"));

  std::string hs = render("hack_suspected", json{{"verdict", "hack_suspected"}, {"message", "config 'perf': median below the roofline floor"}});
  EXPECT_TRUE(has(hs, "The rule that fired")) << hs;
  EXPECT_TRUE(has(hs, "roofline floor"));

  std::string wa = render("wrong_answer", json{{"verdict", "wrong_answer"}, {"message", "config 'odd': out[17]: expected 1.5, got nan (3 of 100 elements differ)"}});
  EXPECT_TRUE(has(wa, "First mismatch: configuration 'odd', out[17]: expected 1.5, got nan (3 of 100 elements differ).")) << wa;

  json ok = {{"verdict", "ok"}, {"final", true}, {"speedup", 3.5}, {"device", "NVIDIA H200"}, {"message", "correct"},
             {"configs", json::array({{{"config", "tiny"}, {"perf", false}, {"median_ms", -1}},
                                      {{"config", "perf"}, {"perf", true}, {"median_ms", 0.5}, {"naive_median_ms", 1.75}, {"roofline_fraction", 0.4}}})}};
  Finding f{"k(int)", "coalescing", "coalescing", "load at line 11 strides 256 bytes", 11, 2, 1.75};
  std::string o = render("ok", ok, "", {f});
  EXPECT_TRUE(has(o, "correct on every configuration")) << o;
  EXPECT_TRUE(has(o, "Timing on NVIDIA H200")) << o;
  EXPECT_TRUE(has(o, "- perf: 0.5 ms, naive 1.75 ms, speedup 3.50x, 0.40 of the roofline")) << o;
  EXPECT_FALSE(has(o, "- tiny"));
  EXPECT_TRUE(has(o, "3.50x.")) << o;
  EXPECT_TRUE(has(o, "- [coalescing, k] load at line 11 strides 256 bytes")) << o;
  EXPECT_TRUE(has(o, "Make it faster"));

  // pending: no timing, no speedup, and says so
  std::string p = render("pending_gpu", json{{"verdict", "ok"}, {"final", false}, {"speedup", nullptr}, {"configs", json::array()}});
  EXPECT_TRUE(has(p, "No GPU is available")) << p;
  EXPECT_FALSE(has(p, "Timing"));
  EXPECT_TRUE(has(p, "found nothing that costs much")) << p;  // no findings given

  FeedbackInput nc;
  nc.verdict = "no_code";
  nc.no_code_reason = "unclosed";
  auto n = render_feedback(tp(), nc);
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(has(n.value(), "no usable code block (the code block was never closed")) << n.value();

  std::string with_c = render("ok", ok, "", {}, "Earlier candidates: X");
  EXPECT_TRUE(has(with_c, "Earlier candidates: X"));
}

// A task_error is the task's defect: the model is told the task failed, never that its code crashed
// or needs fixing, and such a candidate is no contrastive example.
TEST(AgentFeedback, TaskErrorSaysTheTaskFailed) {
  std::string te = render("task_error", json{{"verdict", "task_error"}, {"final", true},
                                             {"message", "task error in t (a defect of the task): get_inputs() returned other shapes"}});
  EXPECT_TRUE(has(te, "Round 2: your code could not be judged because the task itself failed")) << te;
  EXPECT_TRUE(has(te, "not of your code")) << te;
  EXPECT_TRUE(has(te, "get_inputs() returned other shapes")) << te;
  EXPECT_FALSE(has(te, "run time")) << te;
  EXPECT_FALSE(has(te, "Fix the problem")) << te;
  auto s = render_contrastive(tp(), {{1, 0, "task_error", std::nullopt, std::nullopt, "te_code", {}},
                                     {1, 1, "wrong_answer", std::nullopt, -5.0, "wa_code", {}}}, 3, 120);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(has(s.value(), "te_code")) << s.value();
  EXPECT_TRUE(has(s.value(), "wa_code")) << s.value();
}

TEST(AgentFeedback, CostliestFindingsFirst) {
  json report = {{"kernels", json::array({
                     {{"name", "a(int)"},
                      {"scores", {{"coalescing", 0.5}, {"occupancy", 0.9}, {"intensity", nullptr}, {"sync", 1.0}}},
                      {"findings", json::array({{{"kind", "occupancy"}, {"message", "occ"}, {"src_line", 0}, {"count", 1}},
                                                {{"kind", "coalescing"}, {"message", "coal"}, {"src_line", 3}, {"count", 1}},
                                                {{"kind", "coalescing_unknown"}, {"message", "unknown"}, {"src_line", 3}, {"count", 9}},
                                                {{"kind", "intensity"}, {"message", "no score"}, {"src_line", 0}, {"count", 1}}})}},
                     {{"name", "b(int)"},
                      {"scores", {{"coalescing", 0.125}, {"occupancy", 1.0}, {"sync", 0.5}}},
                      {"findings", json::array({{{"kind", "coalescing"}, {"message", "coal b"}, {"src_line", 7}, {"count", 2}},
                                                {{"kind", "divergent_barrier"}, {"message", "barrier"}, {"src_line", 8}, {"count", 1}},
                                                {{"kind", "occupancy"}, {"message", "free"}, {"src_line", 0}, {"count", 1}}})}}})}};
  auto cfg = reward::default_reward_config();  // coalescing weight 2, others 1
  auto fs = costly_findings(report, cfg, 3);
  ASSERT_EQ(fs.size(), 3u);
  EXPECT_EQ(fs[0].message, "coal b");   // 2 * 0.875
  EXPECT_NEAR(fs[0].cost, 1.75, 1e-12);
  EXPECT_EQ(fs[1].message, "coal");     // 2 * 0.5
  EXPECT_EQ(fs[2].message, "barrier");  // 1 * 0.5
  EXPECT_EQ(fs[2].feature, "sync");
  EXPECT_EQ(costly_findings(report, cfg, 10).size(), 4u);  // + occ (0.1); unknown, unscored and free ones never
  EXPECT_TRUE(costly_findings(json::object(), cfg).empty());
}

TEST(AgentFeedback, ContrastiveBestFirst) {
  std::vector<Candidate> pool = {
      {1, 0, "compile_error", std::nullopt, -7.0, "broken", {}},
      {2, 0, "ok", 2.0, 0.8, "two", {"f2"}},
      {2, 1, "wrong_answer", std::nullopt, -5.0, "wrong", {}},
      {3, 1, "ok", 5.0, 1.7, "five", {"f5"}},
      {3, 0, "pending_gpu", std::nullopt, std::nullopt, "pend", {}},
      {1, 1, "ok", 5.0, 1.7, "five", {"dup"}},  // same code, earlier round: shown once, as round 3
  };
  EXPECT_TRUE(ranks_above(pool[3], pool[1]));
  EXPECT_TRUE(ranks_above(pool[1], pool[4]));  // measured correct above pending
  EXPECT_TRUE(ranks_above(pool[4], pool[2]));  // pending above failures
  EXPECT_TRUE(ranks_above(pool[2], pool[0]));
  auto s = render_contrastive(tp(), pool, 3, 120);
  ASSERT_TRUE(s.ok());
  const std::string& t = s.value();
  EXPECT_TRUE(has(t, "Earlier candidates")) << t;
  size_t a = t.find("five"), b = t.find("\ntwo"), c = t.find("pend");
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(c, std::string::npos);
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_TRUE(has(t, "correct, 5.00x over naive"));
  EXPECT_TRUE(has(t, "- f5"));
  EXPECT_EQ(t.find("five", a + 1), std::string::npos);
  EXPECT_FALSE(has(t, "broken"));
  EXPECT_FALSE(has(t, "wrong"));  // n = 3
  // long code is cut
  std::string longc;
  for (int i = 0; i < 10; ++i) longc += "line" + std::to_string(i) + "\n";
  auto cut = render_contrastive(tp(), {{1, 0, "pending_gpu", std::nullopt, std::nullopt, longc, {}}}, 3, 4);
  ASSERT_TRUE(cut.ok());
  EXPECT_TRUE(has(cut.value(), "line3\n// ... 6 more line(s) not shown")) << cut.value();
  EXPECT_EQ(render_contrastive(tp(), {}, 3, 10).value(), "");
}
