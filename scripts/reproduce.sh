#!/usr/bin/env bash
# The main job: set-up, data, build, then the whole SciFact reproduction into runs/scifact/
# (claimrag reproduce). Extra arguments go to claimrag reproduce, e.g. --force to replace an
# earlier reproduction. Figures are drawn afterwards by scripts/plots.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/get-data.sh
CLAIMRAG_TARGETS=claimrag bash scripts/build.sh build
build/claimrag reproduce --config configs/scifact.json --out runs/scifact "$@"
bash scripts/plots.sh runs/scifact
