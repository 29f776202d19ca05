"""The reference's output comparison (torch_outputs.compare) and its input draws (torch_problem.draw_inputs,
hidden families included). Needs torch (skipped without it)."""
import unittest

try:
    import torch
except ImportError:  # CI machines have no torch: the C++ supervisor's side is tested there
    torch = None

from cudaperf import torch_outputs, torch_problem


@unittest.skipIf(torch is None, "torch is not installed")
class CompareTest(unittest.TestCase):
    def test_compare_reports_first_mismatch_across_chunks(self):
        e = torch.zeros(1000)
        g = e.clone()
        g[700] = 1.0
        g[900] = float("nan")
        m = torch_outputs.compare(e, g, 1e-4, 1e-5, "out", chunk=256)
        self.assertIn("out[700]", m)
        self.assertIn("2 of 1000 elements differ", m)
        self.assertEqual(torch_outputs.compare(e, e.clone(), 0, 0, "out", chunk=256), "")
        nan = torch.tensor([float("nan"), float("inf"), 1.0])
        self.assertEqual(torch_outputs.compare(nan, nan.clone(), 0, 0, "out"), "")
        self.assertIn("out[1]", torch_outputs.compare(nan, torch.tensor([float("nan"), 5.0, 1.0]), 1.0, 1.0, "out"))


@unittest.skipIf(torch is None, "torch is not installed")
class MixedInputsTest(unittest.TestCase):
    def test_hidden_families_leave_the_unit_interval_and_follow_the_seed(self):
        class Mod:  # a reference whose get_inputs draws from [0, 1) as written
            @staticmethod
            def get_inputs():
                return [torch.rand(64, 256), torch.randn(8), torch.rand_like(torch.empty(4, 4))]

        from cudaperf import torch_hidden
        plan = {"device": "cpu", "families": {"c": list(torch_hidden.FAMILIES)}}
        real_rand = torch.rand
        draws = [torch_problem.draw_inputs(torch, Mod, plan, seed, config="c") for seed in range(24)]
        self.assertTrue(all(x.shape == (64, 256) and x.dtype == torch.float32 for x, _, _ in draws))
        self.assertTrue(any(bool((x < 0).any()) for x, _, _ in draws))     # not only [0, 1)
        self.assertTrue(any(float(x.abs().max()) > 10 for x, _, _ in draws))  # large magnitudes too
        self.assertTrue(any(bool((x >= 0).all()) for x, _, _ in draws))    # and the problem's own
        again = torch_problem.draw_inputs(torch, Mod, plan, 3, config="c")
        self.assertTrue(all(torch.equal(a, b) for a, b in zip(again, draws[3])))  # the seed decides
        self.assertIs(torch.rand, real_rand)  # restored after the call
        as_written = torch_problem.draw_inputs(torch, Mod, {"device": "cpu"}, 3)[0]
        self.assertTrue(bool((as_written >= 0).all() and (as_written < 1).all()))

    def test_identity_parameters_are_randomised_and_scalars_perturbed(self):
        from cudaperf import torch_hidden
        ln = torch.nn.LayerNorm(16)
        changed = torch_hidden.randomize_identities(torch, ln, 7)
        self.assertEqual(sorted(changed), ["bias", "weight"])
        self.assertFalse(bool((ln.weight == 1).all()) or bool((ln.bias == 0).all()))
        self.assertTrue(bool((ln.weight > 0).all()))  # same sign as the identity
        init, n = torch_hidden.perturb_scalars([3, 1.0, True, 0.5], torch_hidden.rng(1, "x"))
        self.assertEqual((init[0], init[2], n), (3, True, 2))
        self.assertNotEqual(init[1], 1.0)
        self.assertEqual(torch_hidden.tol_scale(torch, torch.full((4,), 100.0), 1.0), 100.0)
        self.assertEqual(torch_hidden.tol_scale(torch, torch.full((4,), 0.01), 1.0), 1.0)

    def test_inputs_drawn_on_the_device_fall_back_to_as_written(self):
        calls = []

        class Mod:  # a get_inputs that cannot run with a default device (its own CPU torch.Generator on CUDA)
            @staticmethod
            def get_inputs():
                d = torch.get_default_device()
                calls.append(d.type)
                if d.type != "cpu":
                    raise RuntimeError("Expected a 'cuda' device type for generator")
                return [torch.rand(16)]

        xs = torch_problem.draw_inputs(torch, Mod, {"device": "meta"}, 5)
        self.assertEqual(calls, ["meta", "cpu"])  # tried on the device first, then as written
        self.assertEqual(xs[0].device.type, "cpu")
        self.assertTrue(torch.equal(xs[0], torch_problem.draw_inputs(torch, Mod, {"device": "cpu"}, 5)[0]))  # re-seeded

    def test_inputs_land_on_the_run_device(self):
        class Mod:
            @staticmethod
            def get_inputs():
                return [torch.rand(8), torch.zeros(2, device="cpu")]  # an explicit device stays

        xs = torch_problem.draw_inputs(torch, Mod, {"device": "meta"}, 1)
        self.assertEqual([x.device.type for x in xs], ["meta", "cpu"])


if __name__ == "__main__":
    unittest.main()


@unittest.skipIf(torch is None, "torch is not installed")
class MaterializeTest(unittest.TestCase):
    """Outputs are made dense inside the call, so the copy after "done" cannot do layout work."""

    def test_dense_outputs_are_kept(self):
        y = torch.arange(12.0).reshape(3, 4)
        for t in (y, y[1:], y.view(4, 3), torch.empty(0, 5)):
            got, copied = torch_outputs.materialize(t)
            self.assertIs(got, t)
            self.assertFalse(copied)

    def test_views_are_made_dense(self):
        y = torch.arange(12.0).reshape(3, 4)
        for t in (y.t(), y[:, ::2], torch.ones(1, 4).expand(5, 4), y.permute(1, 0).unsqueeze(0),
                  torch._neg_view(y), torch.complex(y, y).conj()):
            got, copied = torch_outputs.materialize(t)
            self.assertTrue(copied)
            self.assertTrue(got.is_contiguous())
            self.assertFalse(got.is_neg() or got.is_conj())
            self.assertTrue(torch.equal(got, t))
