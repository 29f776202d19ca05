"""One time-boxed training step of the run: SFT (TRL's SFTTrainer) or GRPO (TRL's GRPOTrainer with
`cudaperf serve` as the reward). Each loads the policy from `policy_dir`, trains at most `max_steps`
optimizer steps or `time_limit_s` seconds (whichever comes first), and saves it back, so the driver
(rl/run.py) can stop and resume between steps. The optimizer state starts afresh each step.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from transformers import TrainerCallback

from rl.rewards import Recorder, summarize, variant_reward


class TimeBox(TrainerCallback):
    """Stops training once `limit_s` seconds have passed (checked after every optimizer step)."""

    def __init__(self, limit_s: float, bar=None):
        self.limit_s, self.start, self.bar = limit_s, time.monotonic(), bar

    def on_step_end(self, args, state, control, **kwargs):
        if self.bar is not None:
            self.bar.update(1)
        if time.monotonic() - self.start > self.limit_s:
            control.should_training_stop = True
        return control


def _load(policy_dir: Path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(policy_dir)
    tok.padding_side = "left"
    return AutoModelForCausalLM.from_pretrained(policy_dir), tok


def _common(out_dir: Path, max_steps: int, batch: int, lr: float, cpu: bool) -> Dict[str, Any]:
    return dict(output_dir=str(out_dir), max_steps=max_steps, per_device_train_batch_size=batch, learning_rate=lr,
                logging_steps=1, report_to=[], save_strategy="no", disable_tqdm=True, use_cpu=cpu,
                bf16=not cpu, seed=0, dataloader_num_workers=0)


def sft_step(policy_dir: Path, pairs: List[tuple], out_dir: Path, *, max_steps: int, time_limit_s: float,
             batch: int = 8, lr: float = 1e-3, max_length: int = 2048, cpu: bool = False, bar=None) -> Dict[str, Any]:
    import datasets
    from trl import SFTConfig, SFTTrainer

    model, tok = _load(policy_dir)
    rows = [{"prompt": [{"role": "user", "content": p}], "completion": [{"role": "assistant", "content": a}]} for p, a in pairs]
    cfg = SFTConfig(max_length=max_length, completion_only_loss=True, warmup_steps=0, lr_scheduler_type="constant",
                    **_common(out_dir, max_steps, batch, lr, cpu))
    trainer = SFTTrainer(model=model, processing_class=tok, args=cfg, train_dataset=datasets.Dataset.from_list(rows),
                         callbacks=[TimeBox(time_limit_s, bar)])
    t0 = time.monotonic()
    trainer.train()
    trainer.save_model(str(policy_dir))
    tok.save_pretrained(str(policy_dir))
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    return {"kind": "sft", "steps": trainer.state.global_step, "seconds": time.monotonic() - t0,
            "loss_first": losses[0] if losses else None, "loss_last": losses[-1] if losses else None}


def evaluate_heldout(model, tok, rows: List[dict], variant: str, url: Optional[str], options: Optional[dict],
                     max_new_tokens: int, samples: int = 2) -> Dict[str, Any]:
    """Sample `samples` answers for each held-out prompt and score them (no training on them)."""
    import torch

    rec = Recorder(variant, url, options)
    model.eval()
    for r in rows:
        text = tok.apply_chat_template([{"role": "user", "content": r["prompt"]}], add_generation_prompt=True, tokenize=False)
        ids = tok(text, return_tensors="pt", add_special_tokens=False).to(model.device)
        with torch.no_grad():
            out = model.generate(**ids, do_sample=True, temperature=1.0, max_new_tokens=max_new_tokens,
                                 num_return_sequences=samples, pad_token_id=tok.pad_token_id)
        completions = tok.batch_decode(out[:, ids["input_ids"].shape[1]:], skip_special_tokens=True)
        rec.score(completions, [r["task_id"]] * len(completions))
    return rec.drain()


class StepMetrics(TrainerCallback):
    """After every GRPO step: the sampled kernels' metrics (train tasks) appended to a JSONL."""

    def __init__(self, recorder: Recorder, path: Path, base_step: int, turn_log: Optional[Path]):
        self.recorder, self.path, self.base_step, self.turn_log = recorder, path, base_step, turn_log
        self.turns_seen = 0

    def on_step_end(self, args, state, control, **kwargs):
        row = {"step": self.base_step + state.global_step, "split": "train", **self.recorder.drain()}
        if self.turn_log and self.turn_log.exists():
            lines = self.turn_log.read_text().splitlines()
            row["turns"] = [json.loads(x) for x in lines[self.turns_seen:]]
            self.turns_seen = len(lines)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        return control


def grpo_step(policy_dir: Path, train_rows: List[dict], heldout_rows: List[dict], out_dir: Path, *, variant: str,
              url: Optional[str], max_steps: int, time_limit_s: float, base_step: int, metrics_path: Path,
              num_generations: int = 8, batch: int = 8, lr: float = 1e-5, max_completion_length: int = 768,
              multi_turn: bool = False, max_turns: int = 2, options: Optional[dict] = None, cpu: bool = False,
              heldout_samples: int = 2, bar=None) -> Dict[str, Any]:
    import datasets
    from trl import GRPOConfig, GRPOTrainer

    import cudaperf.trl as ct

    model, tok = _load(policy_dir)
    rec = Recorder(variant, url, options)
    turn_log = out_dir / "turns.jsonl" if multi_turn else None
    rows = [{"prompt": [{"role": "user", "content": r["prompt"]}], "task_id": r["task_id"]} for r in train_rows]
    cfg = GRPOConfig(num_generations=num_generations, max_completion_length=max_completion_length, temperature=1.0,
                     beta=0.0, **_common(out_dir, max_steps, batch, lr, cpu),
                     **({"max_tool_calling_iterations": max_turns} if multi_turn else {}))
    kwargs: Dict[str, Any] = {"reward_funcs": [rec]}
    if multi_turn:
        # the environment's trajectory reward (the service's total) is the reward; the recorder only logs
        # what the final answer text would score, with weight 0
        kwargs["environment_factory"] = lambda: ct.CudaperfEnv(url, max_turns=max_turns, options=options,
                                                               turn_log=str(turn_log))
        cfg.reward_weights = [0.0, 1.0]
    trainer = GRPOTrainer(model=model, processing_class=tok, args=cfg, train_dataset=datasets.Dataset.from_list(rows),
                          callbacks=[TimeBox(time_limit_s, bar), StepMetrics(rec, metrics_path, base_step, turn_log)],
                          **kwargs)
    t0 = time.monotonic()
    trainer.train()
    trainer.save_model(str(policy_dir))
    tok.save_pretrained(str(policy_dir))
    steps = trainer.state.global_step
    held = evaluate_heldout(trainer.model, tok, heldout_rows, variant, url, options, max_completion_length,
                            heldout_samples) if heldout_rows else {"n": 0}
    with open(metrics_path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"step": base_step + steps, "split": "heldout", **held}) + "\n")
    return {"kind": "grpo", "variant": variant, "steps": steps, "seconds": time.monotonic() - t0, "heldout": held}
