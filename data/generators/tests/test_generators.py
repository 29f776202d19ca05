"""Unit tests of the task generators (stdlib unittest; run: python3 -m unittest discover -s data/generators/tests)."""
import json
import os
import re
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from cudaperf_gen import canon, driver, emit  # noqa: E402
from cudaperf_gen.families import all_families  # noqa: E402
from cudaperf_gen.split import HELDOUT  # noqa: E402

MANIFEST = os.path.join(os.path.dirname(HERE), "manifest.json")


class Canonical(unittest.TestCase):
    def test_renaming_and_constants_are_the_same_computation(self):
        a = "void f(int n, const float* x, float* y) { for (int i = 0; i < n; ++i) y[i] = 2.5f * x[i] + 1; }"
        b = "void g(int m, const float* in, float* out) { /* c */ for (int k = 0; k < m; ++k) out[k] = -0.75f * in[k] + 3; }"
        self.assertEqual(canon.canonical_c(a), canon.canonical_c(b))

    def test_structure_and_types_differ(self):
        base = "void f(int n, const float* x, float* y) { for (int i = 0; i < n; ++i) y[i] = 2.5f * x[i]; }"
        for other in [base.replace("2.5f * x[i]", "x[i] + 2.5f"),            # another operator
                      base.replace("float", "double"),                       # another type
                      base.replace("2.5f * x[i]", "sinf(x[i])"),             # a call
                      base.replace("2.5f * x[i]", "2.5f * x[i] * x[i]")]:    # one more term
            self.assertNotEqual(canon.canonical_c(base), canon.canonical_c(other), other)

    def test_define_bodies_count_includes_do_not(self):
        a = "#include <math.h>\n#define AT(i, k) (A[(i) * K + (k)])\nvoid f(void) {}"
        b = "#include <stdint.h>\n#define AT(i, k) (A[(k) * M + (i)])\nvoid f(void) {}"
        self.assertNotEqual(canon.canonical_c(a), canon.canonical_c(b))
        self.assertEqual(canon.canonical_c(a), canon.canonical_c(a.replace("math.h", "string.h")))

    def test_math_names_are_not_renamed(self):
        self.assertNotEqual(canon.canonical_c("y = sinf(x);"), canon.canonical_c("y = cosf(x);"))


class Families(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fams = all_families()

    def test_enough_families_with_distinct_names(self):
        self.assertGreaterEqual(len(self.fams), 30)
        for name, mod in self.fams.items():
            self.assertEqual(mod.NAME, name)
            self.assertRegex(name, r"^[a-z][a-z0-9_]*$")
            self.assertTrue((mod.__doc__ or "").strip(), f"{name} has no docstring")

    def test_every_family_emits_a_complete_folder(self):
        for name in self.fams:
            for seed in (0, 1):
                spec, fs = driver.make(name, seed)
                with self.subTest(family=name, seed=seed):
                    self.assertEqual(spec.task_id, f"{name}/{name}_s{seed:03d}")
                    impls = sorted(k for k in fs if k.startswith("impls/"))
                    self.assertGreaterEqual(len(impls), 3)
                    self.assertIn("impls/naive.cu", impls)
                    self.assertIn("(weak)", fs["impls/naive.cu"].splitlines()[0])
                    self.assertEqual(len({fs[k] for k in impls}), len(impls), "impls must differ")
                    for k in impls:
                        strategy = k[len("impls/"):-3]
                        self.assertTrue(fs[k].startswith(f"// strategy: {strategy} — "), k)
                        self.assertIn(f'extern "C" void {spec.function}(', fs[k])
                        self.assertNotRegex(fs[k], r"cudaDeviceSynchronize|cudaMalloc\b|cudaStreamCreate|printf")
                    self.assertIn(f"void {spec.function}(", fs["reference.c"])
                    names = [c["name"] for c in spec.configs]
                    self.assertIn("tiny", names)
                    self.assertTrue(any(n.startswith("perf") for n in names))
                    sizes = [p.name for p in spec.params if p.role == "size"]
                    odd = [c for c in spec.configs if c["name"].startswith("odd")]
                    self.assertTrue(odd and all(any(c[s] % 16 for s in sizes) for c in odd))
                    self.assertTrue(0 <= spec.rtol < 1 and 0 <= spec.atol < 1)
                    for p in spec.params:
                        if p.role in ("in", "inout"):
                            self.assertTrue(p.dist and p.len, p.name)
                        if p.role == "in":
                            self.assertTrue(p.type.startswith("const "), p.name)

    def test_generation_is_deterministic(self):
        for name in list(self.fams)[:8]:
            self.assertEqual(driver.make(name, 5)[1], driver.make(name, 5)[1])

    def test_toml_tags_carry_family_and_split(self):
        spec, fs = driver.make(HELDOUT[0], 0)
        self.assertIn(f'"family:{HELDOUT[0]}"', fs["task.toml"])
        self.assertIn('"split:heldout"', fs["task.toml"])
        spec, fs = driver.make("ew_expr_f32", 0)
        self.assertIn('"split:train"', fs["task.toml"])


class Dedupe(unittest.TestCase):
    def test_near_duplicates_are_dropped_across_families(self):
        class Fam:
            def __init__(self, name, distinct):
                self.NAME, self.distinct, self.__doc__ = name, distinct, "fake"

            def generate(self, rng, seed):
                c = rng.uniform(1, 2)  # constants differ seed to seed: not a new computation
                op = "+" if not self.distinct or seed % 2 == 0 else "*"
                body = f"  for (int i = 0; i < n; ++i) out[i] = x[i] {op} {c!r}f;"
                return emit.TaskSpec(family=self.NAME, seed=seed, field="f", coop="none", summary="s",
                                     params=[emit.P("n", "int", "size"), emit.P("x", "const float*", "in", len="n", dist="uniform(0, 1)"),
                                             emit.P("out", "float*", "out", len="n")],
                                     configs=[], rtol=0, atol=0, flops="n", bytes="8*n", reference_body=body,
                                     impls={"naive": ("(weak) x", ""), "a": ("a", ""), "b": ("b", "")})
        fams = {"aa": Fam("aa", True), "bb": Fam("bb", False)}
        with mock.patch.object(driver, "all_families", return_value=fams):
            chosen, stats = driver.select(3)
        self.assertEqual([(f, s) for f, s, *_ in chosen], [("aa", 0), ("aa", 1)])
        self.assertEqual(stats["aa"]["near_duplicates"], 3 * driver.ATTEMPTS - 2)
        self.assertEqual(stats["bb"]["kept"], 0)  # every bb task repeats aa's "+" computation


class Manifest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(MANIFEST) as f:
            cls.m = json.load(f)

    def test_bars(self):
        tasks = self.m["tasks"]
        fams = {}
        for t in tasks:
            fams[t["family"]] = fams.get(t["family"], 0) + 1
        self.assertGreaterEqual(len(tasks), 1000)
        self.assertGreaterEqual(len(fams), 30)
        self.assertLessEqual(max(fams.values()), 0.05 * len(tasks), fams)
        self.assertEqual(len({t["id"] for t in tasks}), len(tasks))
        self.assertEqual(len({t["canonical"] for t in tasks}), len(tasks), "near-duplicates left in")

    def test_split_is_by_family(self):
        split = {}
        for t in self.m["tasks"]:
            self.assertEqual(split.setdefault(t["family"], t["split"]), t["split"])
        self.assertEqual(sorted(f for f, s in split.items() if s == "heldout"), sorted(HELDOUT))

    def test_no_task_in_the_manifest_failed_validation(self):
        # a failed task is pruned (its seed moves to "excluded"); a recorded result belongs to these bytes
        for t in self.m["tasks"]:
            v = t.get("validation")
            if v is not None:
                self.assertTrue(v["ok"], (t["id"], v["problems"]))
                self.assertEqual(v["hash"], t["hash"], t["id"])
        for e in self.m.get("excluded", []):
            self.assertTrue(e["why"], e)

    def test_gpu_sample_is_stratified(self):
        sample = driver.gpu_sample(self.m, 0.2)
        self.assertEqual(sample, driver.gpu_sample(self.m, 0.2))
        per = {}
        for tid in sample:
            per[tid.split("/")[0]] = per.get(tid.split("/")[0], 0) + 1
        for fam, n in self.m["families"].items():
            self.assertGreaterEqual(per.get(fam, 0), 0.2 * n["kept"], fam)
        self.assertGreaterEqual(len(sample), 0.2 * len(self.m["tasks"]))


class Regeneration(unittest.TestCase):
    def test_check_finds_an_edited_file(self):
        with tempfile.TemporaryDirectory() as d:
            m = driver.generate(d, 2, ["poly_horner", "stencil_1d"])
            self.assertEqual(driver.check(d, dict(m, tasks=m["tasks"])) and [], [])
            fams_only = driver.check(d, m)
            # check() regenerates every family of the manifest's per_family: restrict to these two
            self.assertTrue(any("generated but not in the manifest" in p for p in fams_only))
            with mock.patch.object(driver, "all_families", return_value={k: v for k, v in all_families().items() if k in ("poly_horner", "stencil_1d")}):
                self.assertEqual(driver.check(d, m), [])
                p = os.path.join(d, "c2cuda", "poly_horner", "poly_horner_s000", "reference.c")
                with open(p, "a") as f:
                    f.write("/* edited */\n")
                self.assertTrue(any("differs from the generator output" in q for q in driver.check(d, m)))


if __name__ == "__main__":
    unittest.main()
