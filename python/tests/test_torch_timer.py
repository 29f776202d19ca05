"""torch_timer without a GPU or torch: a stand-in torch module records what the timer does, so the flush
size ([l2_flush]), the clock rule ([clock]) and the order of the set-up before a timed call (the C
measurer's: persisting-L2 reset, inputs, flush) are checked on the CPU. Standard library only."""
import sys
import types
import unittest
from pathlib import Path
from unittest import mock

from cudaperf import torch_timer, torch_timing

REPO = Path(__file__).resolve().parents[2]


class FakeTensor:
    def __init__(self, log, numel):
        self.log, self.numel = log, numel

    def zero_(self):
        self.log.append("flush")


class FakeEvent:
    def __init__(self, log, name):
        self.log, self.name = log, name

    def record(self):
        self.log.append(self.name)

    def elapsed_time(self, other):
        return 1.5


def fake_torch(l2_bytes, log):
    torch = types.ModuleType("torch")
    events = iter(("e0", "e1"))
    props = types.SimpleNamespace(L2_cache_size=l2_bytes)
    torch.float32 = "float32"
    torch.empty = lambda n, dtype, device: FakeTensor(log, n)
    torch.cuda = types.SimpleNamespace(
        get_device_properties=lambda i: props, current_device=lambda: 0,
        synchronize=lambda: log.append("sync"),
        Event=lambda enable_timing=False: FakeEvent(log, next(events)))
    return torch


def timer(l2_bytes, log):
    torch = fake_torch(l2_bytes, log)
    with mock.patch.dict(sys.modules, {"torch": torch, "pynvml": None}), \
            mock.patch.object(torch_timer.Timer, "_open_l2_reset", lambda self: None):
        return torch_timer.Timer("cuda"), torch


class FlushTest(unittest.TestCase):
    def test_flush_is_the_files_rule(self):
        for l2 in (0, None, 1 << 20, 50 << 20, 60 << 20):
            with self.subTest(l2=l2):
                t, _ = timer(l2, [])
                self.assertEqual(t.flush.numel * 4, torch_timing.l2_flush_bytes(l2 or 0))

    def test_unknown_l2_is_the_files_key(self):
        t, _ = timer(0, [])
        want = torch_timing.L2_FLUSH_UNKNOWN_L2_BYTES * torch_timing.L2_FLUSH_MULTIPLE
        self.assertEqual(t.flush.numel * 4, max(want, torch_timing.L2_FLUSH_MIN_BYTES))

    def test_measurer_uses_the_same_buffer(self):
        # torch_measure's Measurer needs a plan and a candidate; its source must take the buffer from
        # torch_timer.flush_buffer, not size one of its own.
        src = (REPO / "python" / "cudaperf" / "torch_measure.py").read_text(encoding="utf-8")
        self.assertIn("torch_timer.flush_buffer(torch)", src)
        for literal in ("50 << 20", "1 << 21", "L2_cache_size"):
            self.assertFalse(literal in src, f"torch_measure.py sizes its own flush ({literal})")


class StoppingRuleTest(unittest.TestCase):
    def test_defaults_are_the_files(self):
        t = torch_timing.rule_files.load("timing.toml")["stopping_rule"]
        keys = ("min_samples", "max_samples", "target_rel_stdev", "budget_s")
        self.assertEqual(torch_timing.stopping_rule({}), {k: t[k] for k in keys})
        self.assertEqual(torch_timing.stopping_rule({"min_samples": 3, "other": 1})["min_samples"], 3)

    def test_no_copies_of_the_defaults(self):
        for name in ("torch_measure.py", "torch_baselines.py"):
            src = (REPO / "python" / "cudaperf" / name).read_text(encoding="utf-8")
            with self.subTest(name=name):
                self.assertIn("torch_timing.stopping_rule(t)", src)
                self.assertFalse('get("min_samples", 10)' in src, f"{name} repeats [stopping_rule]")


class ClockTest(unittest.TestCase):
    def test_throttled_is_the_files_rule(self):
        t, _ = timer(50 << 20, [])
        t.max_mhz = 1000.0
        for mhz in (-1.0, 500.0, 749.99, 750.0, 1000.0):
            with self.subTest(mhz=mhz), mock.patch.object(t, "sm_mhz", lambda mhz=mhz: mhz):
                self.assertIs(t.throttled(), torch_timing.clock_throttled(mhz, 1000.0))
        self.assertEqual(t.clocks, [500.0, 749.99, 750.0, 1000.0])


class OrderTest(unittest.TestCase):
    def test_reset_then_inputs_then_flush_then_window(self):
        log = []
        t, torch = timer(50 << 20, log)
        t.reset_l2 = lambda: log.append("reset_l2")
        with mock.patch.dict(sys.modules, {"torch": torch}):
            out, ms, _ = t.run(lambda: log.append("call") or 7, lambda: log.append("prepare"))
        self.assertEqual((out, ms), (7, 1.5))
        self.assertEqual(log, ["reset_l2", "prepare", "flush", "sync", "e0", "call", "e1", "sync"])


if __name__ == "__main__":
    unittest.main()
