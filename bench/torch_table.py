"""Markdown table of torch2cuda check-gpu results (the --json files of `cudaperf tasks check-gpu`):
one row per impl with its verdict, perf median, the eager / torch.compile baselines of the same run and
the stage times. Usage: python3 bench/torch_table.py RESULT.json... [--stages]"""
import argparse
import json


def rows(paths):
    for p in paths:
        for t in json.load(open(p)).get("torch_tasks", []):
            for r in t["results"]:
                perf = next((c for c in r.get("configs", []) if c.get("perf")), {})
                yield t["id"].split("/", 1)[1], r, perf


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--stages", action="store_true", help="also the stage times (seconds)")
    a = ap.parse_args()
    head = "| task | impl | verdict | perf ms | eager ms | compile ms | vs eager | vs compile |"
    if a.stages:
        head += " reference s | candidate s | baselines s | init s |"  # init: the candidate worker's batch init
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    f = lambda v, d=3: f"{v:.{d}f}" if isinstance(v, (int, float)) and v > 0 else ""  # noqa: E731
    for task, r, perf in rows(a.files):
        line = (f"| {task} | {r['impl']} | {r['verdict']} | {f(perf.get('median_ms'))} | {f(perf.get('eager_ms'))} | "
                f"{f(perf.get('compile_ms'))} | {f(r.get('speedup_vs_eager'), 2)}× | {f(r.get('speedup_vs_compile'), 2)}× |")
        if a.stages:
            s = r.get("stages", {})
            line += f" {f(s.get('reference_s'), 1)} | {f(s.get('candidate_s'), 1)} | {f(s.get('baselines_s'), 1)} | {f(s.get('candidate_init_s'), 1)} |"
        print(line.replace(" × |", " |"))


if __name__ == "__main__":
    main()
