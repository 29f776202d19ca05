#!/usr/bin/env python3
"""The Python extractor (python/cudaperf/extract.py) on the shared cases of tests/data/extract:
the C++ one (serve::extract_code) runs the same file in tests/unit/extract_test.cpp."""
import json, sys
sys.path.insert(0, sys.argv[1] + "/python")
from cudaperf.extract import extract_code  # noqa: E402

bad = 0
for c in json.load(open(sys.argv[1] + "/tests/data/extract/cases.json")):
    got = extract_code(c["response"], c["prompt"] or None)
    if got != c["expected"]:
        print(f"FAIL {c['name']}: got {got!r}, want {c['expected']!r}")
        bad += 1
print("extract parity (python):", "ok" if not bad else f"{bad} failing")
sys.exit(1 if bad else 0)
