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
from cudaperf_gen.split import HELDOUT, TORCH_HELDOUT  # noqa: E402
from cudaperf_gen.torch_families import all_families as torch_families  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "python"))
from cudaperf import torch_static  # noqa: E402  (stdlib only: the engine's static guards)

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
        with mock.patch.object(driver, "all_families", return_value=fams), mock.patch.object(driver, "torch_families", return_value={}):
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
        tasks = [t for t in self.m["tasks"] if t.get("kind", "c2cuda") == "c2cuda"]
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
            g = t.get("gpu")
            if g is not None:
                self.assertTrue(g["ok"], (t["id"], g["problems"]))
                self.assertEqual(g["hash"], t["hash"], t["id"])
        for e in self.m.get("excluded", []):
            self.assertTrue(e["why"], e)

    def test_a_task_failing_on_the_gpu_is_pruned(self):
        m = {"tasks": [dict(id="f/f_s000", family="f", seed=0, hash="h0", kind="c2cuda"),
                       dict(id="f/f_s001", family="f", seed=1, hash="h1", kind="c2cuda")],
             "families": {"f": {"kept": 2}}}
        rec = lambda tid, impl, cfg, st: json.dumps({"task": tid, "impl": impl, "config": cfg, "status": st,
                                                    "device": "GPU X, sm_90", "date": "2026-12-07T00:00:00Z",
                                                    "message": "dir[1]: expected 2, got 3"})
        lines = [rec("f/f_s000", "naive", "tiny", "ok"), rec("f/f_s000", "naive", "perf", "ok"),
                 rec("f/f_s001", "naive", "tiny", "wrong_answer"), rec("f/f_s001", "naive", "perf", "not_run"),
                 rec("other/x", "naive", "tiny", "wrong_answer")]
        self.assertEqual(driver.record_gpu(m, lines), 2)
        self.assertTrue(m["tasks"][0]["gpu"]["ok"])
        self.assertFalse(m["tasks"][1]["gpu"]["ok"])
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(driver.prune(d, m), 1)
        self.assertEqual([t["id"] for t in m["tasks"]], ["f/f_s000"])
        self.assertEqual(m["families"]["f"]["kept"], 1)
        (e,) = m["excluded"]
        self.assertEqual((e["seed"], e["hash"]), (1, "h1"))
        self.assertIn("gpu (GPU X, 2026-12-07): naive@tiny: wrong_answer", e["why"])

    def test_gpu_sample_is_stratified(self):
        sample = driver.gpu_sample(self.m, 0.2)
        self.assertEqual(sample, driver.gpu_sample(self.m, 0.2))
        per = {}
        fam_of = {t["id"]: t["family"] for t in self.m["tasks"]}
        for tid in sample:
            per[fam_of[tid]] = per.get(fam_of[tid], 0) + 1
        for fam, n in self.m["families"].items():
            self.assertGreaterEqual(per.get(fam, 0), 0.2 * n["kept"], fam)
        self.assertGreaterEqual(len(sample), 0.2 * len(self.m["tasks"]))


    def test_torch_bars(self):
        tasks = [t for t in self.m["tasks"] if t.get("kind") == "torch2cuda"]
        fams = {}
        for t in tasks:
            fams[t["family"]] = fams.get(t["family"], 0) + 1
            self.assertTrue(t["id"].startswith(f"torch2cuda/gen_{t['family']}/{t['family']}_s"), t["id"])
        self.assertGreaterEqual(len(tasks), 400)
        self.assertGreaterEqual(len(fams), 20)
        self.assertLessEqual(max(fams.values()), 0.05 * len(tasks), fams)
        self.assertEqual(self.m["kinds"]["torch2cuda"], {"tasks": len(tasks), "families": len(fams)})
        self.assertEqual(len({t["canonical"] for t in self.m["tasks"]}), len(self.m["tasks"]), "near-duplicates left in")
        held = sorted(f for f in fams if any(t["split"] == "heldout" for t in tasks if t["family"] == f))
        self.assertEqual(held, sorted(TORCH_HELDOUT))
        n_held = sum(1 for t in tasks if t["split"] == "heldout")
        self.assertTrue(0.1 <= n_held / len(tasks) <= 0.3, n_held)

    def test_torch_sample_covers_every_family(self):
        ids = driver.gpu_sample(self.m, 0, "torch2cuda")
        fams = {t["family"] for t in self.m["tasks"] if t.get("kind") == "torch2cuda"}
        self.assertEqual(len(ids), len(fams))
        self.assertTrue(all(i.startswith("torch2cuda/") for i in ids))
        self.assertFalse(any(i.startswith("torch2cuda/") for i in driver.gpu_sample(self.m, 0, "c2cuda")))


class TorchCanonical(unittest.TestCase):
    REF = ("class Model(nn.Module):\n    def __init__(self, alpha=1.5):\n        super().__init__()\n        self.alpha = alpha\n\n"
           "    def forward(self, x):\n        return torch.sum(torch.tanh(x) * {c}, dim={d}){t}\n\n\ndef get_inputs():\n    return []\n")

    def test_constants_and_names_are_the_same_computation(self):
        a = self.REF.format(c="2.5", d=1, t="")
        b = a.replace("2.5", "-0.75").replace("(x)", "(y)").replace("x)", "y)")  # attribute names (self.alpha) are structure
        self.assertEqual(canon.canonical_torch(a, "x:(B, N)"), canon.canonical_torch(b, "y:(B, N)"))

    def test_dims_windows_and_structure_differ(self):
        a = self.REF.format(c="2.5", d=1, t="")
        for other in [self.REF.format(c="2.5", d=2, t=""), self.REF.format(c="2.5", d=1, t=" + 1.0"),
                      a.replace("torch.tanh", "torch.sigmoid")]:
            self.assertNotEqual(canon.canonical_torch(a), canon.canonical_torch(other), other)
        self.assertNotEqual(canon.canonical_py("F.avg_pool1d(x, kernel_size=3, stride=2)"),
                            canon.canonical_py("F.avg_pool1d(x, kernel_size=5, stride=2)"))
        self.assertNotEqual(canon.canonical_torch(a, "x:(B, N)"), canon.canonical_torch(a, "x:(B, 1)"))


class TorchFamilies(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fams = torch_families()

    def test_enough_families_with_distinct_names(self):
        self.assertGreaterEqual(len(self.fams), 20)
        self.assertFalse(set(self.fams) & set(all_families()), "a torch family shares a c2cuda family's name")
        for name, mod in self.fams.items():
            self.assertEqual(mod.NAME, name)
            self.assertRegex(name, r"^pt_[a-z0-9_]+$")
            self.assertTrue((mod.__doc__ or "").strip(), f"{name} has no docstring")

    def test_every_family_emits_a_folder_the_engine_accepts(self):
        import ast
        import tomllib
        reqs, where = [], []
        with tempfile.TemporaryDirectory() as d:
            for name in sorted(self.fams):
                for seed in (0, 1, 7):
                    spec, fs = driver.make_torch(name, seed)
                    with self.subTest(family=name, seed=seed):
                        self.assertEqual(spec.task_id, f"torch2cuda/gen_{name}/{name}_s{seed:03d}")
                        toml = tomllib.loads(fs["task.toml"])
                        self.assertEqual(toml["kind"], "torch2cuda")
                        self.assertEqual(toml["id"], spec.task_id)
                        self.assertIn(f"family:{name}", toml["tags"])
                        self.assertIn("generated", toml["tags"])
                        self.assertTrue(0 <= toml["tolerance"]["rtol"] < 1 and 0 <= toml["tolerance"]["atol"] < 1)
                        names = [c["name"] for c in toml["configs"]]
                        self.assertEqual(names[0], "tiny")
                        self.assertTrue(any(n.startswith("odd") for n in names))
                        self.assertEqual(sum(n.startswith("perf") for n in names), 1)
                        tree = ast.parse(fs["reference.py"])
                        defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
                        self.assertLessEqual({"Model", "get_inputs", "get_init_inputs"}, defined)
                        glob = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
                        for c in toml["configs"]:
                            self.assertLessEqual(set(c) - {"name"}, glob, c)
                        impls = sorted(k for k in fs if k.startswith("impls/"))
                        self.assertIn("impls/naive.py", impls)
                        self.assertGreaterEqual(len(impls), 2)
                        self.assertTrue(fs["impls/naive.py"].startswith("# strategy: naive (weak) — "))
                        self.assertEqual(len({fs[k] for k in impls}), len(impls), "impls must differ")
                        for k in impls:
                            self.assertTrue(fs[k].startswith(f"# strategy: {k[6:-3]} "), k)
                            self.assertIn("at::cuda::getCurrentCUDAStream()", fs[k])
                            ast.parse(fs[k])
                    td = os.path.join(d, spec.rel_dir)
                    for rel, text in fs.items():
                        os.makedirs(os.path.dirname(os.path.join(td, rel)), exist_ok=True)
                        with open(os.path.join(td, rel), "w") as f:
                            f.write(text)
                    keys = sorted({k for c in tomllib.loads(fs["task.toml"])["configs"] for k in c} - {"name"})
                    reqs.append({"dir": td, "reference": os.path.join(td, "reference.py"), "config_keys": keys,
                                 "impls": {k[6:-3]: os.path.join(td, k) for k in fs if k.startswith("impls/")}})
                    where.append(spec.task_id)
            # the engine's static guards (the ones `cudaperf tasks validate` runs) accept every impl
            res = torch_static.check_tasks({"tasks": reqs})
            for tid, r in zip(where, res["tasks"]):
                probs = r["reference"] + [p for ps in r["impls"].values() for p in ps]
                self.assertEqual(probs, [], tid)

    def test_generation_is_deterministic(self):
        for name in sorted(self.fams):
            self.assertEqual(driver.make_torch(name, 3)[1], driver.make_torch(name, 3)[1])

    def test_cuda_tensor_names_do_not_shadow_the_kernels_names(self):
        # a tensor named k in a GEMM or t in a line kernel compiled to the wrong thing (nvcc found it)
        reserved = {"idx", "out", "n", "t", "o", "i", "k", "bb", "base", "R", "I", "O", "M", "N", "K", "NB", "acc", "s",
                    "carry", "lane", "line", "stride", "begin", "end", "d", "nd", "sizes", "stream", "Rd"}
        for name in sorted(self.fams):
            for seed in range(12):
                spec, _ = driver.make_torch(name, seed)
                for strategy, im in spec.impls.items():
                    names = set(re.findall(r"torch::Tensor (\w+)", im.host_decl))
                    clash = names & (reserved | ({"r"} if "#define AT(p)" in im.cuda else set()))
                    self.assertFalse(clash, (spec.task_id, strategy, clash))

    def test_toml_tags_carry_family_and_split(self):
        _, fs = driver.make_torch(TORCH_HELDOUT[0], 0)
        self.assertIn('"split:heldout"', fs["task.toml"])
        _, fs = driver.make_torch("pt_act_chain", 0)
        self.assertIn('"split:train"', fs["task.toml"])


class Regeneration(unittest.TestCase):
    def test_check_finds_an_edited_file(self):
        with tempfile.TemporaryDirectory() as d:
            m = driver.generate(d, 2, ["poly_horner", "stencil_1d"])
            self.assertEqual(driver.check(d, dict(m, tasks=m["tasks"])) and [], [])
            fams_only = driver.check(d, m)
            # check() regenerates every family of the manifest's per_family: restrict to these two
            self.assertTrue(any("generated but not in the manifest" in p for p in fams_only))
            with mock.patch.object(driver, "all_families", return_value={k: v for k, v in all_families().items() if k in ("poly_horner", "stencil_1d")}), \
                    mock.patch.object(driver, "torch_families", return_value={}):
                self.assertEqual(driver.check(d, m), [])
                p = os.path.join(d, "c2cuda", "poly_horner", "poly_horner_s000", "reference.c")
                with open(p, "a") as f:
                    f.write("/* edited */\n")
                self.assertTrue(any("differs from the generator output" in q for q in driver.check(d, m)))


if __name__ == "__main__":
    unittest.main()
