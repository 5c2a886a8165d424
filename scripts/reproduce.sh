#!/usr/bin/env bash
# The main job: set-up, data, build, then the SciFact reproduction into runs/scifact/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/get-data.sh
bash scripts/build.sh build
out=runs/scifact
data=data/scifact/beir
build/claimrag stats --data "$data" --out "$out/tables"
build/claimrag index --data "$data" --method bm25 --out "$out/index"
build/claimrag retrieve --data "$data" --index "$out/index" --method bm25 --split test --out "$out/runs/bm25.trec"
build/claimrag evaluate --data "$data" --split test --run "$out/runs/bm25.trec" --out "$out/metrics/bm25" \
  --check tests/regression/scifact.expected.json
