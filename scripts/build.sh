#!/usr/bin/env bash
# Configures and builds claimrag in build/ (Release), or in the folder given as $1 with extra
# CMake arguments after it.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=${1:-build}
shift || true
cmake -S . -B "$folder" -DCMAKE_BUILD_TYPE=Release "$@" > /dev/null
cmake --build "$folder" -j "$(nproc)"
