#!/usr/bin/env python3
"""`cudaperf export --format verl` JSONL -> the parquet files of config/verl/cudaperf_qwen3.yaml:
train.parquet and heldout.parquet (rl/data.py's split), each row with
extra_info.tools_kwargs.evaluate_kernel.create_kwargs.task_id (what CudaperfTool reads) and
agent_name tool_agent.

    python3 config/verl/make_data.py EXPORT.jsonl OUT_DIR
"""
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def rows(export: Path):
    import hashlib
    for line in export.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        tid = r["reward_model"]["ground_truth"]
        info = dict(r.get("extra_info") or {})
        info.pop("interaction_kwargs", None)
        info["tools_kwargs"] = {"evaluate_kernel": {"create_kwargs": {"task_id": tid}}}
        info["need_tools_kwargs"] = True
        r["extra_info"] = info
        r["agent_name"] = "tool_agent"
        h = int(hashlib.sha256(tid.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
        yield r, h < 0.2


def main() -> None:
    import pandas as pd

    export, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    split = {"train": [], "heldout": []}
    for r, held in rows(export):
        split["heldout" if held else "train"].append(r)
    for name, items in split.items():
        pd.DataFrame(items).to_parquet(out / f"{name}.parquet")
        print(f"{out / name}.parquet: {len(items)} rows")


if __name__ == "__main__":
    main()
