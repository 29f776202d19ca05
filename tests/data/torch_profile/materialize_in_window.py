"""The harness's own output densify (torch_outputs.materialize) runs inside the profiled window, so the
PyTorch operators it runs must pass judge_profile's torch_fallback rule: when they did not, every honest
torch2cuda impl was hack_suspected (the H100, 2026-12-05). Profiled on the CPU (the ops are the same);
a real compute op in the same window must still be caught. Run by tests/check_torch_cpu.sh (needs torch)."""
import sys

import torch

from cudaperf.torch_outputs import materialize
from cudaperf.torch_profile import judge_profile, profile_call

z = torch.randn(3, 4, dtype=torch.complex64)
outputs = {
    "dense": torch.randn(4, 5),
    "transposed": torch.randn(4, 5).t(),
    "expanded": torch.randn(1, 5).expand(4, 5),
    "conjugate bit": z.conj(),
    "negative bit": z.conj().imag,
}
status = 0
for name, t in outputs.items():
    (dense, copied), kernels, ops, _ = profile_call(torch, lambda t=t: materialize(t), "cpu")
    why = judge_profile(kernels, ops, ["own_kernel"], False)
    ok = why == "" and dense.is_contiguous() and not dense.is_conj() and not dense.is_neg() and torch.equal(dense, t)
    print(f"{'ok  ' if ok else 'FAIL'} materialize({name}): copied={copied} ops={sorted(set(ops))} {why}")
    status |= not ok
x = torch.randn(4, 5)
_, kernels, ops, _ = profile_call(torch, lambda: materialize(torch.relu(x)), "cpu")
why = judge_profile(kernels, ops, ["own_kernel"], False)
caught = why.startswith("rule torch_fallback:") and "relu" in why
print(f"{'ok  ' if caught else 'FAIL'} a relu in the same window: {why or 'not caught'}")
sys.exit(status or not caught)
