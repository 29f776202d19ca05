#!/usr/bin/env bash
# Builds the libFuzzer target with clang and fuzzes the task.toml loader for SECONDS (default 300),
# growing the kept corpus in fuzz/corpus (seeded from every task.toml in the repo).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-300}
cmake --preset fuzz >/dev/null && cmake --build --preset fuzz >/dev/null
mkdir -p fuzz/corpus fuzz/artifacts
while IFS= read -r f; do
  cp "$f" "fuzz/corpus/seed-$(echo "$f" | md5sum | cut -c1-12)"
done < <(find data/tasks tests/data -name task.toml)
printf '=n*(m+1)/2' > fuzz/corpus/seed-expr1; printf '=cdiv(n,32)*log2(m)' > fuzz/corpus/seed-expr2
build/fuzz/fuzz_task_toml -max_total_time="$secs" -max_len=4096 -artifact_prefix=fuzz/artifacts/ \
  fuzz/corpus 2>&1 | tail -5
# Keep the corpus small: merge into a minimal set.
mkdir -p fuzz/corpus.min && build/fuzz/fuzz_task_toml -merge=1 fuzz/corpus.min fuzz/corpus >/dev/null 2>&1
rm -rf fuzz/corpus && mv fuzz/corpus.min fuzz/corpus
echo "corpus: $(find fuzz/corpus -type f | wc -l) inputs"
