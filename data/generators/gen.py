#!/usr/bin/env python3
"""Generate the generated tier of C-to-CUDA and PyTorch-to-CUDA tasks (docs/generators.md).

  gen.py generate [--out DIR] [--per-family N] [--families a,b]   write task folders + manifest
  gen.py check [--out DIR]                                         regenerate in memory, compare with the tree
  gen.py record-validation VALIDATE_JSON...                        fold `cudaperf tasks validate --json` results into the manifest
  gen.py record-gpu RECORDS_JSONL...                               fold `tasks check-gpu --records` lines into the manifest
  gen.py prune                                                     drop tasks whose validation or GPU check failed (tree + manifest)
  gen.py sample [--fraction F] [--kind c2cuda|torch2cuda]          print the stratified sample's task ids
                                                                   (c2cuda: <family>/<name>, torch2cuda: torch2cuda/<category>/<name>)
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cudaperf_gen import driver  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "generated"))
MANIFEST = os.path.join(HERE, "manifest.json")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["generate", "check", "record-validation", "record-gpu", "prune", "sample"])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--manifest", default=MANIFEST)
    ap.add_argument("--per-family", type=int, default=driver.PER_FAMILY)
    ap.add_argument("--torch-per-family", type=int, default=driver.TORCH_PER_FAMILY)
    ap.add_argument("--families", default="")
    ap.add_argument("--kind", default="", choices=["", "c2cuda", "torch2cuda"])
    ap.add_argument("--fraction", type=float, default=0.2)
    a = ap.parse_args(argv)
    fams = [f for f in a.families.split(",") if f] or None
    if a.cmd == "generate":
        m = driver.generate(a.out, a.per_family, fams, old_manifest=driver.load_manifest(a.manifest),
                            torch_per_family=a.torch_per_family)
        driver.save_manifest(a.manifest, m)
        kinds = ", ".join(f"{k} {v['tasks']} in {v['families']} families" for k, v in sorted(m["kinds"].items()))
        print(f"generated {len(m['tasks'])} tasks ({kinds}) under {a.out}")
        return 0
    m = driver.load_manifest(a.manifest)
    if m is None:
        print(f"no manifest at {a.manifest}", file=sys.stderr)
        return 2
    if a.cmd == "check":
        problems = driver.check(a.out, m)
        for p in problems[:50]:
            print(p)
        print(f"check: {len(m['tasks'])} tasks, {len(problems)} problem(s)")
        return 1 if problems else 0
    if a.cmd == "record-validation":
        n = driver.record_validation(m, [json.load(open(f)) for f in a.files])
        driver.save_manifest(a.manifest, m)
        print(f"recorded {n} validation result(s)")
        return 0
    if a.cmd == "record-gpu":
        lines = [ln for f in a.files for ln in open(f) if ln.strip()]
        n = driver.record_gpu(m, lines)
        driver.save_manifest(a.manifest, m)
        print(f"recorded GPU results of {n} task(s)")
        return 0
    if a.cmd == "prune":
        n = driver.prune(a.out, m)
        driver.save_manifest(a.manifest, m)
        print(f"pruned {n} task(s) that failed validation or the GPU check")
        return 0
    for d in driver.gpu_sample(m, a.fraction, a.kind or None):
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
