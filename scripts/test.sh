#!/usr/bin/env bash
# The test command: set-up, data, a Release build with every test (unit, gradient checks,
# command line, the SciFact regression check), then the unit tests again under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/get-data.sh
bash scripts/build.sh build
ctest --test-dir build --output-on-failure -j "$(nproc)"
bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLAIMRAG_SANITIZE=ON -DCLAIMRAG_BUILD_BENCHMARKS=OFF
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L 'unit|gradcheck|cli'
