"""Find the candidate .cu file in a model response.

Rules:
1. When the text contains the prompt (an echo, e.g. OpenRLHF's query = prompt + response), only the
   text after the prompt is looked at; when the exact prompt is not found, the prompt's last 200
   characters are used as an anchor (decoding may have changed its start).
2. Reasoning is dropped: everything up to the last `</think>`, and an unclosed `<think>` to the end.
3. Fenced blocks are CommonMark-style: an opening line of three or more backticks or tildes with
   an optional info string, closed by a line holding only the same fence character, at least as
   many times. An unclosed block is not a block (a truncated answer has no candidate). A closing
   line may end with end-of-turn tokens (`<|im_end|>`, `<|endoftext|>`, `<|eot_id|>`, `<|end|>`,
   `</s>`): engines that decode with skip_special_tokens=False (OpenRLHF) leave them there.
4. Blocks with only whitespace are skipped. The candidate is the last block whose tag (the info string's first
   word, case-insensitive) is cuda, cu, cpp, c++ or c; else the last block of any tag; else None.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Optional

__all__ = ["CODE_TAGS", "END_TOKENS", "extract_code", "fenced_blocks", "strip_prompt", "response_text"]

CODE_TAGS = frozenset({"cuda", "cu", "cpp", "c++", "c"})
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>", "</s>")

_OPEN = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*?)[ \t]*$")
_CLOSE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*$")
_END = re.compile(r"(?:[ \t]*(?:" + "|".join(re.escape(t) for t in END_TOKENS) + r"))+[ \t]*$")
_TAG = re.compile(r"^\{?\.?(?P<tag>[A-Za-z0-9_+#.-]*)")
_ANCHOR_CHARS = 200


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """All closed fenced blocks as (tag, body), in order; tag is lower-case, '' when untagged."""
    blocks: list[tuple[str, str]] = []
    opened: Optional[tuple[str, str]] = None  # (fence, tag)
    body: list[str] = []
    for line in text.splitlines():
        if opened is None:
            m = _OPEN.match(line)
            if m and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
                tag = _TAG.match(m.group("info")).group("tag").lower()  # type: ignore[union-attr]
                opened, body = (m.group("fence"), tag), []
            continue
        m = _CLOSE.match(_END.sub("", line))
        fence = opened[0]
        if m and m.group("fence")[0] == fence[0] and len(m.group("fence")) >= len(fence):
            blocks.append((opened[1], "\n".join(body) + "\n"))
            opened = None
        else:
            body.append(line)
    return blocks


def strip_prompt(response: str, prompt: Optional[str]) -> str:
    """The part of `response` after an echo of `prompt` (the whole response when there is none)."""
    if not prompt:
        return response
    if response.startswith(prompt):
        return response[len(prompt):]
    at = response.find(prompt)
    if at >= 0:
        return response[at + len(prompt):]
    anchor = prompt.strip()[-_ANCHOR_CHARS:]
    if len(anchor) >= 20:
        at = response.find(anchor)
        if at >= 0:
            return response[at + len(anchor):]
    return response


def _drop_thinking(text: str) -> str:
    end = text.rfind("</think>")
    if end >= 0:
        text = text[end + len("</think>"):]
    start = text.find("<think>")
    return text if start < 0 else text[:start]


def extract_code(response: Optional[str], prompt: Optional[str] = None) -> Optional[str]:
    """The candidate source in `response` (see the module doc), or None when there is no code block."""
    if not response:
        return None
    blocks = fenced_blocks(_drop_thinking(strip_prompt(response, prompt)))
    blocks = [(t, b) for t, b in blocks if b.strip()]
    tagged = [b for t, b in blocks if t in CODE_TAGS]
    if tagged:
        return tagged[-1]
    return blocks[-1][1] if blocks else None


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Iterable) and not isinstance(content, (bytes, dict)):
        parts = []
        for p in content:
            if isinstance(p, str):
                parts.append(p)
            elif isinstance(p, dict) and isinstance(p.get("text"), str):
                parts.append(p["text"])
        return "".join(parts)
    return ""


def response_text(completion: Any) -> str:
    """Text of a completion: a string, or a conversation (list of {"role", "content"} messages) whose
    assistant messages are joined (a message's content may be a list of {"type": "text", "text"} parts)."""
    if completion is None:
        return ""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return _content_text(completion.get("content"))
    texts = [_content_text(m.get("content")) for m in completion
             if isinstance(m, dict) and m.get("role", "assistant") == "assistant"]
    return "\n\n".join(t for t in texts if t)
