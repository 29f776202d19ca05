#!/usr/bin/env python3
"""Copies one task folder under a new tasks root with one config's parameters changed, e.g. saxpy
with a 2^25-element perf config so that every red-team row fits in one device call:

  small_task.py data/tasks/c2cuda/elementwise/saxpy "$root" --config perf --set n=33554432

The copy lands at ROOT/<kind>/<id> (from task.toml). Only the named config's line is rewritten, and
the result is parsed back: every value but the ones set must be unchanged, else it exits 2 and says
why (a reformatted task.toml must not silently give a full-size run)."""
import argparse
import re
import shutil
import sys
import tomllib
from pathlib import Path


def fail(msg):
    print(f"small_task: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_setting(s):
    name, sep, value = s.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or not re.fullmatch(r"-?[0-9]+", value):
        fail(f"--set wants NAME=INTEGER, got {s!r}")
    return name, int(value)


def rewrite(text, config, settings):
    """The toml text with config's inline table changed; the table must sit on one line."""
    line_re = re.compile(r'^(\s*\{\s*name\s*=\s*"' + re.escape(config) + r'"\s*,)(.*)(\}\s*,?\s*)$', re.M)
    lines = line_re.findall(text)
    if len(lines) != 1:
        fail(f'expected one line "{{ name = "{config}", ... }}" in task.toml, found {len(lines)}')

    def edit(m):
        body = m.group(2)
        for name, value in settings:
            body, n = re.subn(r"(\b" + re.escape(name) + r"\s*=\s*)-?[0-9]+", lambda k: k.group(1) + str(value), body)
            if n != 1:
                fail(f"config {config} has no integer {name} to set")
        return m.group(1) + body + m.group(3)

    return line_re.sub(edit, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("task_dir", type=Path, help="a task folder (holds task.toml)")
    ap.add_argument("root", type=Path, help="tasks root that receives the copy")
    ap.add_argument("--config", required=True, help="the config to change, by name")
    ap.add_argument("--set", dest="settings", action="append", required=True, type=parse_setting,
                    metavar="NAME=INT", help="a parameter of that config (repeatable)")
    a = ap.parse_args()

    src_toml = a.task_dir / "task.toml"
    if not src_toml.is_file():
        fail(f"no task.toml in {a.task_dir}")
    text = src_toml.read_text()
    before = tomllib.loads(text)
    dest = a.root / before["kind"] / before["id"]
    if dest.exists():
        fail(f"{dest} exists already")
    small = rewrite(text, a.config, a.settings)

    # The check: the parsed copy equals the original with exactly these values replaced.
    want = tomllib.loads(text)
    for c in want["configs"]:
        if c["name"] == a.config:
            c.update(dict(a.settings))
    if tomllib.loads(small) != want:
        fail("the rewritten task.toml does not parse to the intended change")

    shutil.copytree(a.task_dir, dest)
    (dest / "task.toml").write_text(small)
    print(f"{before['id']}: config {a.config} with " + ", ".join(f"{k} = {v}" for k, v in a.settings)
          + f" in {a.root}", file=sys.stderr)


if __name__ == "__main__":
    main()
