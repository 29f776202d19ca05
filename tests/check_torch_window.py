"""torch_measure.judge_window (and floor_ms, for rows with 'meta') against tests/data/torch_window/cases.json:
every row's numbers must break exactly the rule it names ('' for none). Standard library only (no torch, no GPU)."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from cudaperf import torch_measure  # noqa: E402


def main():
    with open(os.path.join(ROOT, "tests", "data", "torch_window", "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    bad = 0
    for c in cases:
        median = float(c["median"]) if isinstance(c["median"], str) else c["median"]
        floor = torch_measure.floor_ms(c["meta"]) if "meta" in c else c["floor"]
        why = torch_measure.judge_window(median, floor, c["pre"], c["pre_cal"], c["after"], c["after_cal"])
        got = why.split(":")[0].removeprefix("rule ") if why else ""
        ok = got == c["rule"]
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {c['name']}: want '{c['rule']}', got '{got}'" + (f" ({why})" if why and not ok else ""))
    print(f"{len(cases) - bad}/{len(cases)} rows")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
