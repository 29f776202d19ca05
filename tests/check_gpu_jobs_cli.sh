#!/usr/bin/env bash
# The device jobs' command line, without a GPU: every tools/gpu/<job>.sh answers --help with its usage
# (exit 0) and refuses an unknown option (exit 2) before it touches anything; tools/gpu-check.sh
# --help lists every job and refuses an unknown one; the folder jobs refuse a missing folder.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
status=0 n=0
fail() { echo "FAIL: $*"; status=1; }
list=$(bash tools/gpu-check.sh --help 2>&1)
for f in tools/gpu/*.sh; do
  job=$(basename "$f" .sh)
  [ "$job" = common ] && continue
  n=$((n + 1))
  grep -q "^  $job " <<<"$list" || fail "gpu-check.sh --help does not list $job"
  out=$(timeout 30 bash tools/gpu-check.sh "$job" --help 2>&1); rc=$?
  { [ $rc -eq 0 ] && grep -q "^usage: tools/gpu-check.sh $job" <<<"$out"; } || fail "$job --help: exit $rc, '$(head -1 <<<"$out")'"
  out=$(OUT=$(mktemp -d) timeout 30 bash tools/gpu-check.sh "$job" --no-such-option 2>&1); rc=$?
  [ $rc -eq 2 ] || fail "$job --no-such-option: exit $rc (expected 2), '$(head -1 <<<"$out")'"
done
for job in dataset torch ptxas-compare; do
  out=$(timeout 30 bash tools/gpu-check.sh "$job" /no/such/folder 2>&1); rc=$?
  { [ $rc -eq 2 ] && grep -q "no such folder" <<<"$out"; } || fail "$job /no/such/folder: exit $rc, '$(head -1 <<<"$out")'"
done
out=$(bash tools/gpu-check.sh no-such-job 2>&1); rc=$?
[ $rc -eq 2 ] || fail "an unknown job: exit $rc (expected 2)"
[ $status -eq 0 ] && echo "ok   $n device jobs: --help, unknown options, unknown job, missing folders"
exit $status
