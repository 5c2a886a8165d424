#!/usr/bin/env bash
# Times `claimrag predict` (the whole process: loading, tokenising, encoding, writing) against a
# Hugging Face-style PyTorch BERT classifier (Debian's python3-torch, /usr/bin/python3) on the same
# random weights and the same 32 inputs of 128 tokens, for the BERT-base and MiniLM-L6-H384 shapes
# at 1 and 2 threads. Each is run REPEATS times (default 3) and its best time kept; claimrag's and
# PyTorch's runs alternate (one PyTorch process per repeat, one timed forward after a warm-up), so the ratio in a row comes from one stretch of time on the machine.
# Weights are written to a temporary folder and deleted afterwards. Prints a Markdown table:
# sequences/s, the ratio, GFLOP/s beside the machine's peak, and claimrag's peak resident memory
# beside the size of the F32 weights.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
claimrag=${CLAIMRAG_BIN:-build/claimrag}
python=/usr/bin/python3
reference=scripts/bench/encoder_reference.py
[ -x "$claimrag" ] || { echo "bench_encoder: no $claimrag; build it first (scripts/build.sh)" >&2; exit 2; }
"$python" -c "import torch" 2> /dev/null || { echo "bench_encoder: $python has no torch (Debian's python3-torch)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_encoder: GNU time (/usr/bin/time) is needed for peak memory" >&2; exit 2; }

# Peak single-precision FLOP/s: cores x clock x FLOPs per cycle. With AVX2 and FMA the cores this
# was written for (Zen 2/3/4, Haswell and later) retire two 8-wide fused multiply-adds a cycle (32);
# AVX-512 cores, 64; SSE2 only, two 4-wide operations (8).
cores=$(nproc)
mhz=$(awk -F: '/^cpu MHz/ {print $2; exit}' /proc/cpuinfo)
flags=$(grep -m1 '^flags' /proc/cpuinfo)
per_cycle=8
if [[ $flags == *" avx512f "* ]]; then per_cycle=64; elif [[ $flags == *" fma "* && $flags == *" avx2 "* ]]; then per_cycle=32; fi
peak=$(awk -v c="$cores" -v m="$mhz" -v f="$per_cycle" 'BEGIN {printf "%.0f", c * m / 1000 * f}')
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), $cores cores at ${mhz} MHz, $per_cycle FLOPs/cycle: peak $peak GFLOP/s"
echo "claimrag: whole process, best of $repeats; PyTorch $("$python" -c 'import torch; print(torch.__version__)'): one batch forward after a warm-up (loading excluded), best of $repeats"
echo
echo "| shape | threads | claimrag seq/s | PyTorch seq/s | ratio | claimrag GFLOP/s | PyTorch GFLOP/s | peak GFLOP/s | claimrag peak RSS MB | F32 weights MB | max logit diff |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for shape in bert-base minilm-l6; do
  folder="$work/$shape"
  "$python" "$reference" write "$folder" "$shape"
  for threads in 1 2; do
    best=""
    best_rss=0
    best_reference=""
    for _ in $(seq "$repeats"); do
      /usr/bin/time -v -o "$work/time.txt" "$claimrag" --quiet predict --checkpoint "$folder/model" \
        --pairs "$folder/pairs.jsonl" --out "$folder/predictions.jsonl" --batch-size 32 --threads "$threads"
      seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$work/time.txt")
      rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
      if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$seconds; fi
      [ "$rss" -gt "$best_rss" ] && best_rss=$rss
      "$python" "$reference" run "$folder" "$threads" 1 > "$work/run.json"
      theirs=$(sed -n 's/^{"seconds": \([^,]*\),.*/\1/p' "$work/run.json")
      if [ -z "$best_reference" ] || awk -v a="$theirs" -v b="$best_reference" 'BEGIN {exit !(a < b)}'; then
        best_reference=$theirs
        mv "$work/run.json" "$work/reference.json"
      fi
    done
    "$python" "$reference" report "$folder" "$shape" "$threads" "$best" "$best_rss" "$work/reference.json" \
      "$folder/predictions.jsonl" "$peak"
  done
  rm -rf "$folder"
done
