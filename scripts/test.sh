#!/usr/bin/env bash
# The test command. Each test is built once and run once:
#   1. set-up and data;
#   2. a Release build of the binary, the command-line tests and the gradient checks, and every
#      public header compiled on its own (the builds compile each folder's sources together, which
#      would hide a header that does not include what it uses); the tests run with the SciFact
#      regression check (the whole reproduction twice, on every core with the CPU's fastest vector
#      unit, then on one thread with a slower one, every frozen metric, the two compared byte for byte);
#   3. fault injection on the Release binary: writing subcommands killed at random points, every
#      output set checked to be the old or the new one, with no stray file (tests/fault/); then the
#      cluster test: sharded runs on a one-node Slurm started for it (tests/cluster/), their merged
#      outputs compared byte for byte with single-process runs;
#   4. the unit tests, built and run under AddressSanitizer + UndefinedBehaviorSanitizer (at -O1),
#      those that depend on the vector unit once per unit this CPU runs;
#   5. coverage-guided fuzzing of every reader of outside bytes, 20 s per target (scripts/fuzz.sh,
#      clang's libFuzzer under the same sanitizers): a crash fails the stage.
# Benchmarks are not built here: scripts/bench.sh builds and runs them.
# Every stage prints its wall time, so a slow one shows in CI's log; past an hour in all, a warning
# says so (CI stops at 90 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
warn_after=${CLAIMRAG_TEST_WARN_SECONDS:-3600}
stage() {
  local name=$1 begin=$SECONDS
  shift
  echo "== $name"
  "$@"
  echo "== $name: $((SECONDS - begin)) s (total $((SECONDS - started)) s)"
}
finish() {
  local status=$? total=$((SECONDS - started))
  if [ "$total" -gt "$warn_after" ]; then
    echo "== warning: the test command took $total s, more than $warn_after s: CI stops at 5400 s (docs/building.md says where the time goes)"
  fi
  exit "$status"
}
trap finish EXIT
# ctest runs two tests at a time on two cores; OpenMP inside each would oversubscribe them. Tests
# of thread-count independence set their own thread counts.
parallel_tests() { OMP_NUM_THREADS=1 ctest --test-dir "$1" --output-on-failure -j "$(nproc)" "${@:2}"; }

stage "set-up" bash scripts/setup.sh
stage "data" bash scripts/get-data.sh
stage "release build" env CLAIMRAG_TARGETS="claimrag cli_tests gradcheck_tests claimrag_header_check" \
  bash scripts/build.sh build -DCLAIMRAG_BUILD_BENCHMARKS=OFF
stage "command-line tests and gradient checks" parallel_tests build -L 'cli|gradcheck'
stage "SciFact regression check" ctest --test-dir build --output-on-failure -L regression
stage "fault injection" ctest --test-dir build --output-on-failure -V -L fault
# Bounded as a whole too: every wait inside is, and a stuck daemon must not hold CI.
stage "Slurm cluster test" timeout 600 bash tests/cluster/slurm_test.sh build/claimrag
stage "sanitizer build" env CLAIMRAG_TARGETS="unit_tests" \
  bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" -DCLAIMRAG_SANITIZE=ON -DCLAIMRAG_BUILD_BENCHMARKS=OFF
stage "unit tests (sanitized)" parallel_tests build-asan -L unit
stage "fuzzing" bash scripts/fuzz.sh 20
