"""The policy built here from scratch (no pretrained weights can be fetched): a byte-level BPE
tokenizer trained on the dataset's sources, with Qwen 2.5's special tokens and its chat template as
TRL ships it (so TRL recognises the template and parses `<tool_call>` blocks), and a small Qwen2
causal LM from a `transformers` config.

    tok = build_tokenizer(texts, vocab_size=8000); tok.save_pretrained(dir)
    model = build_model(tok, size="small")     # "tiny" (tests), "small" (~20 M), "base" (~60 M parameters)
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>",
                  "<tool_response>", "</tool_response>", "<think>", "</think>"]

SIZES = {
    # hidden, layers, heads, kv heads, intermediate
    "tiny": (64, 2, 4, 2, 128),
    "small": (384, 6, 6, 2, 1024),
    "base": (512, 12, 8, 2, 1536),
}


def chat_template() -> str:
    """Qwen 2.5's chat template as TRL ships it (trl/chat_templates/qwen2_5.jinja): TRL then knows how to
    parse tool calls from this tokenizer's output and which training template goes with it."""
    import trl

    return (Path(trl.__file__).parent / "chat_templates" / "qwen2_5.jinja").read_text(encoding="utf-8")


def build_tokenizer(texts: Iterable[str], vocab_size: int = 8000):
    """A byte-level BPE trained on `texts`, as a transformers PreTrainedTokenizerFast (left padding)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, min_frequency=2,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(list(texts), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   additional_special_tokens=SPECIAL_TOKENS[1:], padding_side="left")
    fast.chat_template = chat_template()
    return fast


def build_model(tokenizer, size: str = "small", max_positions: int = 4096, seed: int = 0):
    """A randomly initialised Qwen2ForCausalLM sized by SIZES[size], its vocabulary the tokenizer's."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    hidden, layers, heads, kv, inter = SIZES[size]
    cfg = Qwen2Config(vocab_size=len(tokenizer), hidden_size=hidden, num_hidden_layers=layers,
                      num_attention_heads=heads, num_key_value_heads=kv, intermediate_size=inter,
                      max_position_embeddings=max_positions, tie_word_embeddings=True,
                      bos_token_id=None, eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(cfg)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model


def parameters(model) -> int:
    return sum(p.numel() for p in model.parameters())
