#!/usr/bin/env bash
# Configures and builds claimrag in build/ (Release), or in the folder given as $1 with extra
# CMake arguments after it. Set CLAIMRAG_TARGETS to build only some targets (space-separated).
# ccache is used when installed: it keys on paths relative to the repository, so a second clone
# (CI's) reuses what the first compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=${1:-build}
shift || true
launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$folder" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" > /dev/null
targets=()
for target in ${CLAIMRAG_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$folder" -j "$(nproc)" "${targets[@]}"
