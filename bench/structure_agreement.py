#!/usr/bin/env python3
"""Static structural analysis vs Nsight Compute on the H200, for every dataset implementation.

Usage: bench/structure_agreement.py --items profile-items.jsonl --ncu DIR --static DIR
                                    [--bin build/release/cudaperf] [--out agreement.json]

--items   JSON lines of `cudaperf profile-target --all` (task, impl, config, stream id, cost model)
--ncu     folder of ncu-<category>.csv (ncu --csv --print-units base over profile-target; tools/gpu-check.sh structure)
--static  folder of <task with / as _>__<impl>.json (`cudaperf analyze FILE --task ID --json`)
--bin     cudaperf, to recompute static occupancy with the block size and dynamic shared memory
          ncu saw at launch (isolates the occupancy calculator from the block-size guess)

Tables: (1) coalescing: static verdict (score >= 0.8 coalesced, < 0.8 uncoalesced, no known access
unknown) vs ncu's bytes used per fetched sector (>= 80 % coalesced), per kernel; (2) occupancy:
static theoretical occupancy vs ncu's (the CUDA occupancy calculator at the real launch), with the
static block-size guess and with the launch's block size; (3) FLOPs: the task's cost model vs
ncu's executed FP instructions (add + mul + 2 fma, all precisions) per implementation, and DRAM
bytes vs the cost model's bytes.
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
from collections import Counter, defaultdict

import ncu_csv
from ncu_csv import base_name


def read_ncu(folder):
    """(category, stream) -> kernel base name -> [launch {metric: value}]"""
    out = defaultdict(lambda: defaultdict(list))
    for f in sorted(pathlib.Path(folder).glob("ncu-*.csv")):
        cat = f.stem[4:]
        table = ncu_csv.rows(f.read_text(errors="replace"))
        if table is None:
            continue
        launches = {}
        for row in table:
            if not row.get("Metric Name") or row.get("Metric Value") is None:
                continue
            key = row["ID"]
            if key not in launches:
                launches[key] = {"stream": row["Stream"], "kernel": base_name(row["Kernel Name"]), "m": {}}
            v = ncu_csv.value(row)
            if v is not None:
                launches[key]["m"][row["Metric Name"]] = v
        for l in launches.values():
            out[(cat, l["stream"])][l["kernel"]].append(l["m"])
    return out


def total(launches, metric):
    vals = [l[metric] for l in launches if metric in l]
    return sum(vals) if vals else None


def mean(launches, metric):
    vals = [l[metric] for l in launches if metric in l]
    return sum(vals) / len(vals) if vals else None


def dyn_coalescing(launches):
    """Bytes used per fetched sector, requests-weighted over loads and stores (%)."""
    num = den = 0.0
    for op in ("ld", "st"):
        for l in launches:
            req = l.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum", 0)
            pct = l.get(f"smsp__sass_average_data_bytes_per_sector_mem_global_op_{op}.pct")
            if req > 0 and pct is not None:
                num += req * pct
                den += req
    return num / den if den > 0 else None


def flops(launches):
    t = 0.0
    for p, (a, m, f) in {"32": ("fadd", "fmul", "ffma"), "64": ("dadd", "dmul", "dfma"), "16": ("hadd", "hmul", "hfma")}.items():
        for op, w in ((a, 1), (m, 1), (f, 2)):
            v = total(launches, f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum")
            t += w * (v or 0)
    return t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--items", required=True)
    ap.add_argument("--ncu", required=True)
    ap.add_argument("--static", required=True)
    ap.add_argument("--bin")
    ap.add_argument("--root", default="data/tasks")
    ap.add_argument("--out")
    a = ap.parse_args()
    items = [json.loads(l) for l in open(a.items) if l.strip()]
    ncu = read_ncu(a.ncu)
    coal_rows, occ_rows, flop_rows = [], [], []
    missing = Counter()
    relaunch = {}  # (file, block, smem) -> static report
    for it in items:
        cat = it["task"].split("/")[0]
        kernels = ncu.get((cat, str(it.get("stream_id"))))
        if not kernels:
            missing["no ncu launches (category cut off or kernel not profiled)"] += 1
            continue
        sf = pathlib.Path(a.static) / f"{it['task'].replace('/', '_')}__{it['impl']}.json"
        if not sf.exists():
            missing["no static report"] += 1
            continue
        static = {base_name(k["name"]): k for k in json.loads(sf.read_text())["kernels"]}
        all_launches = [l for ls in kernels.values() for l in ls]
        if it.get("cost_flops"):
            dram = (total(all_launches, "dram__bytes_read.sum") or 0) + (total(all_launches, "dram__bytes_write.sum") or 0)
            flop_rows.append({"task": it["task"], "impl": it["impl"], "config": it["config"], "cost_flops": it["cost_flops"],
                              "ncu_flops": flops(all_launches), "cost_bytes": it.get("cost_bytes"), "dram_bytes": dram})
        for name, launches in kernels.items():
            k = static.get(name)
            if k is None:
                missing["kernel in ncu but not in the static report"] += 1
                continue
            score = (k.get("scores") or {}).get("coalescing")
            known = sum(1 for x in k["coalescing"]["accesses"] if x.get("efficiency") is not None)
            d = dyn_coalescing(launches)
            if d is not None:
                sv = "unknown" if known == 0 or score is None else ("coalesced" if score >= 0.8 else "uncoalesced")
                dv = "coalesced" if d >= 80 else "uncoalesced"
                acc = k["coalescing"]["accesses"]
                reason = ""
                if sv != "unknown" and sv != dv:
                    # Why the two disagree, from what the static analysis saw:
                    if any(x.get("stride_bytes") == 0 for x in acc):
                        reason = "broadcast"   # one address per warp: 1 sector per request (ideal) but few bytes used per sector
                    elif known < len(acc):
                        reason = "unknown_accesses"  # traffic from accesses the static analysis left unknown
                    else:
                        reason = "alignment_or_edges"  # halo offsets / row starts not sector-aligned, partial warps
                # Sectors per load request: the static prediction (mean over the kernel's loads, each
                # instruction once) vs ncu's (over executed requests). Only when every load is known.
                loads = [x for x in acc if x.get("kind") == "load"]
                spr_static = (sum(x["sectors"] for x in loads) / len(loads)
                              if loads and all(x.get("sectors") is not None for x in loads) else None)
                req = total(launches, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") or 0
                spr_ncu = (total(launches, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") or 0) / req if req > 0 else None
                coal_rows.append({"task": it["task"], "impl": it["impl"], "kernel": name, "static": sv, "static_score": score,
                                  "static_sectors_per_load": spr_static, "ncu_sectors_per_load": spr_ncu,
                                  "disagreement": reason,
                                  "known_accesses": known, "accesses": len(k["coalescing"]["accesses"]),
                                  "ncu_bytes_per_sector_pct": d, "ncu": dv})
            th = mean(launches, "sm__maximum_warps_per_active_cycle_pct")
            blk = mean(launches, "launch__block_size")
            dsm = mean(launches, "launch__shared_mem_per_block_dynamic")
            if th is not None:
                row = {"task": it["task"], "impl": it["impl"], "kernel": name, "ncu_theoretical": th / 100,
                       "static": k["occupancy"].get("fraction"), "static_block": k["launch"]["block_size"],
                       "static_block_source": k["launch"]["block_size_source"], "launch_block": blk,
                       "launch_dynamic_smem": dsm, "ncu_registers": mean(launches, "launch__registers_per_thread"),
                       "static_registers": k["resources"]["registers"]}
                if a.bin and blk:
                    f = f"{a.root}/c2cuda/{it['task']}/impls/{it['impl']}.cu"
                    key = (f, int(blk), int(dsm or 0))
                    if key not in relaunch:
                        p = subprocess.run([a.bin, "analyze", f, "--task", it["task"], "--root", a.root, "--json",
                                            "--block-size", str(int(blk)), "--dynamic-smem", str(int(dsm or 0))],
                                           capture_output=True, text=True)
                        relaunch[key] = json.loads(p.stdout) if p.returncode == 0 else None
                    rep = relaunch[key]
                    kk = {base_name(x["name"]): x for x in rep["kernels"]} if rep else {}
                    if name in kk:
                        row["static_at_launch"] = kk[name]["occupancy"].get("fraction")
                        row["static_at_launch_block_source"] = kk[name]["launch"]["block_size_source"]
                occ_rows.append(row)
    # (1) coalescing confusion matrix
    cm = Counter((r["static"], r["ncu"]) for r in coal_rows)
    print("coalescing, per kernel: rows static verdict, columns ncu (bytes used per sector >= 80 %)")
    print(f"{'':<14}{'coalesced':>11}{'uncoalesced':>13}")
    for s in ("coalesced", "uncoalesced", "unknown"):
        print(f"{s:<14}{cm[(s, 'coalesced')]:>11}{cm[(s, 'uncoalesced')]:>13}")
    decided = [r for r in coal_rows if r["static"] != "unknown"]
    agree = sum(r["static"] == r["ncu"] for r in decided)
    print(f"agreement where static decided: {agree}/{len(decided)}")
    reasons = Counter(r["disagreement"] for r in coal_rows if r["disagreement"])
    print("disagreements by reason:", dict(reasons))
    spr = [r for r in coal_rows if r["static_sectors_per_load"] is not None and r["ncu_sectors_per_load"]]
    spr_ok = sum(0.67 <= r["static_sectors_per_load"] / r["ncu_sectors_per_load"] <= 1.5 for r in spr)
    print(f"sectors per load request, kernels whose loads are all known: static within 1.5x of ncu in {spr_ok}/{len(spr)}")
    # (2) occupancy
    def close(x, y):
        return x is not None and y is not None and abs(x - y) <= 0.01
    guess = sum(close(r["static"], r["ncu_theoretical"]) for r in occ_rows)
    at_launch = [r for r in occ_rows if "static_at_launch" in r]
    launch_ok = sum(close(r["static_at_launch"], r["ncu_theoretical"]) for r in at_launch)
    same_block = sum(r["static_block"] == r["launch_block"] for r in occ_rows)
    print(f"occupancy, per kernel: static (block-size guess) equals ncu theoretical in {guess}/{len(occ_rows)}; "
          f"block-size guess right in {same_block}/{len(occ_rows)}; "
          f"static at the launch's block size and dynamic smem equals ncu in {launch_ok}/{len(at_launch)}")
    # (3) FLOPs and bytes
    ratios = [r["ncu_flops"] / r["cost_flops"] for r in flop_rows if r["cost_flops"] > 0]
    within = sum(0.5 <= x <= 2 for x in ratios)
    bratios = [r["dram_bytes"] / r["cost_bytes"] for r in flop_rows if r.get("cost_bytes")]
    if ratios:
        print(f"FLOPs, per implementation: ncu / cost model median {statistics.median(ratios):.2f}, "
              f"within 2x in {within}/{len(ratios)}")
    if bratios:
        print(f"DRAM bytes / cost-model bytes: median {statistics.median(bratios):.2f}, "
              f"within 2x in {sum(0.5 <= x <= 2 for x in bratios)}/{len(bratios)}")
    for k, v in missing.items():
        print(f"left out: {v} ({k})")
    summary = {"coalescing_confusion": {f"{s}->{d}": n for (s, d), n in sorted(cm.items())},
               "coalescing_agreement_decided": [agree, len(decided)],
               "coalescing_disagreement_reasons": dict(reasons),
               "sectors_per_load_within_1_5x": [spr_ok, len(spr)],
               "occupancy_equal_with_guess": [guess, len(occ_rows)], "block_guess_right": [same_block, len(occ_rows)],
               "occupancy_equal_at_launch": [launch_ok, len(at_launch)],
               "flops_ratio_median": statistics.median(ratios) if ratios else None, "flops_within_2x": [within, len(ratios)],
               "dram_bytes_ratio_median": statistics.median(bratios) if bratios else None,
               "left_out": dict(missing)}
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"summary": summary, "coalescing": coal_rows, "occupancy": occ_rows, "flops": flop_rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
