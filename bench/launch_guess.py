#!/usr/bin/env python3
"""Static launch shape (block size, dynamic shared memory) vs what Nsight Compute saw on the H200.

Usage: bench/launch_guess.py [--agreement bench/results/2026-12-01-h200-structure-agreement.json]
                             [--bin build/h-launch/cudaperf] [--root data/tasks] [--jobs 2]
                             [--static DIR] [--save-static DIR] [--out result.json]

For every kernel of the agreement file's "occupancy" list (task, impl, kernel, launch_block,
launch_dynamic_smem, ncu_theoretical: measured at the task's timed config), runs
`cudaperf analyze data/tasks/c2cuda/<task>/impls/<impl>.cu --task <task> --json` (or reads
<task with / as _>__<impl>.json from --static) and compares:

  after   the report's launch.block_size / block_size_source: .reqntid/.maxntid, else the host launch
          code ("launch"), else 256 "assumed"; and its occupancy fraction.
  before  git HEAD before the launch scanner: .reqntid/.maxntid, else 256 assumed, dynamic shared
          memory 0. Recomputed here by running the same binary with `--block-size 256
          --dynamic-smem 0` (an explicit option wins over the scan, the bounds win over both), which
          is exactly that rule; --no-before uses the agreement file's own static columns instead.

Counts: right = a block size from the bounds or the host code that equals the launch's; wrong = one
that differs; unknown = nothing known, 256 assumed (how many of those happen to be 256 is shown).
Occupancy equal = |static - ncu theoretical| <= 0.01.
"""
import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys
from collections import Counter

from ncu_csv import base_name


def analyze(binary, root, task, impl, extra):
    f = pathlib.Path(root) / "c2cuda" / task / "impls" / f"{impl}.cu"
    p = subprocess.run([binary, "analyze", str(f), "--task", task, "--root", str(root), "--json", *extra],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {p.stderr.strip()[:300]}"
    return json.loads(p.stdout), ""


def classify(block, source, measured):
    if source == "assumed":
        return "unknown"
    return "right" if block == measured else "wrong"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agreement", default="bench/results/2026-12-01-h200-structure-agreement.json")
    ap.add_argument("--bin", default="build/h-launch/cudaperf")
    ap.add_argument("--root", default="data/tasks")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--static", help="folder of saved reports instead of running cudaperf")
    ap.add_argument("--save-static", help="write the reports produced here")
    ap.add_argument("--no-before", action="store_true", help="take 'before' from the agreement file")
    ap.add_argument("--out", help="write rows and summary as JSON")
    a = ap.parse_args()

    rows = json.load(open(a.agreement))["occupancy"]
    impls = sorted({(r["task"], r["impl"]) for r in rows})
    reports, before_reports, errors = {}, {}, {}

    def key_file(task, impl):
        return f"{task.replace('/', '_')}__{impl}.json"

    def work(ti):
        task, impl = ti
        if a.static:
            p = pathlib.Path(a.static) / key_file(task, impl)
            rep, err = (json.loads(p.read_text()), "") if p.exists() else (None, f"no {p}")
        else:
            rep, err = analyze(a.bin, a.root, task, impl, [])
        before = None
        if not a.no_before:
            before, err2 = analyze(a.bin, a.root, task, impl, ["--block-size", "256", "--dynamic-smem", "0"])
            err = err or err2
        return ti, rep, before, err

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for ti, rep, before, err in ex.map(work, impls):
            reports[ti], before_reports[ti] = rep, before
            if err:
                errors[ti] = err
            if rep and a.save_static:
                pathlib.Path(a.save_static).mkdir(parents=True, exist_ok=True)
                (pathlib.Path(a.save_static) / key_file(*ti)).write_text(json.dumps(rep, indent=1))

    def close(x, y):
        return x is not None and y is not None and abs(x - y) <= 0.01

    out_rows = []
    for r in rows:
        ti = (r["task"], r["impl"])
        measured = int(r["launch_block"]) if r.get("launch_block") is not None else None
        row = {"task": r["task"], "impl": r["impl"], "kernel": r["kernel"], "launch_block": measured,
               "launch_dynamic_smem": r.get("launch_dynamic_smem"), "ncu_theoretical": r.get("ncu_theoretical")}
        k = next((x for x in (reports.get(ti) or {}).get("kernels", []) if base_name(x["name"]) == r["kernel"]), None)
        if k is None:
            row["missing"] = errors.get(ti, "kernel not in the static report")
            out_rows.append(row)
            continue
        la, scan = k["launch"], k.get("launch_scan", {})
        row.update({"block": la["block_size"], "source": la["block_size_source"],
                    "dynamic_smem": la["dynamic_shared_bytes"], "dynamic_smem_source": la["dynamic_shared_source"],
                    "occupancy": k["occupancy"]["fraction"], "scan_block": scan.get("block_size"),
                    "scan_note": scan.get("block_note", ""), "scan_smem_note": scan.get("dynamic_shared_note", ""),
                    "sites": [(s["line"], s["block_expr"], s["block_size"]) for s in scan.get("sites", [])]})
        row["after"] = classify(la["block_size"], la["block_size_source"], measured)
        if a.no_before:
            row.update({"before_block": r["static_block"], "before_source": r["static_block_source"],
                        "before_occupancy": r["static"]})
        else:
            bk = next((x for x in (before_reports.get(ti) or {}).get("kernels", []) if base_name(x["name"]) == r["kernel"]),
                      None)
            if bk is not None:
                src = bk["launch"]["block_size_source"]
                row.update({"before_block": bk["launch"]["block_size"],
                            "before_source": "assumed" if src == "option" else src,
                            "before_occupancy": bk["occupancy"]["fraction"]})
        if "before_block" in row:
            row["before"] = classify(row["before_block"], row["before_source"], measured)
        out_rows.append(row)

    done = [x for x in out_rows if "missing" not in x]
    summary = {"kernels": len(rows), "compared": len(done), "missing": len(rows) - len(done)}
    for when in ("before", "after"):
        have = [x for x in done if when in x]
        blk = "before_block" if when == "before" else "block"
        occ = "before_occupancy" if when == "before" else "occupancy"
        c = Counter(x[when] for x in have)
        summary[when] = {
            "right": c["right"], "wrong": c["wrong"], "unknown": c["unknown"],
            "unknown_but_256_matches": sum(x[when] == "unknown" and x["launch_block"] == 256 for x in have),
            "block_value_equal": sum(x[blk] == x["launch_block"] for x in have),
            "occupancy_equal": sum(close(x[occ], x["ncu_theoretical"]) for x in have),
            "by_source": {s: dict(Counter(x[when] for x in have if x[
                "before_source" if when == "before" else "source"] == s))
                          for s in sorted({x["before_source" if when == "before" else "source"] for x in have})},
            "of": len(have)}
    summary["dynamic_smem_after"] = {
        "from_launch_equal": sum(x["dynamic_smem_source"] == "launch" and x["dynamic_smem"] == int(x["launch_dynamic_smem"] or 0)
                                 for x in done),
        "from_launch_differ": sum(x["dynamic_smem_source"] == "launch" and x["dynamic_smem"] != int(x["launch_dynamic_smem"] or 0)
                                  for x in done),
        "assumed": sum(x["dynamic_smem_source"] == "assumed" for x in done),
        "assumed_but_measured_nonzero": sum(x["dynamic_smem_source"] == "assumed" and (x["launch_dynamic_smem"] or 0) > 0
                                            for x in done)}

    for when in ("before", "after"):
        s = summary[when]
        print(f"{when:>6}: block size right {s['right']}, wrong {s['wrong']}, unknown (256 assumed) {s['unknown']} "
              f"[of which 256 is the real size: {s['unknown_but_256_matches']}] of {s['of']}; "
              f"value equal to the launch {s['block_value_equal']}/{s['of']}; "
              f"occupancy equal to ncu (±0.01) {s['occupancy_equal']}/{s['of']}")
        print(f"        by source: {s['by_source']}")
    d = summary["dynamic_smem_after"]
    print(f"dynamic shared memory (after): from the launch and equal {d['from_launch_equal']}, from the launch and "
          f"different {d['from_launch_differ']}, assumed 0 {d['assumed']} (measured non-zero: "
          f"{d['assumed_but_measured_nonzero']})")
    print("\nafter, not right (block size):")
    for x in done:
        if x["after"] != "right":
            print(f"  {x['after']:<7} {x['task']}/{x['impl']} {x['kernel']}: static {x['block']} ({x['source']}), "
                  f"launch {x['launch_block']}; {x['scan_note'] or 'scan gave ' + str(x['scan_block'])}")
    print("\nafter, occupancy differs from ncu:")
    for x in done:
        if not close(x["occupancy"], x["ncu_theoretical"]):
            why = []
            if x["block"] != x["launch_block"]:
                why.append(f"block {x['block']} ({x['source']}) vs {x['launch_block']}")
            if x["dynamic_smem"] != int(x["launch_dynamic_smem"] or 0):
                why.append(f"dynamic smem {x['dynamic_smem']} ({x['dynamic_smem_source']}) vs "
                           f"{int(x['launch_dynamic_smem'] or 0)}: {x['scan_smem_note']}")
            print(f"  {x['task']}/{x['impl']} {x['kernel']}: static {x['occupancy']:.4g}, ncu {x['ncu_theoretical']:.4g}; "
                  + ("; ".join(why) or "same launch shape"))
    for x in out_rows:
        if "missing" in x:
            print(f"missing: {x['task']}/{x['impl']} {x['kernel']}: {x['missing']}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"summary": summary, "rows": out_rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
