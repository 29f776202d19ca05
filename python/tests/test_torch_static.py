"""Static guards and the timing rule of the torch2cuda worker (standard library only: no torch)."""
import os
import tempfile
import unittest

from cudaperf import torch_static, torch_timing

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOOD = os.path.join(ROOT, "tests", "data", "torch_tasks", "torch2cuda", "elementwise", "leaky_relu", "impls",
                    "vectorized.py")


def rules(text):
    return {f["rule"] for f in torch_static.check_candidate(text)["findings"]}


class SourceEncoding(unittest.TestCase):
    """The guards read a candidate as Python's import will (read_source): a PEP 263 declaration that
    changes the text is refused, one Python cannot load is a syntax error, harmless ones pass."""

    def check(self, raw):
        with tempfile.NamedTemporaryFile("wb", suffix=".py", delete=False) as f:
            f.write(raw)
        try:
            return torch_static.check_candidate_file(f.name)
        finally:
            os.unlink(f.name)

    def test_utf7_hides_a_line_in_a_comment(self):
        # ASCII, each "+" written "+-" (UTF-7's plus): under UTF-7 the file is the clean candidate plus one line
        good = open(GOOD, encoding="utf-8").read().encode("ascii", "replace").replace(b"+", b"+-")
        r = self.check(b"# coding: utf-7\n" + good.replace(b"\nimport torch\n", b"\nimport torch # +AAo-import gc\n", 1))
        self.assertNotIn("syntax_error", r)
        got = {f["rule"] for f in r["findings"]}
        self.assertIn("source_encoding", got)
        self.assertIn("introspection", got)  # the hidden `import gc`, seen because the guards read what runs

    def test_escape_codec_hides_a_line_in_a_comment(self):
        # unicode_escape turns the four characters \x0a into a new line: another codec class, same rule
        good = open(GOOD, encoding="utf-8").read().encode("ascii", "replace").replace(b"\\", b"\\\\")
        r = self.check(b"# coding: unicode_escape\n" + good.replace(b"\nimport torch\n", b"\nimport torch # \\x0aimport gc\n", 1))
        self.assertNotIn("syntax_error", r)
        got = {f["rule"] for f in r["findings"]}
        self.assertIn("source_encoding", got)
        self.assertIn("introspection", got)

    def test_undecodable_declaration_is_a_syntax_error(self):
        r = self.check(b"# strategy: x \xe2\x80\x94 flash-decoding: the keys are split\nimport torch\n")
        self.assertIn("unknown encoding: the", r["syntax_error"])
        self.assertIn("PEP 263", r["syntax_error"])

    def test_harmless_declarations_pass(self):
        good = open(GOOD, "rb").read()
        for head in (b"# -*- coding: latin-1 -*-\n", b"# coding: utf-8\n", b"\xef\xbb\xbf"):
            raw = head + good if head != b"# -*- coding: latin-1 -*-\n" else head + good.decode("utf-8").encode("ascii", "replace")
            r = self.check(raw)
            self.assertNotIn("syntax_error", r, head)
            self.assertEqual(r["findings"], [], head)


class StaticGuards(unittest.TestCase):
    def setUp(self):
        self.good = open(GOOD, encoding="utf-8").read()

    def test_dataset_impl_is_clean(self):
        r = torch_static.check_candidate(self.good)
        self.assertEqual(r["findings"], [])
        self.assertEqual(r["kernels"], ["leaky_relu_vec4_kernel", "leaky_relu_tail_kernel"])
        self.assertIn("canonical", r["extensions"][0])

    def test_each_rule_fires(self):
        body = self.good.replace("return leaky_relu_vec_ext.leaky_relu_vec(x, self.negative_slope)", "@@STMT@@")
        cases = {
            "torch_fallback": "return torch.matmul(x, x)",
            "stream_or_thread": "return torch.cuda.Stream()",
            "introspection": "return x.__class__",
            "forbidden_builtin": "return getattr(x, 'relu')()",
        }
        for rule, stmt in cases.items():
            self.assertIn(rule, rules(body.replace("@@STMT@@", stmt)), stmt)
        self.assertIn("stream_or_thread", rules("import threading\n" + self.good))
        self.assertIn("timer_patch", rules(self.good + "\ntorch.cuda.Event.record = None\n"))
        self.assertIn("monkey_patch", rules(self.good + "\ntorch.relu = None\n"))
        self.assertIn("tensor_subclass", rules(self.good + "\nclass L(torch.Tensor):\n    pass\n"))
        self.assertIn("silent_fallback", rules(self.good + "\ntry:\n    pass\nexcept Exception:\n    pass\n"))
        self.assertIn("library_call", rules(self.good.replace("#include <ATen/cuda/CUDAContext.h>",
                                                               "#include <cublas_v2.h>")))
        self.assertIn("torch_fallback", rules(self.good.replace("auto y = torch::empty_like(xc);",
                                                                 "auto y = at::relu(xc);")))
        self.assertIn("precision", rules(self.good.replace('"-O3"', '"--use_fast_math"')))
        self.assertIn("no_model_new", rules(self.good.replace("class ModelNew", "class Other")))

    def test_same_extension_same_key(self):
        a = torch_static.check_candidate(self.good)["extensions"][0]["canonical"]
        self.assertEqual(torch_static.extension_key(a, "s"), torch_static.extension_key(dict(a), "s"))
        b = dict(a, cuda_sources=a["cuda_sources"] + ["// other"])
        self.assertNotEqual(torch_static.extension_key(a, "s"), torch_static.extension_key(b, "s"))

    def test_load_inline_kwargs(self):
        c = torch_static.check_candidate(self.good)["extensions"][0]["canonical"]
        kw = torch_static.load_inline_kwargs(c)
        self.assertNotIn("name", kw)  # the build names the module after its cache key
        self.assertEqual(kw["cuda_sources"], c["cuda_sources"])
        self.assertEqual(kw["extra_cuda_cflags"], c["extra_cuda_cflags"])
        self.assertIsNone(kw["extra_ldflags"])  # empty list in the canonical form: load_inline's default again

    def test_unresolved_load_inline(self):
        text = self.good.replace('name="t2c_leaky_relu_vec"', 'name=make_name()')
        r = torch_static.check_candidate(text)
        self.assertIn("unresolved", r["extensions"][0])


class TimingRule(unittest.TestCase):
    def test_converges_after_min_samples(self):
        r = torch_timing.measure(lambda: 1.0, min_samples=10, budget_s=100)
        self.assertEqual((r["samples"], r["stop_reason"], r["median_ms"]), (10, "converged", 1.0))

    def test_failure_stops(self):
        r = torch_timing.measure(lambda: -1.0)
        self.assertEqual(r["stop_reason"], "failed")

    def test_throttled_samples_are_discarded_and_counted(self):
        calls = iter(range(1000))

        def sample():  # every third sample taken with the SM clock throttled, and far off
            i = next(calls)
            return (50.0, True) if i % 3 == 2 else (1.0, False)
        r = torch_timing.measure(sample, min_samples=10, budget_s=100)
        self.assertEqual((r["samples"], r["discarded"], r["median_ms"], r["max_ms"]), (10, 4, 1.0, 1.0))
        r = torch_timing.measure(lambda: (1.0, True), min_samples=10, max_samples=20, budget_s=100)
        self.assertEqual((r["samples"], r["discarded"], r["stop_reason"]), (0, 40, "max_samples"))

    def test_quartiles(self):
        s = torch_timing.summarize([4.0, 1.0, 3.0, 2.0])
        self.assertEqual((s["min_ms"], s["median_ms"], s["q1_ms"], s["q3_ms"]), (1.0, 2.5, 1.75, 3.25))


class StreamRule(unittest.TestCase):
    """Same rule and numbers as tests/unit/timing_stats_test.cpp (StreamRule.*)."""

    @staticmethod
    def playback(windows):
        calls = []

        def window():
            median, excess = windows[len(calls)]
            calls.append(1)
            return {"median_ms": median, "stop_reason": "converged" if median > 0 else "failed"}, excess
        return window, calls

    def test_threshold(self):
        self.assertFalse(torch_timing.outside_stream(0.14, 1.0))
        self.assertTrue(torch_timing.outside_stream(0.16, 1.0))
        self.assertFalse(torch_timing.outside_stream(5.0, 0.0))

    def test_clean_window_is_timed_once(self):
        window, calls = self.playback([(4.0, 0.1), (9.0, 9.0)])
        stats, excess, first = torch_timing.time_with_stream_rule(window, sleep=lambda s: None)
        self.assertEqual((len(calls), stats["median_ms"], excess, first), (1, 4.0, 0.1, None))

    def test_window_over_the_line_is_timed_again_and_the_second_counts(self):
        pauses = []
        window, calls = self.playback([(4.15, 2.27), (4.2, 0.05)])
        stats, excess, first = torch_timing.time_with_stream_rule(window, sleep=pauses.append)
        self.assertEqual((len(calls), stats["median_ms"], excess), (2, 4.2, 0.05))
        self.assertEqual(first, {"median_ms": 4.15, "wall_excess_ms": 2.27})
        self.assertEqual(pauses, [0.3])
        window, calls = self.playback([(0.02, 3.0), (0.02, 3.1), (0.01, 0.0)])  # off the stream both times
        stats, excess, _ = torch_timing.time_with_stream_rule(window, sleep=lambda s: None)
        self.assertEqual(len(calls), 2)
        self.assertTrue(torch_timing.outside_stream(excess, stats["median_ms"]))

    def test_failed_window_is_not_timed_again(self):
        window, calls = self.playback([(-1.0, 50.0), (4.0, 0.0)])
        stats, _, first = torch_timing.time_with_stream_rule(window, sleep=lambda s: None)
        self.assertEqual((len(calls), stats["stop_reason"], first), (1, "failed", None))


if __name__ == "__main__":
    unittest.main()
