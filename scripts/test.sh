#!/usr/bin/env bash
# The test command: set-up, data, a Release build with every test (unit, gradient checks,
# command line, the SciFact regression check) and the benchmarks compiled, then the unit tests and
# gradient checks again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/get-data.sh
bash scripts/build.sh build
ctest --test-dir build --output-on-failure -j "$(nproc)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DCLAIMRAG_SANITIZE=ON -DCLAIMRAG_BUILD_BENCHMARKS=OFF > /dev/null
cmake --build build-asan -j "$(nproc)" --target unit_tests gradcheck_tests
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L 'unit|gradcheck'
