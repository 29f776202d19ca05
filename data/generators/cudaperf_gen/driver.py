"""Seeds -> task folders: generation with near-duplicate removal, the manifest (id, family, seed,
split, content hash, validation), the regeneration check, the stratified GPU sample."""
import json
import math
import os
import random
import shutil

from . import canon, emit, temit
from .families import all_families
from .split import HELDOUT, split_of
from .torch_families import all_families as torch_families

PER_FAMILY = 30
TORCH_PER_FAMILY = 20  # 22 torch families: 440 tasks, each family 4.5 % of the torch set
ATTEMPTS = 6  # seeds tried per kept task before a family gives up (near-duplicates are skipped)


def family_rng(family, seed):
    return random.Random(f"cudaperf-gen:{family}:{seed}")


def make(family, seed, module=None):
    module = module or all_families()[family]
    spec = module.generate(family_rng(family, seed), seed)
    assert spec.family == family and spec.seed == seed, (family, seed)
    fs = emit.files(spec)
    return spec, fs


def make_torch(family, seed, module=None):
    module = module or torch_families()[family]
    spec = module.generate(family_rng(family, seed), seed)
    assert spec.family == family and spec.seed == seed, (family, seed)
    return spec, temit.files(spec)


def kind_of(family):
    return "torch2cuda" if family in torch_families() else "c2cuda"


def canonical_of(spec, fs):
    if "reference.py" in fs:
        return canon.canonical_torch_hash(fs["reference.py"], spec.shape_sig)
    return canon.canonical_hash(fs["reference.c"])


def select(per_family, families=None, excluded=None, torch_per_family=TORCH_PER_FAMILY):
    """[(family, seed, spec, files, canonical hash)] in family order (c2cuda families, then torch2cuda
    ones), near-duplicates dropped: a task whose reference is canonically equal to one already kept
    (in any family) is skipped."""
    excluded = excluded or {}
    seen = {}
    out, stats = [], {}
    for kind, mods, maker, quota in [("c2cuda", all_families(), make, per_family),
                                     ("torch2cuda", torch_families(), make_torch, torch_per_family)]:
        o, st = _select_kind(kind, mods, maker, quota, families, excluded, seen)
        out += o
        stats.update(st)
    return out, stats


def _select_kind(kind, mods, maker, per_family, families, excluded, seen):
    out, stats = [], {}
    for fam in sorted(mods):
        if families and fam not in families:
            continue
        kept = dups = skipped = 0
        seed = 0
        while kept < per_family and seed < per_family * ATTEMPTS:
            spec, fs = maker(fam, seed, mods[fam])
            h = canonical_of(spec, fs)
            if excluded.get((fam, seed)) == emit.content_hash(fs):
                skipped += 1
            elif h in seen:
                dups += 1
            else:
                seen[h] = spec.task_id
                out.append((fam, seed, spec, fs, h))
                kept += 1
            seed += 1
        stats[fam] = {"kept": kept, "near_duplicates": dups, "excluded_failed": skipped, "seeds_tried": seed, "kind": kind}
    return out, stats


def load_manifest(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def save_manifest(path, m):
    with open(path, "w") as f:
        json.dump(m, f, indent=1, sort_keys=True)
        f.write("\n")


def excluded_of(m):
    return {(e["family"], e["seed"]): e["hash"] for e in (m or {}).get("excluded", [])}


def task_dir(out_root, t):
    """The folder of manifest task t under a generated root."""
    if t.get("kind") == "torch2cuda":
        return os.path.join(out_root, t["id"])
    return os.path.join(out_root, "c2cuda", t["id"])


def generate(out_root, per_family, families=None, old_manifest=None, torch_per_family=TORCH_PER_FAMILY):
    excluded = excluded_of(old_manifest)
    old = {t["id"]: t for t in (old_manifest or {}).get("tasks", [])}
    chosen, stats = select(per_family, families, excluded, torch_per_family)
    for sub in ("c2cuda", "torch2cuda"):
        base = os.path.join(out_root, sub)
        if os.path.isdir(base):
            shutil.rmtree(base)
    tasks = []
    for fam, seed, spec, fs, h in chosen:
        torch = isinstance(spec, temit.TorchSpec)
        _, ch = (temit if torch else emit).write_folder(out_root, spec)
        t = {"id": spec.task_id, "family": fam, "seed": seed, "split": split_of(fam), "hash": ch, "canonical": h,
             "field": spec.field, "coop": "-" if torch else spec.coop, "kind": "torch2cuda" if torch else "c2cuda"}
        prev = old.get(spec.task_id)
        for key in ("validation", "gpu"):
            if prev and prev.get("hash") == ch and key in prev:
                t[key] = prev[key]  # same bytes: the earlier result still holds
        tasks.append(t)
    fams = {}
    mods = dict(all_families(), **torch_families())
    for fam in sorted(stats):
        fams[fam] = dict(stats[fam], split=split_of(fam), doc=(mods[fam].__doc__ or "").strip().splitlines()[0])
    counts = {}
    for t in tasks:
        counts.setdefault(t["kind"], {"tasks": 0, "families": 0})["tasks"] += 1
    for f in fams.values():
        if f["kept"]:
            counts.setdefault(f["kind"], {"tasks": 0, "families": 0})["families"] += 1
    return {"version": 2, "generator": "data/generators/gen.py", "per_family": per_family, "torch_per_family": torch_per_family,
            "heldout_families": sorted(HELDOUT), "kinds": counts,
            "families": fams, "tasks": tasks, "excluded": (old_manifest or {}).get("excluded", [])}


def check(out_root, m):
    """Problems (strings) where the tree or the manifest differ from what the generators produce now."""
    problems = []
    chosen, _ = select(m["per_family"], None, excluded_of(m), m.get("torch_per_family", TORCH_PER_FAMILY))
    want = {spec.task_id: (fs, fam, seed) for fam, seed, spec, fs, _ in chosen}
    listed = {t["id"]: t for t in m["tasks"]}
    for tid in sorted(set(want) ^ set(listed)):
        problems.append(f"{tid}: {'generated but not in the manifest' if tid in want else 'in the manifest but not generated'}")
    base = os.path.join(out_root, "c2cuda")
    tbase = os.path.join(out_root, "torch2cuda")
    if not os.path.isdir(base) and not os.path.isdir(tbase):  # no tree here: the manifest's hashes alone are checked
        for tid, (fs, fam, seed) in sorted(want.items()):
            if tid in listed and listed[tid]["hash"] != emit.content_hash(fs):
                problems.append(f"{tid}: content hash differs from the manifest")
        return problems
    on_disk = set()
    for fam in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        for name in sorted(os.listdir(os.path.join(base, fam))):
            on_disk.add(f"{fam}/{name}")
    for cat in sorted(os.listdir(tbase)) if os.path.isdir(tbase) else []:
        for name in sorted(os.listdir(os.path.join(tbase, cat))):
            on_disk.add(f"torch2cuda/{cat}/{name}")
    for tid in sorted(on_disk - set(want)):
        problems.append(f"{tid}: a folder in the tree that the generators do not produce")
    for tid, (fs, fam, seed) in sorted(want.items()):
        if tid in listed and listed[tid]["hash"] != emit.content_hash(fs):
            problems.append(f"{tid}: content hash differs from the manifest")
        d = os.path.join(out_root, tid) if tid.startswith("torch2cuda/") else os.path.join(base, tid)
        present = set()
        for root, _, names in os.walk(d):
            for n in names:
                present.add(os.path.relpath(os.path.join(root, n), d))
        for rel in sorted(set(fs) | present):
            p = os.path.join(d, rel)
            if rel not in fs:
                problems.append(f"{tid}/{rel}: not generated")
            elif not os.path.exists(p):
                problems.append(f"{tid}/{rel}: missing from the tree")
            else:
                with open(p, encoding="utf-8", newline="") as f:
                    if f.read() != fs[rel]:
                        problems.append(f"{tid}/{rel}: differs from the generator output")
    return problems


def record_validation(m, reports):
    by_id = {t["id"]: t for t in m["tasks"]}
    n = 0
    for rep in reports:
        for jt in rep.get("tasks", []):
            t = by_id.get(jt.get("id"))
            if not t:
                continue
            probs = jt.get("problems", [])
            nulls = jt.get("nulls", {})
            t["validation"] = {"ok": not probs, "problems": probs[:3], "warnings": jt.get("warnings", [])[:3],
                               "nulls_rejected": sum(1 for v in nulls.values() if v.get("configs_rejected", 0) > 0),
                               "nulls": len(nulls), "hash": t["hash"]}
            if jt.get("kind") == "torch2cuda":  # the reference run + null battery needs torch: say whether it ran
                t["validation"]["battery"] = jt.get("battery", "")
            n += 1
    return n


def record_gpu(m, record_lines):
    """Folds `tasks check-gpu --records` lines (data/records/ format) into the manifest: per generated
    task of these bytes, `gpu` = {device, date, ok, problems}; ok means every implementation at every
    config. A task that fails on the GPU is dropped by prune: either its generated implementations are
    wrong for it or the toolchain miscompiles it, and RL would then punish the natural correct program."""
    by_id = {t["id"]: t for t in m["tasks"]}
    seen = {}
    for line in record_lines:
        r = json.loads(line)
        t = by_id.get(r.get("task"))
        if not t:
            continue
        g = seen.setdefault(t["id"], {"device": r["device"].split(",")[0], "date": r["date"][:10], "ok": True,
                                      "problems": [], "hash": t["hash"]})
        if r["status"] != "ok" and r["status"] != "not_run":
            g["ok"] = False
            if len(g["problems"]) < 3:
                g["problems"].append(f"{r['impl']}@{r['config']}: {r['status']}: {r.get('message', '')}"[:300])
    for tid, g in seen.items():
        by_id[tid]["gpu"] = g
    return len(seen)


def prune(out_root, m):
    keep, n = [], 0
    for t in m["tasks"]:
        v, g = t.get("validation"), t.get("gpu")
        why = ""
        if v and not v["ok"]:
            why = (v["problems"] or ["validation failed"])[0]
        elif g and not g["ok"]:
            why = f"gpu ({g['device']}, {g['date']}): " + (g["problems"] or ["failed"])[0]
        if why:
            shutil.rmtree(task_dir(out_root, t), ignore_errors=True)
            m.setdefault("excluded", []).append({"family": t["family"], "seed": t["seed"], "hash": t["hash"],
                                                 "why": why[:300]})
            n += 1
        else:
            keep.append(t)
    m["tasks"] = keep
    for fam, f in m["families"].items():
        f["kept"] = sum(1 for t in keep if t["family"] == fam)
    return n


def gpu_sample(m, fraction, kind=None):
    """A deterministic stratified sample: per family, ceil(fraction * count) tasks evenly spaced in seed
    order (kind: only the tasks of that kind)."""
    out = []
    by_fam = {}
    for t in m["tasks"]:
        if kind and t.get("kind", "c2cuda") != kind:
            continue
        by_fam.setdefault(t["family"], []).append(t)
    for fam in sorted(by_fam):
        ts = sorted(by_fam[fam], key=lambda t: t["seed"])
        k = max(1, math.ceil(fraction * len(ts)))
        step = len(ts) / k
        out += [ts[int(i * step)]["id"] for i in range(k)]
    return out
