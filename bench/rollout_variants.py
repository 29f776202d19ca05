"""Many distinct candidates for one torch2cuda task, as an RL rollout batch has: copies of the task's
impls, each with a comment line added to its CUDA source, so every candidate is a different source
(a cold build of its own, no cache hit) with a known verdict. Used by `tools/gpu-check.sh torch-vs-kb`
to compare candidates per minute with bench/kernelbench_loop.py in the many-candidates-per-task regime.

  python3 bench/rollout_variants.py data/tasks/torch2cuda/activations/relu --n 16 --out build/rollouts
  -> build/rollouts/torch2cuda/activations/relu/{task.toml,reference.py,impls/naive.py,impls/<strategy>_rNN.py}"""
import argparse
import os
import re
import shutil
import sys


def variant(text, i):
    """The source with `// rollout variant i` after the first #include of its first raw string."""
    m = re.search(r'r"""\s*\n(#include[^\n]*\n)', text)
    if not m:
        raise ValueError("no r\"\"\" CUDA source that starts with an #include")
    return text[:m.end(1)] + f"// rollout variant {i}\n" + text[m.end(1):]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("task_dir")
    ap.add_argument("--n", type=int, default=16, help="candidates (the task's naive impl is one of them)")
    ap.add_argument("--out", required=True, help="a tasks root to write into")
    a = ap.parse_args(argv)
    task = os.path.normpath(a.task_dir)
    parts = task.split(os.sep)
    if "torch2cuda" not in parts:
        sys.exit(f"{task}: not under a torch2cuda/ folder")
    rel = os.path.join(*parts[parts.index("torch2cuda"):])
    dst = os.path.join(a.out, rel)
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(os.path.join(dst, "impls"))
    for f in ("task.toml", "reference.py"):
        shutil.copy(os.path.join(task, f), dst)
    impls = sorted(f for f in os.listdir(os.path.join(task, "impls")) if f.endswith(".py"))
    if "naive.py" not in impls:
        sys.exit(f"{task}: no impls/naive.py")
    shutil.copy(os.path.join(task, "impls", "naive.py"), os.path.join(dst, "impls"))
    others = [f for f in impls if f != "naive.py"] or ["naive.py"]
    for i in range(1, a.n):
        src = others[(i - 1) % len(others)]
        text = open(os.path.join(task, "impls", src), encoding="utf-8").read()
        name = f"{src[:-3]}_r{i:02d}"
        text = re.sub(r"^# strategy: *" + re.escape(src[:-3]) + r"\b", f"# strategy: {name}", text, count=1, flags=re.M)
        with open(os.path.join(dst, "impls", name + ".py"), "w", encoding="utf-8") as f:
            f.write(variant(text, i))
    print(f"{a.n} candidates in {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
