#!/usr/bin/env bash
# The test command: set-up, data, a Release build with every test (unit, gradient checks,
# command line, the SciFact regression check) and the benchmarks compiled, then the unit tests
# again under AddressSanitizer + UndefinedBehaviorSanitizer (at -O1, to keep CI within 15 minutes
# on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/get-data.sh
bash scripts/build.sh build
ctest --test-dir build --output-on-failure -j "$(nproc)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" -DCLAIMRAG_SANITIZE=ON -DCLAIMRAG_BUILD_BENCHMARKS=OFF > /dev/null
cmake --build build-asan -j "$(nproc)" --target unit_tests
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L unit
