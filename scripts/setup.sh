#!/usr/bin/env bash
# Installs the Debian packages claimrag needs to build, test and plot, when they are missing.
# clang-16 builds the fuzz targets (scripts/fuzz.sh): libFuzzer's runtime is in libclang-rt-16-dev,
# and clang's OpenMP in libomp-16-dev (clang-14 cannot compile libstdc++ 12's ranges).
# --bench adds what only the benchmarks use (Xapian, the BM25 scale benchmark's anchor; jq for its figure).
set -euo pipefail

packages=(
  build-essential cmake git curl unzip
  libeigen3-dev nlohmann-json3-dev libcli11-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsimdjson-dev libxxhash-dev libcurl4-openssl-dev libcpp-httplib-dev libsentencepiece-dev libicu-dev libopenblas-dev
  gnuplot-nox ccache
  slurm-wlm munge
  clang-16 libclang-rt-16-dev libomp-16-dev
)
if [ "${1:-}" = "--bench" ]; then packages+=(libxapian-dev pkg-config jq); fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
