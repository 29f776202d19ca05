#!/usr/bin/env python3
"""Reward fidelity: Spearman correlation between each reward term and the measured speedup.

Usage: bench/reward_fidelity.py DUMP.jsonl [--config config/reward.toml] [--out PREFIX]

DUMP.jsonl comes from `cudaperf rank eval --dump DUMP.jsonl`: one line per implementation with
its measured median, its held-out ranker score and rank term (the model never saw its category),
and the static feature scores. Speedup = the task's naive median / the implementation's median.
Terms compared, per category and over all: structure (the config's weighted mean of the feature
scores), rank (held out), each feature alone, and speed (w_speed * ln(speedup): 1 by construction,
shown as the reference). Writes PREFIX.json, PREFIX.txt and PREFIX.svg (a bar chart).
"""
import argparse
import json
import math
import sys
import tomllib
from collections import defaultdict

FEATURES = {"coalescing": "coalescing_mean", "occupancy": "occupancy_mean", "intensity": "intensity_max", "sync": "sync_min"}


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(x, y):
    pts = [(a, b) for a, b in zip(x, y) if a is not None and b is not None]
    if len(pts) < 3:
        return None
    rx, ry = ranks([p[0] for p in pts]), ranks([p[1] for p in pts])
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx, vy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx > 0 and vy > 0 else None


def svg(table, terms, path):
    cats = list(table)
    w, h, left, top, bottom = 60 + 70 * len(cats), 360, 50, 30, 80
    colors = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb"]
    bw = 60 / len(terms)
    y0 = top + (h - top - bottom) / 2
    scale = (h - top - bottom) / 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 160}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16">Spearman correlation of each reward term with measured speedup (per category)</text>',
           f'<line x1="{left}" y1="{y0}" x2="{w}" y2="{y0}" stroke="black"/>']
    for v in (-1, -0.5, 0.5, 1):
        y = y0 - v * scale
        out.append(f'<line x1="{left}" y1="{y}" x2="{w}" y2="{y}" stroke="#ddd"/><text x="10" y="{y + 4}">{v:+.1f}</text>')
    for ci, c in enumerate(cats):
        x0 = left + 10 + 70 * ci
        for ti, t in enumerate(terms):
            v = table[c].get(t)
            if v is None:
                continue
            y = y0 - max(v, 0) * scale
            out.append(f'<rect x="{x0 + ti * bw:.1f}" y="{y:.1f}" width="{bw - 1:.1f}" height="{abs(v) * scale:.1f}" '
                       f'fill="{colors[ti % len(colors)]}"><title>{c} {t}: {v:.2f}</title></rect>')
        out.append(f'<text x="{x0}" y="{h - bottom + 14}" transform="rotate(40 {x0} {h - bottom + 14})">{c}</text>')
    for ti, t in enumerate(terms):
        out.append(f'<rect x="{w + 10}" y="{top + 16 * ti}" width="10" height="10" fill="{colors[ti % len(colors)]}"/>'
                   f'<text x="{w + 26}" y="{top + 9 + 16 * ti}">{t}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dump")
    ap.add_argument("--config", default="config/reward.toml")
    ap.add_argument("--out")
    a = ap.parse_args()
    cfg = tomllib.load(open(a.config, "rb"))
    weights = cfg.get("structure", {}).get("features", {}) or {"coalescing": 2, "occupancy": 1, "intensity": 1, "sync": 1}
    rows = [json.loads(l) for l in open(a.dump) if l.strip()]
    naive = {(r["task"], r["config"]): r["median_ms"] for r in rows if r["impl"] == "naive"}
    by_cat = defaultdict(list)
    for r in rows:
        base = naive.get((r["task"], r["config"]))
        if not base or r["median_ms"] <= 0:
            continue
        r["speedup"] = base / r["median_ms"]
        present = {k: r.get(f) for k, f in FEATURES.items() if r.get(f) is not None}
        wsum = sum(weights.get(k, 0) for k in present)
        r["structure"] = sum(weights.get(k, 0) * v for k, v in present.items()) / wsum if wsum > 0 else None
        r["speed"] = math.log(r["speedup"])
        by_cat[r["category"]].append(r)
        by_cat["all"].append(r)
    terms = ["speed", "rank_term", "structure"] + list(FEATURES)
    table = {}
    for c in sorted(by_cat, key=lambda c: (c == "all", c)):
        rs = by_cat[c]
        sp = [r["speedup"] for r in rs]
        table[c] = {t: spearman([r.get(FEATURES.get(t, t)) for r in rs], sp) for t in terms}
        table[c]["n"] = len(rs)
    header = f"{'category':<14} {'n':>4} " + " ".join(f"{t:>11}" for t in terms)
    lines = ["Spearman correlation with measured speedup vs naive (rank term held out by category)", header]
    for c, v in table.items():
        lines.append(f"{c:<14} {v['n']:>4} " + " ".join(f"{v[t]:>11.2f}" if v[t] is not None else f"{'-':>11}" for t in terms))
    print("\n".join(lines))
    if a.out:
        open(a.out + ".txt", "w").write("\n".join(lines) + "\n")
        json.dump({"terms": terms, "table": table}, open(a.out + ".json", "w"), indent=1)
        svg({c: v for c, v in table.items()}, terms, a.out + ".svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
