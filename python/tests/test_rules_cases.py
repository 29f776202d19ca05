"""The rules written once under config/ (timing.toml, candidate_policy.toml, torch_protocol.toml), on
the cases shared with the C++ engine (tests/data/rules; tests/unit/rules_cases_test.cpp runs the same
files). Standard library only (no torch)."""
import ast
import io
import itertools
import json
import re
import unittest
from pathlib import Path
from unittest import mock

from cudaperf import rule_files, torch_channel, torch_cpp_rules, torch_static, torch_timing

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "data" / "rules"
SUMMARY = {"samples": "samples", "median": "median_ms", "min": "min_ms", "max": "max_ms", "mean": "mean_ms",
           "q1": "q1_ms", "q3": "q3_ms", "rel_stdev": "rel_stdev"}


def cases(name):
    with open(CASES / name, encoding="utf-8") as f:
        return json.load(f)


class RuleFilesTest(unittest.TestCase):
    def test_found_next_to_the_package(self):
        self.assertEqual(rule_files.CONFIG_DIR, REPO / "config")
        self.assertIsInstance(rule_files.load("timing.toml"), dict)

    def test_a_missing_file_fails_loudly(self):
        with mock.patch.object(rule_files, "CONFIG_DIR", REPO / "no-such-dir"):
            with self.assertRaises(rule_files.RuleFileError):
                rule_files.load("timing.toml")

    def test_a_missing_or_mistyped_key_fails_loudly(self):
        doc = {"a": {"b": 1, "flag": True}}
        self.assertEqual(rule_files.value(doc, "a.b", int, "x.toml"), 1)
        for path, kind in (("a.c", int), ("a.b", str), ("a.flag", int), ("a.b.c", int)):
            with self.subTest(path=path), self.assertRaises(rule_files.RuleFileError):
                rule_files.value(doc, path, kind, "x.toml")

    def test_timing_constants_are_the_files(self):
        t = rule_files.load("timing.toml")
        self.assertEqual(torch_timing.MIN_SAMPLES, t["stopping_rule"]["min_samples"])
        self.assertEqual(torch_timing.BUDGET_S, t["stopping_rule"]["budget_s"])
        self.assertEqual(torch_timing.THROTTLE_FRACTION, 0.75)  # the same double as the literal it replaced
        self.assertEqual((torch_timing.STREAM_EXCESS_FRACTION, torch_timing.STREAM_EXCESS_FLOOR_MS), (0.1, 0.05))
        # The documented facts of each timer are booleans (nothing reads them as switches).
        for timer, facts in t["sample"].items():
            for key in ("l2_flush", "reset_persisting_l2", "clock_rule", "wall_time"):
                self.assertIsInstance(facts[key], bool, f"{timer}.{key}")


class TimingCasesTest(unittest.TestCase):
    def check_summary(self, got, want, name):
        for key, field in SUMMARY.items():
            self.assertAlmostEqual(got[field], want[key], delta=1e-12 * max(1.0, abs(want[key])),
                                   msg=f"{name}: {key}")

    def test_summarize(self):
        for c in cases("timing_cases.json")["summarize"]:
            self.check_summary(torch_timing.summarize(c["samples"]), c["expected"], c["name"])

    def test_measure(self):
        for c in cases("timing_cases.json")["measure"]:
            calls = [0]
            seq = itertools.cycle(c["sequence"])

            def sample(seq=seq, calls=calls):
                calls[0] += 1
                v = next(seq)
                return (v[0], v[1]) if isinstance(v, list) else v
            got = torch_timing.measure(sample, **c.get("rule", {}))
            e = c["expected"]
            self.check_summary(got, e, c["name"])
            self.assertEqual((got["discarded"], got["stop_reason"], calls[0]),
                             (e["discarded"], e["stop_reason"], e["calls"]), c["name"])

    def test_stream_rule(self):
        all_cases = cases("timing_cases.json")
        for c in all_cases["outside_stream"]:
            self.assertEqual(torch_timing.outside_stream(c["excess_ms"], c["median_ms"]), c["expected"], c)
        for c in all_cases["stream_rule"]:
            windows, calls = c["windows"], [0]

            def window(windows=windows, calls=calls):
                median, excess = windows[calls[0]]
                calls[0] += 1
                return {"median_ms": median, "stop_reason": "converged" if median > 0 else "failed"}, excess
            stats, excess, first = torch_timing.time_with_stream_rule(window, pause_s=0, sleep=lambda s: None)
            e = c["expected"]
            self.assertEqual(calls[0], e["calls"], c["name"])
            self.assertEqual([stats["median_ms"], excess], windows[e["reported"]], c["name"])
            if e["first"] is None:
                self.assertIsNone(first, c["name"])
            else:
                self.assertEqual([first["median_ms"], first["wall_excess_ms"]], windows[e["first"]], c["name"])

    def test_sample_rules(self):
        all_cases = cases("timing_cases.json")
        for c in all_cases["clock_throttled"]:
            self.assertEqual(torch_timing.clock_throttled(c["mhz"], c["max_mhz"]), c["expected"], c)
        for c in all_cases["l2_flush_bytes"]:
            self.assertEqual(torch_timing.l2_flush_bytes(c["l2_bytes"]), c["expected"], c)


class PolicyCasesTest(unittest.TestCase):
    def test_sources_of_the_torch_path(self):
        for c in cases("policy_cases.json")["sources"]:
            got = sorted({rule for rule, _ in torch_cpp_rules.check_sources([c["source"]], [])})
            self.assertEqual(got, c["torch_path"], c["name"])

    def test_python_of_the_torch_path(self):
        structural = {"no_model_new", "no_load_inline", "no_own_kernel"}
        for c in cases("policy_cases.json")["python"]:
            got = sorted({f["rule"] for f in torch_static.check_candidate(c["python"])["findings"]} - structural)
            self.assertEqual(got, c["torch_path"], c["name"])

    def test_symbols_against_the_denied_families(self):
        # The link rule itself is C++ (compile::link_violation_reason, run on every case by
        # tests/unit/rules_cases_test.cpp); this checks the table those cases rest on: a symbol whose
        # reason is a denied family's is matched first by that family's pattern (names as the real
        # symbols spell them: nvJitLink..., not nvjitlink), one off the allowlist by none.
        link = rule_files.load("candidate_policy.toml")["c_link"]
        denied = [(re.compile("|".join(d["pattern"])), d["reason"]) for d in link["denied"]]
        off = "not on the allowlist of calls a kernel launcher needs"
        for c in cases("policy_cases.json")["symbols"]:
            want = c["c_path"]
            if want not in {r for _, r in denied} | {off}:
                continue  # allowed, or a variant of another symbol
            got = next((r for p, r in denied if p.search(c["symbol"])), off)
            self.assertEqual(got, want, c["symbol"])

    def test_every_case_names_both_paths(self):
        for c in cases("policy_cases.json")["sources"]:
            self.assertIsInstance(c["c_path"], list, c["name"])  # run by tests/unit/rules_cases_test.cpp


class ProtocolCasesTest(unittest.TestCase):
    def test_events(self):
        for c in cases("protocol_cases.json")["events"]:
            self.assertEqual(c["event"] in torch_channel.EVENTS, c["harness"], c)
            self.assertEqual(c["event"] in torch_channel.CANDIDATE_EVENTS, c["harness"] and c["candidate"], c)
            out = io.StringIO()
            with mock.patch.object(torch_channel, "CHANNEL", out):
                if c["harness"]:
                    torch_channel.emit({"event": c["event"]})
                    self.assertEqual(json.loads(out.getvalue()), {"event": c["event"]})
                else:
                    with self.assertRaises(ValueError):
                        torch_channel.emit({"event": c["event"]})
                    self.assertEqual(out.getvalue(), "")

    def test_roles_are_the_workers(self):
        want = cases("protocol_cases.json")["roles"]
        self.assertEqual(list(torch_channel.ROLES), want)
        # torch_worker's argument parser offers exactly these roles.
        tree = ast.parse((REPO / "python" / "cudaperf" / "torch_worker.py").read_text(encoding="utf-8"))
        choices = [kw.value for node in ast.walk(tree) if isinstance(node, ast.Call)
                   for kw in node.keywords if kw.arg == "choices"
                   if node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "role"]
        self.assertEqual(len(choices), 1)
        self.assertEqual(ast.literal_eval(choices[0]), want)


if __name__ == "__main__":
    unittest.main()
