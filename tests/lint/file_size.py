#!/usr/bin/env python3
"""ctest lint.file_size: no source file under src/, python/ or tools/ is longer than 700 lines,
unless one of its first 5 lines starts with "// size:" or "# size:" and says why it must be.

Usage: file_size.py [REPO_ROOT] [--limit N]   (prints each offending file; exits 1 when there is one)"""
import argparse
import os
import sys
from pathlib import Path

FOLDERS = ("src", "python", "tools")
SUFFIXES = {".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".cu", ".cuh", ".inc", ".py", ".sh"}
SKIP_DIRS = {"__pycache__", "build", "dist"}
HEAD = 5


def has_reason(lines):
    return any(line.lstrip().startswith(("// size:", "# size:")) for line in lines[:HEAD])


def sources(root):
    for top in FOLDERS:
        for here, dirs, files in os.walk(root / top):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".") and not d.endswith(".egg-info"))
            for name in sorted(files):
                if Path(name).suffix in SUFFIXES:
                    yield Path(here) / name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", nargs="?", type=Path, default=Path(__file__).resolve().parents[2])
    ap.add_argument("--limit", type=int, default=700)
    a = ap.parse_args()
    offenders, checked = [], 0
    for f in sources(a.root):
        checked += 1
        lines = f.read_text(errors="replace").splitlines()
        if len(lines) > a.limit and not has_reason(lines):
            offenders.append((f.relative_to(a.root), len(lines)))
    for f, n in offenders:
        print(f"{f}: {n} lines (limit {a.limit}: split it, or give the reason on a '// size:' or '# size:' "
              f"line among its first {HEAD})")
    print(f"lint.file_size: {checked} files, {len(offenders)} over {a.limit} lines without a reason")
    return 1 if offenders else 0


if __name__ == "__main__":
    sys.exit(main())
