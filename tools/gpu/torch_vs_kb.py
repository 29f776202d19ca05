#!/usr/bin/env python3
"""The torch-vs-kb job's summary: candidates per minute of the engine (`tasks check-gpu`) against the
KernelBench-style loop (bench/kernelbench_loop.py) on the same implementations.

Usage: torch_vs_kb.py IMPLS ENGINE_SECONDS KB_LOOP_JSON   (prints the JSON summary)"""
import json
import sys


def summary(impls, engine_s, kb_totals):
    eng = 60 * impls / engine_s if engine_s else None
    kb_rate = kb_totals.get("candidates_per_min")
    return {"impls": impls, "engine_wall_s": engine_s, "engine_per_min": eng, "kb_loop": kb_totals,
            "ratio": eng / kb_rate if eng and kb_rate else None}


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    with open(argv[3]) as f:
        kb = json.load(f)["totals"]
    print(json.dumps(summary(int(argv[1]), float(argv[2]), kb), indent=1))


if __name__ == "__main__":
    main(sys.argv)
