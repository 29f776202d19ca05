#!/usr/bin/env python3
"""SFT + GRPO with `cudaperf serve` as the reward, in resumable steps of at most --step-minutes each.

    python3 rl/run.py OUT [--cudaperf build/release/cudaperf | --url http://127.0.0.1:8080] [--preset toy|h200]

Steps, each recorded in OUT/state.json when done (a rerun skips those and goes on):
  data       `cudaperf export` -> OUT/tasks.jsonl, the train / held-out split, the SFT pairs
  tokenizer  a BPE trained on the dataset sources (rl/policy.py) -> OUT/policy
  model      a Qwen2-style causal LM initialised from a config -> OUT/policy
  sft-K      supervised warm-up on the pairs, --sft-steps optimizer steps per step, --sft-chunks steps
  warm-service  one known implementation per task scored, so the service's one-time task preparation is
             paid before any variant (the same budget for each); runs in the background from the tokenizer on
  grpo-V-K   GRPO (TRL) for each reward variant V (speed / structure / ranker), from the SFT policy,
             --grpo-steps per step, --grpo-chunks steps; metrics per optimizer step in OUT/metrics-V.jsonl
A progress bar per step and one summary line per step on stderr; OUT/summary.json at the end;
rl/plot.py OUT draws OUT/curves.png.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "python"), str(REPO)]

PRESETS = {
    # toy: the CPU test (a few steps of a tiny model on a few tasks)
    "toy": dict(size="tiny", vocab=2000, sft_steps=4, sft_chunks=1, grpo_steps=1, grpo_chunks=2, tasks=3,
                heldout_tasks=1, num_generations=2, batch=2, max_completion_length=48, max_length=768,
                sft_lr=3e-3, grpo_lr=1e-5, heldout_samples=1),
    # h200: about 8 minutes on one H200 with the service on the same GPU. The first H200 run
    # (bench/results/2026-12-02-h200-rl-grpo: sft_steps 300, max_completion_length 640, heldout_samples 2)
    # never compiled: 60-90 % of its samples were cut at 640 tokens (no closing fence: no_code) and SFT
    # stopped after 30 s of its 2.5 min at loss 0.57; hence longer completions and SFT, fewer held-out samples.
    # The second (2026-12-03-h200-rl-grpo, grpo_lr 2e-6) compiled 31-69 % of its training samples, but its
    # three variants sampled the same correct kernels at every step (the same speedups to 16 digits; only
    # failing samples differed): 4 updates at 2e-6 hardly moved the policy; hence grpo_lr 2e-5.
    "h200": dict(size="small", vocab=8000, sft_steps=1200, sft_chunks=1, grpo_steps=12, grpo_chunks=1, tasks=0,
                 heldout_tasks=8, num_generations=8, batch=16, max_completion_length=1024, max_length=2048,
                 sft_lr=1e-3, grpo_lr=2e-5, heldout_samples=1),
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class Run:
    def __init__(self, out: Path, a: argparse.Namespace):
        self.out, self.a = out, a
        self.state_path = out / "state.json"
        self.state = json.loads(self.state_path.read_text()) if self.state_path.exists() else {"done": {}}

    def step(self, name: str, fn, total: int = 1):
        if name in self.state["done"]:
            return self.state["done"][name]
        from tqdm import tqdm

        t0 = time.monotonic()
        with tqdm(total=total, desc=name, file=sys.stderr, leave=False, mininterval=1.0) as bar:
            info = fn(bar) or {}
        self.record(name, info, round(time.monotonic() - t0, 1))
        return self.state["done"][name]

    def record(self, name: str, info: dict, wall_s: float) -> None:
        """Marks step `name` done with its info (also for a step that ran in the background)."""
        info = {**info, "wall_s": wall_s}
        self.state["done"][name] = info
        self.state_path.write_text(json.dumps(self.state, indent=1))
        summary = ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in info.items()
                            if not isinstance(v, (dict, list)))
        log(f"[{name}] {summary}")


class Background:
    """fn in a thread; after join(), its result, or the error it raised."""

    def __init__(self, fn):
        import threading

        self.result, self.error, self.wall_s = None, "", 0.0

        def body():
            t0 = time.monotonic()
            try:
                self.result = fn()
            except Exception as ex:  # recorded in the step's info, and the run goes on cold
                self.error = f"{type(ex).__name__}: {ex}"
            self.wall_s = round(time.monotonic() - t0, 1)
        self.thread = threading.Thread(target=body, daemon=True)
        self.thread.start()

    def join(self) -> None:
        self.thread.join()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path)
    p.add_argument("--cudaperf", help="the cudaperf binary (export; and the service unless --url)")
    p.add_argument("--url", help="an already running service (else one is started: --cpu-test-mode with --cpu)")
    p.add_argument("--export", type=Path, help="an existing `cudaperf export --format jsonl` file")
    p.add_argument("--preset", choices=sorted(PRESETS), default="toy")
    p.add_argument("--variants", default="speed,structure,ranker")
    p.add_argument("--multi-turn", action="store_true", help="GRPO rollouts through CudaperfEnv (tool calls)")
    p.add_argument("--step-minutes", type=float, default=9.0, help="time box of one GRPO step (at most 10)")
    p.add_argument("--sft-minutes", type=float, default=None, help="time box of one SFT step (default --step-minutes)")
    p.add_argument("--cpu", action="store_true", help="train on the CPU; start the service in --cpu-test-mode")
    p.add_argument("--time-budget", type=float, default=0.1, help="the service's sampling seconds per perf config")
    p.add_argument("--workers", type=int, default=0)
    for k, v in PRESETS["toy"].items():
        p.add_argument("--" + k.replace("_", "-"), type=type(v), default=None)
    a = p.parse_args()
    cfg = dict(PRESETS[a.preset])
    for k in cfg:
        if getattr(a, k) is not None:
            cfg[k] = getattr(a, k)
    limit_s = min(a.step_minutes, 10.0) * 60
    sft_limit_s = min(a.sft_minutes or a.step_minutes, 10.0) * 60
    a.out.mkdir(parents=True, exist_ok=True)
    run = Run(a.out, a)
    (a.out / "config.json").write_text(json.dumps({"preset": a.preset, **cfg, "variants": a.variants,
                                                   "multi_turn": a.multi_turn, "cpu": a.cpu}, indent=1))

    from rl import data, policy

    service = None
    url = a.url
    if not url:
        from rl.service import Service, find_binary
        service = Service(find_binary(a.cudaperf), a.out / "service", cpu_test_mode=a.cpu, workers=a.workers,
                          time_budget_s=a.time_budget)
        url = service.url
        log(f"[service] {url} {service.health()}")
    os.environ["CUDAPERF_URL"] = url
    try:
        export = a.export or a.out / "tasks.jsonl"

        def do_data(bar):
            if not a.export:
                from rl.service import find_binary
                data.export_prompts(find_binary(a.cudaperf), export)
            tasks = data.load_tasks(export)
            return {"tasks": len(tasks), **data.split_counts(tasks)}

        run.step("data", do_data)
        tasks = data.load_tasks(export)
        train = [t for t in tasks if not t["heldout"]]
        held = [t for t in tasks if t["heldout"]][:cfg["heldout_tasks"]]
        if cfg["tasks"]:
            train = train[:cfg["tasks"]]
        pol = a.out / "policy"
        # the service's one-time task preparation (C references and inputs on the CPU, mostly) runs while
        # the SFT trains on the GPU: on the H200 it took 183 s after a 125 s SFT (2026-12-03)
        from rl.rewards import warm_service
        warm = (None if "warm-service" in run.state["done"]
                else Background(lambda: warm_service(url, data.first_impls(train + held))))

        def do_tokenizer(bar):
            tok = policy.build_tokenizer(data.tokenizer_texts(tasks), vocab_size=cfg["vocab"])
            tok.save_pretrained(str(pol))
            return {"vocab": len(tok)}

        def do_model(bar):
            from transformers import AutoTokenizer
            tok = AutoTokenizer.from_pretrained(pol)
            model = policy.build_model(tok, size=cfg["size"], max_positions=max(4096, cfg["max_length"] * 2))
            model.save_pretrained(str(pol))
            return {"parameters": policy.parameters(model), "size": cfg["size"]}

        run.step("tokenizer", do_tokenizer)
        run.step("model", do_model)

        from rl import train as tr
        pairs = data.sft_pairs([t for t in tasks if t in train or not cfg["tasks"]],
                               data.load_tasks(export, kinds=("torch2cuda",)))
        for k in range(cfg["sft_chunks"]):
            run.step(f"sft-{k + 1}", lambda bar: {**tr.sft_step(pol, pairs, a.out / "tmp", max_steps=cfg["sft_steps"],
                                                                 time_limit_s=sft_limit_s, batch=cfg["batch"], lr=cfg["sft_lr"],
                                                                 max_length=cfg["max_length"], cpu=a.cpu, bar=bar),
                                                 "pairs": len(pairs)}, total=cfg["sft_steps"])
        sft_done = a.out / "policy-sft"
        if not sft_done.exists():
            shutil.copytree(pol, sft_done)
        if warm is not None:  # its time overlapped the SFT's
            warm.join()
            run.record("warm-service", warm.result or {"error": warm.error}, warm.wall_s)
        for variant in [v for v in a.variants.split(",") if v]:
            vdir = a.out / f"policy-{variant}"
            if not vdir.exists():
                shutil.copytree(sft_done, vdir)
            metrics = a.out / f"metrics-{variant}.jsonl"
            for k in range(cfg["grpo_chunks"]):
                base = sum(v.get("steps", 0) for n, v in run.state["done"].items() if n.startswith(f"grpo-{variant}-"))
                run.step(f"grpo-{variant}-{k + 1}", lambda bar: tr.grpo_step(
                    vdir, train, held, a.out / "tmp", variant=variant, url=url, max_steps=cfg["grpo_steps"],
                    time_limit_s=limit_s, base_step=base, metrics_path=metrics, num_generations=cfg["num_generations"],
                    batch=cfg["batch"], lr=cfg["grpo_lr"], max_completion_length=cfg["max_completion_length"],
                    multi_turn=a.multi_turn, cpu=a.cpu, heldout_samples=cfg["heldout_samples"], bar=bar),
                    total=cfg["grpo_steps"])
        summary = {"state": run.state["done"], "config": json.loads((a.out / "config.json").read_text())}
        (a.out / "summary.json").write_text(json.dumps(summary, indent=1))
        log(f"[done] {a.out}/summary.json")
    finally:
        if service is not None:
            service.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
