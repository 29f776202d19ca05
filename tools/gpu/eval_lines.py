#!/usr/bin/env python3
"""One text line per `cudaperf eval --json` result, for the torch-redteam job's .txt files.

Usage: eval_lines.py build LABEL EVAL_JSON   LABEL, the verdict and the build stage (compile times)
       eval_lines.py redteam EVAL_JSON       per candidate: its "# expect:" line and the verdict it got
"""
import json
import os
import re
import sys


def first_line(message, width=150):
    return message.splitlines()[0][:width] if message else ""


def build_line(label, result):
    return f"{label} {result['verdict']} build {result.get('build')}"


def redteam_line(result):
    with open(result["candidate"]) as f:
        want = re.search(r"^# expect: *(.*)$", f.read(), re.M)
    name = os.path.basename(result["candidate"])[:-3]
    return f"{name:<22} want {want.group(1) if want else '?':<34} got {result['verdict']} | {first_line(result['message'])}"


def main(argv):
    if len(argv) == 4 and argv[1] == "build":
        with open(argv[3]) as f:
            print(build_line(argv[2], json.load(f)))
    elif len(argv) == 3 and argv[1] == "redteam":
        with open(argv[2]) as f:
            for r in json.load(f):
                print(redteam_line(r))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
