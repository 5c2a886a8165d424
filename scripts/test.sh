#!/usr/bin/env bash
# The test command. Each test is built once and run once:
#   1. set-up and data;
#   2. a Release build of the binary, the command-line tests and the gradient checks, run with the
#      SciFact regression check (the whole reproduction twice, on every core then on one thread, every
#      frozen metric, the two compared byte for byte);
#   3. fault injection on the Release binary: writing subcommands killed at random points, every
#      output set checked to be the old or the new one, with no stray file (tests/fault/);
#   4. the unit tests, built and run under AddressSanitizer + UndefinedBehaviorSanitizer (at -O1).
# Benchmarks are not built here: scripts/bench.sh builds and runs them.
# Every stage prints its wall time, so a slow one shows in CI's log.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
stage() {
  local name=$1 begin=$SECONDS
  shift
  echo "== $name"
  "$@"
  echo "== $name: $((SECONDS - begin)) s (total $((SECONDS - started)) s)"
}
# ctest runs two tests at a time on two cores; OpenMP inside each would oversubscribe them. Tests
# of thread-count independence set their own thread counts.
parallel_tests() { OMP_NUM_THREADS=1 ctest --test-dir "$1" --output-on-failure -j "$(nproc)" "${@:2}"; }

stage "set-up" bash scripts/setup.sh
stage "data" bash scripts/get-data.sh
stage "release build" env CLAIMRAG_TARGETS="claimrag cli_tests gradcheck_tests" \
  bash scripts/build.sh build -DCLAIMRAG_BUILD_BENCHMARKS=OFF
stage "command-line tests and gradient checks" parallel_tests build -L 'cli|gradcheck'
stage "SciFact regression check" ctest --test-dir build --output-on-failure -L regression
stage "fault injection" ctest --test-dir build --output-on-failure -V -L fault
stage "sanitizer build" env CLAIMRAG_TARGETS="unit_tests" \
  bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" -DCLAIMRAG_SANITIZE=ON -DCLAIMRAG_BUILD_BENCHMARKS=OFF
stage "unit tests (sanitized)" parallel_tests build-asan -L unit
