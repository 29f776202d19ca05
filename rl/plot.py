#!/usr/bin/env python3
"""OUT/curves.png from the metrics of an rl/run.py output folder: per GRPO step and reward variant,
compile rate, correctness rate, geometric-mean speedup of the correct samples, structural score and
reward, on the training tasks (lines) and the held-out tasks (markers).

    python3 rl/plot.py OUT [--png OUT/curves.png]
"""
import argparse
import json
from pathlib import Path

PANELS = [("compile_rate", "compile rate"), ("correct_rate", "correctness rate"), ("speedup_geomean", "geomean speedup"),
          ("structure_mean", "structural score"), ("reward_mean", "reward")]


def load(out: Path) -> dict:
    curves = {}
    for f in sorted(out.glob("metrics-*.jsonl")):
        rows = [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
        curves[f.stem.split("-", 1)[1]] = rows
    return curves


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("out", type=Path)
    p.add_argument("--png", type=Path)
    a = p.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = load(a.out)
    if not curves:
        raise SystemExit(f"no metrics-*.jsonl under {a.out}")
    fig, axes = plt.subplots(1, len(PANELS), figsize=(4 * len(PANELS), 3.4))
    for (key, title), ax in zip(PANELS, axes):
        for k, (variant, rows) in enumerate(sorted(curves.items())):
            color = f"C{k}"
            for split, style in (("train", "-"), ("heldout", "o")):
                pts = [(r["step"], r[key]) for r in rows if r.get("split") == split and r.get(key) is not None]
                if pts:
                    ax.plot(*zip(*pts), style, color=color, label=f"{variant} ({split})")
        ax.set_title(title)
        ax.set_xlabel("GRPO step")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    png = a.png or a.out / "curves.png"
    fig.savefig(png, dpi=110)
    print(png)


if __name__ == "__main__":
    main()
