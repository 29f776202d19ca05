#!/usr/bin/env python3
"""The profile-target metrics that this ncu knows, for the structure job (tools/gpu/structure.sh).

Usage: ncu_metrics.py WANTED QUERY OUT
  WANTED  metric names, whitespace-separated (`cudaperf profile-target --list-metrics`, one a line)
  QUERY   `ncu --query-metrics` output
  OUT     receives the kept names, comma-separated (ncu --metrics)
A metric is kept when its base name (before the first '.') is listed. launch__* attributes and
*_pct ratios are not listed by --query-metrics, so they are kept. When the listing looks broken
(100 names or fewer) every metric is kept. Prints the dropped ones."""
import sys


def keep(wanted, known):
    if len(known) <= 100:
        return list(wanted)
    return [m for m in wanted if m.split(".")[0] in known or m.startswith("launch__") or m.endswith("_pct")]


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        wanted = f.read().split()
    with open(argv[2], errors="replace") as f:
        known = {line.split()[0] for line in f if line.strip()}
    ok = keep(wanted, known)
    print("metrics dropped (unknown to this ncu):", [m for m in wanted if m not in ok])
    with open(argv[3], "w") as f:
        f.write(",".join(ok))


if __name__ == "__main__":
    main(sys.argv)
