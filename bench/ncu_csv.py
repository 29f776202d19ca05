"""Shared by the bench scripts that read Nsight Compute output: the CSV table of
`ncu --csv --print-units base` (one row per launch and metric), and kernel names spelt as ncu
spells them, so static (c++filt) and measured names match. The C++ twin of base_name is
analysis::kernel_base_name (src/analysis/dynamic.cpp)."""
import csv
import io
from typing import Dict, Iterator, Optional


def base_name(n: str) -> str:
    """Kernel name without return type and parameters: "void ns::k<true>(float*)" -> "ns::k<1>"."""
    n = n[5:] if n.startswith("void ") else n
    n = n.replace("(anonymous namespace)", "<unnamed>").replace("<true>", "<1>").replace("<false>", "<0>")
    depth = 0
    for i, c in enumerate(n):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            return n[:i]
    return n


def rows(text: str) -> Optional[Iterator[Dict[str, str]]]:
    """The metric rows of ncu's CSV table (profiler messages before it skipped), or None when the
    output holds no table."""
    start = text.find('"ID","Process ID"')
    return None if start < 0 else csv.DictReader(io.StringIO(text[start:]))


def value(row: Dict[str, str]) -> Optional[float]:
    """A row's metric value as a number ("1,234" -> 1234.0), None when it is not one."""
    try:
        return float((row.get("Metric Value") or "").replace(",", ""))
    except ValueError:
        return None
