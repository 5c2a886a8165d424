#!/usr/bin/env bash
# Times claimrag's seed-000 stages (statistics, bm25, dense, fusion, rerank, training_runs,
# evidence, gate) against their Python peer (scripts/bench/seed000_peer.py), alternately, on the
# same machine in the same hour:
#   bash scripts/bench/seed000_side_by_side.sh [REPEATS]     (default 3)
# Builds nothing: it runs build/claimrag (or $CLAIMRAG_BINARY) as it is, on data/scifact; the
# peer runs with torch.set_num_threads($SEED000_PEER_THREADS, default 2: the machine's cores).
# For every repeat it prints both sides' per-stage seconds (claimrag's from its table9.tsv, the
# peer's from its own table of the same rows), both totals, the ratio claimrag/peer, both
# processes' wall times and the load average before each run; at the end, the medians.
set -euo pipefail
cd "$(dirname "$0")/../.."

repeats=${1:-3}
binary=${CLAIMRAG_BINARY:-build/claimrag}
python=/usr/bin/python3
peer_threads=${SEED000_PEER_THREADS:-2}
if ! [[ $repeats =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: seed000_side_by_side.sh [REPEATS]  (REPEATS a positive integer, default 3)" >&2
  exit 2
fi
if [ ! -x "$binary" ]; then
  echo "seed000_side_by_side: $binary does not exist: build it first (scripts/build.sh)" >&2
  exit 2
fi
if [ ! -f data/scifact/beir/corpus.jsonl ]; then
  echo "seed000_side_by_side: data/scifact is missing: run scripts/get-data.sh first" >&2
  exit 3
fi

# The configuration must sit in configs/, because its paths (data, expected) are relative to it.
config=configs/.seed000-side-by-side.$$.json
work=$(mktemp -d /tmp/seed000-side-by-side.XXXXXX)
trap 'rm -rf "$work" "$config"' EXIT
"$python" - "$config" <<'EOF'
import json, sys
config = json.load(open("configs/scifact.json"))
config["stages"] = ["statistics", "bm25", "dense", "fusion", "rerank", "training_runs", "evidence", "gate"]
json.dump(config, open(sys.argv[1], "w"), indent=2)
EOF

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "claimrag: $binary (worktree at $(git rev-parse --short HEAD 2>/dev/null || echo '?')); peer: torch $("$python" -c 'import torch; print(torch.__version__)') on $peer_threads thread(s), scikit-learn $("$python" -c 'import sklearn; print(sklearn.__version__)')"
for r in $(seq 1 "$repeats"); do
  cpp_load=$(load)
  start=$(now)
  # Stages not run leave their expected metrics unchecked: reproduce reports them as FAIL and
  # exits non-zero; the timings are what is read here, so only a missing table9 is an error.
  "$binary" reproduce --config "$config" --out "$work/cpp" --force --quiet >"$work/cpp.log" 2>&1 || true
  cpp_wall=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
  if [ ! -f "$work/cpp/tables/table9.tsv" ]; then
    echo "seed000_side_by_side: claimrag reproduce wrote no table9.tsv; its log:" >&2
    tail -20 "$work/cpp.log" >&2
    exit 4
  fi
  cp "$work/cpp/tables/table9.tsv" "$work/cpp.$r.tsv"

  peer_load=$(load)
  start=$(now)
  "$python" scripts/bench/seed000_peer.py --repeats 1 --threads "$peer_threads" >"$work/peer.$r.txt"
  peer_wall=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
  echo "$cpp_wall $peer_wall $cpp_load / $peer_load" >"$work/walls.$r"
done

"$python" - "$work" "$repeats" <<'EOF'
import statistics, sys
from pathlib import Path

work, repeats = Path(sys.argv[1]), int(sys.argv[2])

def table(lines):
    rows = {}
    for line in lines:
        if line.startswith("#"):
            if rows:
                break
            continue
        stage, _, seconds = line.rstrip("\n").rpartition("\t")
        if stage and stage != "stage":
            rows[stage] = float(seconds)
    return rows

per_repeat = []
for r in range(1, repeats + 1):
    cpp = table(open(work / f"cpp.{r}.tsv"))
    peer = table(open(work / f"peer.{r}.txt"))
    walls = open(work / f"walls.{r}").read().split()
    cpp_wall, peer_wall = float(walls[0]), float(walls[1])
    load = " ".join(walls[2:])
    per_repeat.append((cpp, peer, cpp_wall, peer_wall))
    print(f"\nrepeat {r}/{repeats}  (load average before claimrag / before the peer: {load})")
    print(f"{'stage':<22}{'claimrag s':>12}{'peer s':>12}{'claimrag/peer':>15}")
    for stage in cpp:
        c, p = cpp[stage], peer.get(stage, float("nan"))
        print(f"{stage:<22}{c:>12.3f}{p:>12.3f}{c / p if p else float('nan'):>15.4f}")
    print(f"{'process wall':<22}{cpp_wall:>12.3f}{peer_wall:>12.3f}{cpp_wall / peer_wall:>15.4f}")

print(f"\nmedian over {repeats} repeat(s)")
print(f"{'stage':<22}{'claimrag s':>12}{'peer s':>12}{'claimrag/peer':>15}")
for stage in per_repeat[0][0]:
    c = statistics.median(x[0][stage] for x in per_repeat)
    p = statistics.median(x[1].get(stage, float("nan")) for x in per_repeat)
    print(f"{stage:<22}{c:>12.3f}{p:>12.3f}{c / p if p else float('nan'):>15.4f}")
ratios = [x[0]["total"] / x[1]["total"] for x in per_repeat]
walls = [x[2] / x[3] for x in per_repeat]
print(f"ratio claimrag/peer of the totals, per repeat: {', '.join(f'{v:.4f}' for v in ratios)}; median {statistics.median(ratios):.4f}")
print(f"ratio claimrag/peer of the process wall times, per repeat: {', '.join(f'{v:.4f}' for v in walls)}; median {statistics.median(walls):.4f}")
EOF
echo "load average now: $(load)"
echo "peer's headline metrics (last repeat):"
sed -n '/^# headline/,$p' "$work/peer.$repeats.txt" | tail -n +2
