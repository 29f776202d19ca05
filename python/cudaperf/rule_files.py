"""The rule files under config/ that the PyTorch worker and the C++ engine both read: timing.toml,
candidate_policy.toml, torch_protocol.toml (the C++ engine compiles them in at build time). Here they
are read from the repository the package sits in (python/cudaperf -> config/), once per module that
needs one, when it is imported. A file that is missing or does not parse raises RuleFileError: the
worker must never run on rules of its own. tomllib: Python >= 3.11 (only the torch worker reads them;
the RL-engine adapters, which support 3.9, never import this module)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import tomllib

CONFIG_DIR = Path(__file__).resolve().parent.parent.parent / "config"


class RuleFileError(RuntimeError):
    """A rule file that cannot be read: a broken checkout, not an input error."""


def load(name: str) -> dict[str, Any]:
    """config/NAME, parsed."""
    path = CONFIG_DIR / name
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as ex:
        raise RuleFileError(f"cannot read the rule file {path}: {ex}") from ex


def value(doc: dict[str, Any], path: str, kind: type | tuple[type, ...], name: str) -> Any:
    """doc's value at a dotted path ("stopping_rule.min_samples"), which must be of `kind`."""
    v: Any = doc
    for key in path.split("."):
        if not isinstance(v, dict) or key not in v:
            raise RuleFileError(f"config/{name}: {path} is missing")
        v = v[key]
    if not isinstance(v, kind) or (isinstance(v, bool) and kind is not bool):
        raise RuleFileError(f"config/{name}: {path} is not {kind}")
    return v


def strings(doc: dict[str, Any], path: str, name: str) -> list[str]:
    """An array of strings at a dotted path."""
    v = value(doc, path, list, name)
    if not all(isinstance(x, str) for x in v):
        raise RuleFileError(f"config/{name}: {path} holds a value that is not a string")
    return list(v)


def alternatives(doc: dict[str, Any], path: str, name: str) -> str:
    """A regular expression written as an array of alternatives, joined with '|'."""
    alts = strings(doc, path, name)
    if not alts:
        raise RuleFileError(f"config/{name}: {path} is an empty pattern")
    return "|".join(alts)
