#!/usr/bin/env python3
"""The adapters inside the real engines (requirements/rl-engines.txt), on the CPU, against the real
`cudaperf serve` (started here in --cpu-test-mode; one without it must refuse).

    check_rl_engines.py CUDAPERF_BINARY REPO_ROOT

1. TRL 1.16: GRPOTrainer, 2 steps, a tiny model built here (rl/policy.py) and briefly fitted to answer
   with a dataset kernel, once with reward_funcs=[cudaperf.trl.reward_func] and once with
   environment_factory=CudaperfEnv (the kernel sent through the tool call); the service must have
   scored what the engine generated.
2. verl 0.9.1: its Hydra config composed with the README's reward keys, load_reward_manager (naive),
   run_single on sample responses; the tool from config/verl/cudaperf_tool.yaml through verl's tool
   registry, run on verl's AgentData, its turns aggregated by the reward manager.
3. OpenRLHF 0.11.2: SingleTurnAgentExecutor with a stub generation engine, the file variant and the
   service's /v1/openrlhf, the response ending in ```<|im_end|>; a failure gives the error reward.
"""
import asyncio
import json
import os
import sys
import tempfile
import urllib.request
import warnings
from pathlib import Path
from types import SimpleNamespace

BIN, REPO = sys.argv[1], Path(sys.argv[2]).resolve()
sys.path[:0] = [str(REPO / "python"), str(REPO)]
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
os.environ["HF_HUB_OFFLINE"] = "1"
warnings.filterwarnings("ignore")

import torch  # noqa: E402

from cudaperf import CudaperfNoGpu  # noqa: E402
from rl.policy import build_model, build_tokenizer  # noqa: E402
from rl.service import Service  # noqa: E402

TASK = "histogram/hist256_u8"
KERNEL = (REPO / "data/tasks/c2cuda" / TASK / "impls/naive.cu").read_text()
BROKEN = KERNEL.replace("atomicAdd(", "atomicAdd_typo(")
ANSWER = f"```cuda\n{KERNEL}```"
PROMPT = f"Write the CUDA kernel for {TASK}."
checked = []


def ok(what):
    checked.append(what)
    print("ok:", what, flush=True)


def metrics_jobs(url):
    with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith("cudaperf_jobs{"))


def fit(model, tok, conversations, steps=400):
    """Teach the tiny model to give these answers (so the engine's samples reach the service)."""
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    batch = []
    for conv in conversations:
        prompt_ids = tok.apply_chat_template(conv[:-1], add_generation_prompt=True, tokenize=True, return_dict=False,
                                             tools=conv[0].get("tools"))
        full_ids = tok.apply_chat_template(conv, tokenize=True, return_dict=False, tools=conv[0].get("tools"))
        labels = [-100] * len(prompt_ids) + full_ids[len(prompt_ids):]
        batch.append((torch.tensor([full_ids]), torch.tensor([labels])))
    loss = None
    for step in range(steps):
        ids, labels = batch[step % len(batch)]
        loss = model(input_ids=ids, labels=labels).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step > 50 and loss.item() < 0.005:
            break
    model.eval()
    return float(loss)


def check_trl(url, tmp):
    import datasets
    from trl import GRPOConfig, GRPOTrainer

    import cudaperf.trl as ct

    texts = [KERNEL, ANSWER, PROMPT, json.dumps({"source": KERNEL})] + [
        p.read_text() for p in sorted((REPO / "data/tasks/c2cuda").glob("*/*/impls/*.cu"))[:40]]
    tok = build_tokenizer(texts, vocab_size=1500)
    model = build_model(tok, size="tiny")
    user = {"role": "user", "content": PROMPT}
    tool_user = {"role": "user", "content": PROMPT + ct.TOOL_HINT}
    call = {"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "evaluate_kernel", "arguments": {"source": KERNEL}}}]}
    # the tool schema as TRL renders it in the prompt: the same text at fit and at sampling time
    from transformers.utils import get_json_schema
    schema = [get_json_schema(ct.CudaperfEnv.evaluate_kernel)]
    loss = fit(model, tok, [[user, {"role": "assistant", "content": ANSWER}], [dict(tool_user, tools=schema), call]])
    ok(f"tiny policy ({sum(p.numel() for p in model.parameters())} parameters) fitted, loss {loss:.4f}")

    os.environ["CUDAPERF_URL"] = url
    ds = datasets.Dataset.from_list([{"prompt": [user], "task_id": TASK}] * 4)
    args = dict(per_device_train_batch_size=2, num_generations=2, max_completion_length=400, max_steps=2,
                learning_rate=1e-5, temperature=0.3, logging_steps=1, report_to=[], save_strategy="no",
                use_cpu=True, bf16=False, disable_tqdm=True, seed=0)
    before = metrics_jobs(url)
    trainer = GRPOTrainer(model=model, processing_class=tok, reward_funcs=[ct.reward_func],
                          args=GRPOConfig(output_dir=str(tmp / "trl1"), **args), train_dataset=ds)
    trainer.train()
    rewards = [h["rewards/reward_func/mean"] for h in trainer.state.log_history if "rewards/reward_func/mean" in h]
    scored = metrics_jobs(url) - before
    assert len(rewards) == 2 and scored >= 1, (rewards, scored, trainer.state.log_history)
    assert max(rewards) > -10.0, rewards  # a sample reached the service and was not "no code"
    ok(f"TRL GRPOTrainer + reward_func: 2 steps, rewards {rewards}, {scored:.0f} job(s) scored by the service")

    # a service of its own: the first one already holds this kernel's job, and a repeat of a source is
    # answered from the store without a new job, so a job count there could not show that the tool was used
    with Service(BIN, tmp / "env-service", cpu_test_mode=True, workers=2) as env_svc:
        turn_log = tmp / "turns.jsonl"
        before = metrics_jobs(env_svc.url)
        trainer = GRPOTrainer(model=model, processing_class=tok,
                              environment_factory=lambda: ct.CudaperfEnv(env_svc.url, max_turns=2, turn_log=str(turn_log)),
                              args=GRPOConfig(output_dir=str(tmp / "trl2"), max_tool_calling_iterations=2, **args),
                              train_dataset=ds)
        trainer.train()
        scored = metrics_jobs(env_svc.url) - before
    rewards = [h["rewards/CudaperfEnv/mean"] for h in trainer.state.log_history if "rewards/CudaperfEnv/mean" in h]
    turns = [json.loads(line) for line in turn_log.read_text().splitlines()] if turn_log.exists() else []
    assert len(rewards) == 2, trainer.state.log_history
    assert turns and scored >= 1, (turns, rewards, scored)
    assert all(t["task"] == TASK for t in turns), turns
    ok(f"TRL GRPOTrainer + environment_factory=CudaperfEnv: 2 steps, env rewards {rewards}, "
       f"{len(turns)} tool call(s) evaluated: {sorted({t['verdict'] for t in turns})}")
    return tok


def check_verl(url, tok, tmp):
    from hydra import compose, initialize_config_dir
    from tensordict import TensorDict

    import verl
    from verl import DataProto
    from verl.experimental.agent_loop.tool_agent_loop import AgentData
    from verl.tools.tool_registry import initialize_tools_from_config
    from verl.trainer.ppo.reward import load_reward_manager

    import cudaperf.verl as cv

    cfg_dir = str(Path(verl.__file__).parent / "trainer/config")
    with initialize_config_dir(config_dir=cfg_dir, version_base=None):
        config = compose("ppo_trainer", overrides=[
            f"reward.custom_reward_function.path={cv.__file__}", "reward.custom_reward_function.name=compute_score",
            f"+reward.custom_reward_function.reward_kwargs.url={url}", "reward.reward_manager.name=naive"])
    rm = load_reward_manager(config, tok)
    assert type(rm).__name__ == "NaiveRewardManager", type(rm)

    def item(response: str, extra_info=None):
        ids = tok(response, add_special_tokens=False)["input_ids"]
        prompt = tok(PROMPT, add_special_tokens=False)["input_ids"]
        batch = TensorDict({"prompts": torch.tensor([prompt]), "responses": torch.tensor([ids]),
                            "attention_mask": torch.ones(1, len(prompt) + len(ids), dtype=torch.long)}, batch_size=[1])
        non_tensor = {"data_source": [f"cudaperf/c2cuda"], "reward_model": [{"ground_truth": TASK}],
                      "extra_info": [dict(extra_info or {})]}
        import numpy as np
        return DataProto(batch=batch, non_tensor_batch={k: np.array(v, dtype=object) for k, v in non_tensor.items()})

    loop = rm.loop
    good = loop.run_until_complete(rm.run_single(item(ANSWER + "<|im_end|>")))
    bad = loop.run_until_complete(rm.run_single(item(f"```cuda\n{BROKEN}```")))
    none = loop.run_until_complete(rm.run_single(item("no code")))
    assert good["reward_extra_info"]["verdict"] == "ok" and good["reward_extra_info"]["final"] is False, good
    assert bad["reward_extra_info"]["verdict"] == "compile_error", bad
    assert none["reward_score"] == -10.0 and none["reward_score"] < bad["reward_score"] < good["reward_score"], (none, bad)
    ok(f"verl Hydra config + load_reward_manager (naive) + compute_score: ok {good['reward_score']:.3f}, "
       f"compile_error {bad['reward_score']}, no code {none['reward_score']}")

    os.environ["CUDAPERF_URL"] = url  # the tool YAML reads it
    tools = initialize_tools_from_config(str(REPO / "config/verl/cudaperf_tool.yaml"))
    assert len(tools) == 1 and tools[0].name == cv.TOOL_NAME, tools
    tool = tools[0]
    agent_data = AgentData(messages=[], image_data=None, video_data=None, audio_data=None, mm_processor_kwargs={}, metrics={}, request_id="r",
                           tools_kwargs={cv.TOOL_NAME: {"create_kwargs": {"task_id": TASK}}})

    async def two_turns():
        out = []
        for src in (BROKEN, ANSWER):
            iid, _ = await tool.create(create_kwargs={"task_id": TASK})
            out.append(await tool.execute(iid, {"source": src}, agent_data=agent_data))
            await tool.release(iid)
        return out

    turns = loop.run_until_complete(two_turns())
    assert [t[2]["verdict"] for t in turns] == ["compile_error", "ok"], turns
    assert "compile" in turns[0][0].text.lower(), turns[0][0].text
    agg = loop.run_until_complete(rm.run_single(item("transcript", {})))  # no tool fields: the text is scored
    assert agg["reward_extra_info"]["verdict"] == "no_code", agg
    multi = item("transcript")
    multi.non_tensor_batch["tool_extra_fields"] = __import__("numpy").array([dict(agent_data.extra_fields)], dtype=object)
    agg = loop.run_until_complete(rm.run_single(multi))
    assert agg["reward_score"] == max(t[1] for t in turns) and agg["reward_extra_info"]["final"] is False, agg
    ok(f"verl tool registry -> CudaperfTool: turns {[round(t[1], 3) for t in turns]} "
       f"({[t[2]['verdict'] for t in turns]}), aggregated by the naive manager to {agg['reward_score']:.3f}, final False")


def check_verl_recipe(url, tmp):
    """config/verl/cudaperf_qwen3.yaml composes on top of verl's ppo_trainer (Hydra), its reward function
    and tool config are the ones tested above, and make_data.py writes rows the tool can read."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    import cudaperf.verl as cv
    from verl.tools.tool_registry import initialize_tools_from_config

    os.environ["CUDAPERF_REPO"], os.environ["CUDAPERF_URL"] = str(REPO), url
    with initialize_config_dir(config_dir=str(REPO / "config/verl"), version_base=None):
        cfg = compose("cudaperf_qwen3", overrides=["trainer.nnodes=2"])
    OmegaConf.resolve(cfg)
    assert cfg.algorithm.adv_estimator == "grpo" and cfg.actor_rollout_ref.rollout.n == 8, cfg.algorithm
    mt = cfg.actor_rollout_ref.rollout.multi_turn
    assert mt.enable and Path(mt.tool_config_path).is_file() and cfg.actor_rollout_ref.rollout.agent.default_agent_loop == "tool_agent"
    rf = cfg.reward.custom_reward_function
    assert Path(rf.path).resolve() == Path(cv.__file__).resolve() and rf.name == "compute_score", rf
    assert rf.reward_kwargs.url == url and rf.reward_kwargs.multi_turn is True, rf
    assert cfg.reward.reward_manager.name == "naive" and cfg.trainer.nnodes == 2, cfg.trainer
    assert "critic" in cfg and "data" in cfg and cfg.data.return_raw_chat  # verl's own config underneath
    assert initialize_tools_from_config(mt.tool_config_path)[0].name == cv.TOOL_NAME
    export = tmp / "verl.jsonl"
    export.write_text(json.dumps({"data_source": "cudaperf/c2cuda", "prompt": [{"role": "user", "content": PROMPT}],
                                  "ability": "cuda", "reward_model": {"style": "rule", "ground_truth": TASK},
                                  "extra_info": {"index": 0, "task_id": TASK}}) + "\n")
    import subprocess
    subprocess.run([sys.executable, str(REPO / "config/verl/make_data.py"), str(export), str(tmp / "verl")], check=True)
    import pandas as pd
    rows = pd.concat([pd.read_parquet(tmp / "verl" / f) for f in ("train.parquet", "heldout.parquet")])
    kw = rows.iloc[0]["extra_info"]["tools_kwargs"][cv.TOOL_NAME]["create_kwargs"]
    assert kw["task_id"] == TASK, rows.iloc[0]["extra_info"]
    ok("verl recipe config/verl/cudaperf_qwen3.yaml composes over verl's ppo_trainer (grpo, tool agent loop, "
       "cudaperf reward + tool); make_data.py rows carry the tool's task id")


def check_openrlhf(url, tok, tmp, refusing_url):
    import cudaperf.openrlhf as co
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    class Engine:
        """A stub generation engine: answers every prompt with `text` (token ids from the tokenizer)."""

        def __init__(self, text):
            self.text = text

        async def generate(self, prompt_ids, sampling_params, multi_modal_data=None):
            ids = tok(self.text, add_special_tokens=False)["input_ids"]
            out = SimpleNamespace(token_ids=ids, text=self.text, finish_reason="stop", logprobs=None)
            return SimpleNamespace(outputs=[out])

    prompt = tok.apply_chat_template([{"role": "user", "content": PROMPT}], add_generation_prompt=True, tokenize=False)
    params = SimpleNamespace(max_tokens=1024, logprobs=None)

    def run(remote, text):
        ex = SingleTurnAgentExecutor(remote_rm_url=remote)
        return asyncio.run(ex.execute(prompt, TASK, params, 4096, tok, Engine(text)))

    os.environ["CUDAPERF_URL"] = url
    for remote in (co.__file__, url + "/v1/openrlhf"):
        got = run(remote, ANSWER + "<|im_end|>")
        reward = got["reward"][0] if isinstance(got["reward"], list) else got["reward"]
        assert reward is not None and reward > -4.6, got  # -10 would be "no code": the <|im_end|> was not stripped
        assert got["scores"] in ([1.0], 1.0), got
        ok(f"OpenRLHF SingleTurnAgentExecutor ({'file' if remote.endswith('.py') else 'HTTP'}): "
           f"```<|im_end|> answer -> reward {reward:.3f}, score {got['scores']}")
    os.environ["CUDAPERF_URL"] = refusing_url
    got = run(co.__file__, ANSWER + "<|im_end|>")
    assert got["reward"] == [-10.0] and got["extra_logs"]["error"] == [1.0], got
    ok("OpenRLHF file variant against a service without a GPU: explicit error reward -10, extra_logs.error 1")
    os.environ["CUDAPERF_URL"] = url


def main():
    tmp = Path(tempfile.mkdtemp(prefix="cudaperf-rl-engines-"))
    with Service(BIN, tmp, cpu_test_mode=True, workers=2) as svc, Service(BIN, tmp) as refusing:
        if refusing.health()["gpus"] == 0:
            import cudaperf.trl as ct
            assert refusing.health()["scores"] is False, refusing.health()
            try:
                ct.make_reward_func(refusing.url)(["p"], [ANSWER], task_id=[TASK])
                raise AssertionError("a service without a GPU scored a kernel")
            except CudaperfNoGpu as e:
                ok(f"a service without a GPU refuses to score: {str(e)[:90]}...")
        tok = check_trl(svc.url, tmp)
        check_verl(svc.url, tok, tmp)
        check_verl_recipe(svc.url, tmp)
        check_openrlhf(svc.url, tok, tmp, refusing.url)
    print(f"{len(checked)} passed, 0 failed")


if __name__ == "__main__":
    main()
