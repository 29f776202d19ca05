"""The candidates of GRPO steps as an RL trainer sends them to the reward service: P prompts (tasks)
x G samples per step, the same tasks every step, new sources every step. Used by bench/rl_step_load.py.

Classes of a sample (shares per step, counts by largest remainder):
  impl           a dataset implementation made a distinct source of the same meaning: one or two locals
                 renamed, some lines re-indented, a blank line and a comment line added
  wrong_answer   a mutation of bench/mutation_suite.py that changes the result (an index off by one, a
                 dropped tail, a skipped iteration, a nudged constant), then made distinct like impl
  compile_error  an impl variant with one identifier misspelt (a type of the host function or a CUDA
                 built-in, never inside a comment or string)
  duplicate      an exact copy of an earlier sample of the same task in the same step

Everything is drawn from one random.Random(seed) over sorted inputs, so a seed gives the same plan.
"""
from __future__ import annotations

import hashlib
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutation_suite import code_regions, implementations, mutants_of  # noqa: E402

KINDS = ("c2cuda", "torch2cuda")
CLASSES = ("impl", "wrong_answer", "compile_error", "duplicate")
DEFAULT_SHARES = {"impl": 0.65, "wrong_answer": 0.15, "compile_error": 0.10, "duplicate": 0.10}
# mutation_suite classes that change what the kernel computes without breaking its build
WRONG_ANSWER_MUTATIONS = ("off_by_one_index", "dropped_tail_guard", "dropped_tail_loop", "skipped_iteration",
                          "constant_nudge")
RENAME_SUFFIXES = ("_v", "_l", "_loc", "_r", "2")
# misspelt in compile_error samples; the kernel built-ins only outside templates (a template that is
# never instantiated may not be checked)
HOST_TYPES = {"c2cuda": "cudaStream_t", "torch2cuda": "cudaStream_t"}
BUILTINS = ("threadIdx", "blockIdx", "blockDim")
DECL = re.compile(r"\b(?:const\s+)?(?:unsigned\s+|long\s+)*(?:int|long|int64_t|int32_t|size_t|float|double|auto|bool)"
                  r"\s+([A-Za-z_]\w*)\s*=(?!=)")
# mutation_suite's dropped_tail_loop also matches `i <= n` and makes `i <(= n) - 1`, which does not build
STILLBORN_LOOP_BOUND = re.compile(r"<\(=")
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)


class WorkloadError(Exception):
    """Not enough tasks or samples for the requested plan."""


def sha12(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def parse_shares(text):
    """'impl=0.65,wrong_answer=0.15,...' -> {class: share}, normalised to sum 1 (missing classes: 0)."""
    out = {c: 0.0 for c in CLASSES}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, val = part.partition("=")
        if name not in out:
            raise WorkloadError(f"--shares: unknown class {name!r} (have {', '.join(CLASSES)})")
        out[name] = float(val)
    total = sum(out.values())
    if total <= 0 or min(out.values()) < 0 or out["impl"] + out["wrong_answer"] + out["compile_error"] <= 0:
        raise WorkloadError("--shares: shares must be >= 0 and leave room for samples that are not duplicates")
    return {c: v / total for c, v in out.items()}


def class_counts(n, shares):
    """Largest-remainder counts of n samples over the classes (ties in CLASSES order)."""
    raw = {c: n * shares[c] for c in CLASSES}
    counts = {c: int(raw[c]) for c in CLASSES}
    for c in sorted(CLASSES, key=lambda c: (-(raw[c] - counts[c]), CLASSES.index(c)))[: n - sum(counts.values())]:
        counts[c] += 1
    return counts


# ---------------------------------------------------------------- source-level edits

def _masked(code):
    """Spans of comments and string literals (no identifier there is compiled)."""
    return [(m.start(), m.end()) for m in COMMENT_OR_STRING.finditer(code)]


def _in_spans(pos, spans):
    return any(a <= pos < b for a, b in spans)


def rename_locals(code, outside, rng, most=2):
    """Renames up to `most` locals declared as `type name = ...`, every use in the code region. Left
    alone: names that also occur outside the region (the Python side of a torch file), after `.`,
    `->` or `::`, or before `(`: members and functions that are not the region's own."""
    names = sorted(set(DECL.findall(code)))
    ok = []
    for n in names:
        w = r"\b" + re.escape(n) + r"\b"
        if re.search(w, outside) or re.search(r"(?:\.|->|::)\s*" + re.escape(n) + r"\b", code) or \
                re.search(w + r"\s*\(", code):
            continue
        ok.append(n)
    renamed = {}
    for n in rng.sample(ok, min(most, len(ok))):
        for suffix in rng.sample(RENAME_SUFFIXES, len(RENAME_SUFFIXES)):
            new = n + suffix
            if not re.search(r"\b" + re.escape(new) + r"\b", code + outside):
                code = re.sub(r"\b" + re.escape(n) + r"\b", new, code)
                renamed[n] = new
                break
    return code, renamed


def reindent(code, rng):
    """Two more spaces on about a quarter of the indented lines, and a blank line after one statement."""
    lines = code.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("  ") and rng.random() < 0.25:
            lines[i] = "  " + line
    ends = [i for i, line in enumerate(lines) if line.rstrip().endswith(";")]
    if ends:
        lines.insert(rng.choice(ends) + 1, "")
    return "\n".join(lines)


def add_comment(code, tag):
    """A comment line after the first #include (at the top when there is none)."""
    m = re.search(r"#include[^\n]*\n", code)
    at = m.end() if m else 0
    return code[:at] + f"// {tag}\n" + code[at:]


def variant(text, kind, rng, tag):
    """The file with its CUDA code region edited: same meaning, a different source."""
    lo, hi = code_regions(text, kind)[0]
    code, renamed = rename_locals(text[lo:hi], text[:lo] + text[hi:], rng)
    code = add_comment(reindent(code, rng), tag)
    return text[:lo] + code + text[hi:], renamed


def misspell(word, rng, avoid):
    """`word` with two adjacent inner letters swapped (a typo that stays a valid identifier)."""
    spots = [i for i in range(1, len(word) - 2) if word[i] != word[i + 1]]
    for i in rng.sample(spots, len(spots)):
        typo = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        if not re.search(r"\b" + re.escape(typo) + r"\b", avoid):
            return typo
    return word + "_"


def mangle(text, kind, rng):
    """One identifier of the CUDA region misspelt: the host function's type or a kernel built-in.
    Returns (text, what was misspelt) or (None, None) when nothing fits."""
    lo, hi = code_regions(text, kind)[0]
    code = text[lo:hi]
    words = (HOST_TYPES[kind],) + (() if "template" in code else BUILTINS)
    spans = _masked(code)
    sites = [(m.start(), m.group(0)) for w in words for m in re.finditer(r"\b" + w + r"\b", code)
             if not _in_spans(m.start(), spans)]
    if not sites:
        return None, None
    pos, word = rng.choice(sorted(sites))
    typo = misspell(word, rng, text)
    code = code[:pos] + typo + code[pos + len(word):]
    return text[:lo] + code + text[hi:], f"{word} -> {typo}"


# ---------------------------------------------------------------- the pool and the plan

def task_pool(tasks_root, kinds):
    """{task id: {"kind", "task_dir", "impls": [(file name, text)]}} for tasks with implementations."""
    pool = {}
    for it in implementations(tasks_root):
        if it["kind"] not in kinds or not it["task"]:
            continue
        t = pool.setdefault(it["task"], {"kind": it["kind"], "task_dir": it["task_dir"], "impls": []})
        t["impls"].append((os.path.basename(it["impl"]), open(it["impl"], encoding="utf-8").read()))
    return pool


def pick_tasks(pool, prompts, kinds, torch_share, rng):
    """`prompts` task ids: round(prompts * torch_share) torch2cuda ones when both kinds are asked for."""
    want = {k: 0 for k in kinds}
    if len(kinds) == 1:
        want[kinds[0]] = prompts
    else:
        want["torch2cuda"] = round(prompts * torch_share)
        want["c2cuda"] = prompts - want["torch2cuda"]
    out = []
    for k in kinds:
        ids = sorted(t for t, v in pool.items() if v["kind"] == k)
        if len(ids) < want[k]:
            raise WorkloadError(f"{want[k]} {k} prompts asked for, {len(ids)} tasks with implementations")
        out += rng.sample(ids, want[k])
    return out


def assign_classes(counts, prompts, samples, rng):
    """Class labels per prompt (lists of `samples`), shuffled; every group starts with a sample that is
    not a duplicate (a duplicate copies an earlier one); duplicates that cannot be placed become impl."""
    labels = [c for c in CLASSES for _ in range(counts[c])]
    rng.shuffle(labels)
    groups = [labels[p * samples:(p + 1) * samples] for p in range(prompts)]
    for g in groups:
        if g and g[0] == "duplicate" and any(c != "duplicate" for c in g):
            k = next(i for i, c in enumerate(g) if c != "duplicate")
            g[0], g[k] = g[k], g[0]
    for gi, g in enumerate(groups):
        if g and all(c == "duplicate" for c in g):
            donors = [d for d in range(prompts) if sum(c != "duplicate" for c in groups[d]) >= 2]
            if donors:
                d = groups[donors[0]]
                k = max(i for i, c in enumerate(d) if c != "duplicate")
                g[0], d[k] = d[k], g[0]
            else:
                g[0] = "impl"
    return groups


def make_sample(task, info, cls, rng, tag, mutants_cache):
    """One candidate of class cls (not duplicate): a dict with its source and how it was made."""
    kind = info["kind"]
    if cls == "wrong_answer":
        choices = []
        for name, text in info["impls"]:
            key = (task, name)
            if key not in mutants_cache:
                mutants_cache[key] = [m for m in mutants_of(text, kind) if m[0] in WRONG_ANSWER_MUTATIONS
                                      and not STILLBORN_LOOP_BOUND.search(m[3])]
            choices += [(name, m) for m in mutants_cache[key]]
        if choices:
            name, (mcls, site, line, mutated) = rng.choice(choices)
            src, renamed = variant(mutated, kind, rng, tag)
            return {"class": cls, "base": name, "edit": f"{mcls} at line {line}", "source": src, "renamed": renamed}
        cls = "impl"  # no mutation site in this task's implementations
    name, text = rng.choice(info["impls"])
    src, renamed = variant(text, kind, rng, tag)
    row = {"base": name, "edit": "variant", "source": src, "renamed": renamed}
    if cls == "compile_error":
        bad, what = mangle(src, kind, rng)
        if bad is not None:
            row.update(source=bad, edit=f"misspelt {what}")
        else:
            cls = "impl"
    row["class"] = cls
    return row


def build_plan(tasks_root, prompts, samples, steps, seed, kinds=KINDS, torch_share=0.5, shares=None):
    """{"tasks": [...], "steps": [[candidate, ...] per step]}; a candidate: step, prompt, sample, task,
    kind, class, base (the implementation), edit, sha (of the source), source, duplicate_of."""
    shares = shares or dict(DEFAULT_SHARES)
    kinds = tuple(k for k in KINDS if k in kinds)
    if prompts < 1 or samples < 1 or steps < 1 or not kinds:
        raise WorkloadError("prompts, samples and steps must be >= 1 and at least one kind given")
    rng = random.Random(seed)
    pool = task_pool(tasks_root, kinds)
    tasks = pick_tasks(pool, prompts, kinds, torch_share, rng)
    mutants_cache = {}
    plan_steps = []
    for step in range(1, steps + 1):
        groups = assign_classes(class_counts(prompts * samples, shares), prompts, samples, rng)
        cands = []
        for p, (task, labels) in enumerate(zip(tasks, groups)):
            info = pool[task]
            made = []
            for g, cls in enumerate(labels):
                row = {"step": step, "prompt": p, "sample": g, "task": task, "kind": info["kind"]}
                if cls == "duplicate":
                    orig = rng.choice(made)
                    row.update({"class": "duplicate", "base": orig["base"], "edit": "exact copy",
                                "source": orig["source"], "duplicate_of": [orig["prompt"], orig["sample"]]})
                else:
                    row.update(make_sample(task, info, cls, rng, f"candidate {step}.{p}.{g}", mutants_cache))
                    made.append(row)
                row["sha"] = sha12(row["source"])
                cands.append(row)
        plan_steps.append(cands)
    return {"tasks": [{"task": t, "kind": pool[t]["kind"], "impls": [n for n, _ in pool[t]["impls"]]} for t in tasks],
            "steps": plan_steps}


def summarize_plan(plan):
    """Counts per step: candidates, distinct sources, by class, by kind, by kind and class."""
    out = []
    for cands in plan["steps"]:
        s = {"step": cands[0]["step"] if cands else None, "candidates": len(cands),
             "distinct_sources": len({(c["task"], c["sha"]) for c in cands}), "by_class": {}, "by_kind": {},
             "by_kind_class": {}}
        for c in cands:
            s["by_class"][c["class"]] = s["by_class"].get(c["class"], 0) + 1
            s["by_kind"][c["kind"]] = s["by_kind"].get(c["kind"], 0) + 1
            kc = s["by_kind_class"].setdefault(c["kind"], {})
            kc[c["class"]] = kc.get(c["class"], 0) + 1
        out.append(s)
    return out
