"""The training data of the RL run, from the repository's two datasets.

- prompts: `cudaperf export --format jsonl` (C-to-CUDA tasks; the prompt the service's tasks are
  described by). Held-out tasks: the export's `split = heldout` ones, plus every task whose id hashes
  into the held-out fraction (a fixed SHA-256 split, so a resumed or repeated run sees the same one).
- SFT pairs: (prompt -> ```cuda implementation```) for every data/tasks/c2cuda/**/impls/*.cu of a
  training task, and (PyTorch reference -> ```python implementation```) for every
  data/tasks/torch2cuda/**/impls/*.py; variants of the CUDA ones with another block size
  (`threads = 256` -> 128 / 512 where the source has such a constant) so the policy meets
  different launch shapes of the same kernel.
"""
from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

REPO = Path(__file__).resolve().parents[1]
C2CUDA = REPO / "data/tasks/c2cuda"
TORCH2CUDA = REPO / "data/tasks/torch2cuda"
_BLOCK = re.compile(r"\b(threads|kThreads|THREADS|kBlock|BLOCK|block_size|kBlockSize)(\s*=\s*)(128|256|512)\b")


def export_prompts(binary: str, out: Path) -> Path:
    """`cudaperf export --format jsonl --out out` (once)."""
    if not out.exists():
        subprocess.run([binary, "export", "--format", "jsonl", "--root", str(REPO / "data/tasks"), "--out", str(out)],
                       check=True, capture_output=True)
    return out


def load_tasks(export_file: Path, heldout_fraction: float = 0.2, kinds: Tuple[str, ...] = ("c2cuda",)) -> List[dict]:
    """Rows {task_id, kind, category, prompt, heldout} of the export, of the given kinds (GRPO trains on
    C-to-CUDA tasks; the torch2cuda ones serve the SFT)."""
    rows = []
    for line in export_file.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            if r.get("kind", "c2cuda") not in kinds:
                continue
            h = int(hashlib.sha256(r["task_id"].encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
            r["heldout"] = r.get("split") == "heldout" or h < heldout_fraction
            rows.append(r)
    return rows


def answer(source: str, lang: str = "cuda") -> str:
    return f"```{lang}\n{source.rstrip()}\n```"


def block_variants(source: str) -> List[str]:
    """The source with its block-size constant set to the other common values (none when it has none)."""
    m = _BLOCK.search(source)
    if not m:
        return []
    return [source[:m.start(3)] + v + source[m.end(3):] for v in ("128", "256", "512") if v != m.group(3)]


def impl_files(task: dict) -> List[Path]:
    """A C-to-CUDA task's implementation files, sorted (none for other tasks)."""
    return sorted((C2CUDA / task["task_id"] / "impls").glob("*.cu"))


def sft_pairs(tasks: List[dict], torch_tasks: Sequence[dict] = (), augment: bool = True,
              seed: int = 0) -> List[Tuple[str, str]]:
    """(prompt, answer) pairs of the training tasks and of the torch2cuda tasks (rows of the export, whose
    prompts `cudaperf export` renders), shuffled."""
    pairs: List[Tuple[str, str]] = []
    for t in tasks:
        if t["heldout"]:
            continue
        for impl in impl_files(t):
            src = impl.read_text(encoding="utf-8")
            pairs.append((t["prompt"], answer(src)))
            if augment:
                pairs += [(t["prompt"], answer(v)) for v in block_variants(src)]
    for t in torch_tasks:
        impls = sorted((TORCH2CUDA.parent / t["task_id"] / "impls").glob("*.py"))
        pairs += [(t["prompt"], answer(p.read_text(encoding="utf-8"), "python")) for p in impls]
    random.Random(seed).shuffle(pairs)
    return pairs


def first_impls(tasks: List[dict]) -> List[Tuple[str, str]]:
    """(task_id, source) of each C-to-CUDA task's first implementation (rl.rewards.warm_service)."""
    return [(t["task_id"], impls[0].read_text(encoding="utf-8")) for t in tasks if (impls := impl_files(t))]


def tokenizer_texts(tasks: List[dict]) -> List[str]:
    """What the tokenizer is trained on: every prompt, every source of both datasets."""
    texts = [t["prompt"] for t in tasks]
    texts += [p.read_text(encoding="utf-8") for p in sorted(C2CUDA.glob("**/*.cu"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted(C2CUDA.glob("**/reference.c"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted(TORCH2CUDA.glob("**/*.py"))]
    return texts


def split_counts(tasks: List[dict]) -> Dict[str, int]:
    return {"train": sum(not t["heldout"] for t in tasks), "heldout": sum(t["heldout"] for t in tasks)}
