#!/usr/bin/env bash
# Coverage-guided fuzzing of the readers of outside bytes (tests/fuzz/README.md): builds the
# libFuzzer targets with clang-16 in build-fuzz/, makes each one's seed corpus from the test
# fixtures, and runs every target (or those named) for SECONDS each, as many at once as there are
# cores (CLAIMRAG_FUZZ_JOBS to run fewer). A crash, a sanitizer report, a leak, an input slower than CLAIMRAG_FUZZ_TIMEOUT seconds
# (25), memory past 2 GiB or an uncaught exception fails the run; the input is kept in
# runs/fuzz/findings/TARGET/ and the log in runs/fuzz/logs/TARGET.log. The corpus a run grows stays
# in runs/fuzz/corpus/TARGET/, so the next run goes on from it.
#   scripts/fuzz.sh 25                       # CI's short run (scripts/test.sh)
#   scripts/fuzz.sh 3600                     # an hour per target
#   scripts/fuzz.sh 600 tokenizer_json qrels # some targets
# CLAIMRAG_FUZZ_WHOLE_LIBRARY=1 builds the whole library instead, in build-fuzz-all/, and with it the
# targets that need more of it (experiment_config: claimrag's own --config).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
timeout=${CLAIMRAG_FUZZ_TIMEOUT:-25}
jobs=${CLAIMRAG_FUZZ_JOBS:-$(nproc)}
build=build-fuzz
whole=OFF
if [ -n "${CLAIMRAG_FUZZ_WHOLE_LIBRARY:-}" ]; then build=build-fuzz-all whole=ON; fi
bash scripts/build.sh "$build" -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DCLAIMRAG_FUZZ=ON -DCLAIMRAG_FUZZ_WHOLE_LIBRARY=$whole
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < "$build/fuzz_targets.txt"
bash scripts/fixtures/fuzz_seeds.sh runs/fuzz/seeds "${targets[@]}"

run_target() {
  local target=$1
  mkdir -p "runs/fuzz/corpus/$target" "runs/fuzz/findings/$target"
  local dictionary=()
  [ "$target" = sentencepiece_model ] || [ "$target" = torch_checkpoint ] || dictionary=(-dict=tests/fuzz/json.dict)
  if OMP_NUM_THREADS=1 "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout="$timeout" \
       -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="runs/fuzz/findings/$target/" "${dictionary[@]}" \
       "runs/fuzz/corpus/$target" "runs/fuzz/seeds/$target" > "runs/fuzz/logs/$target.log" 2>&1; then
    echo "fuzz $target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "runs/fuzz/logs/$target.log" | grep -o '[0-9]*$') inputs in $seconds s, $(grep -o 'cov: [0-9]*' "runs/fuzz/logs/$target.log" | tail -1), no finding"
  else
    echo "fuzz $target: FINDING (runs/fuzz/findings/$target/, log runs/fuzz/logs/$target.log):"
    grep -E -A12 '^==[0-9]+==ERROR|^SUMMARY|finding:|terminate called|uncaught|deadly signal|timeout after|out-of-memory' \
      "runs/fuzz/logs/$target.log" | head -40
    return 1
  fi
}

mkdir -p runs/fuzz/logs
# Sanitizer reports name functions and lines only through llvm-symbolizer, when one is installed.
symbolizer=$(command -v llvm-symbolizer-16 || command -v llvm-symbolizer || true)
[ -z "$symbolizer" ] || export ASAN_SYMBOLIZER_PATH="$symbolizer"
failed=0
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
