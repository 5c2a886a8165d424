#!/usr/bin/env bash
# Times `claimrag predict` (the whole process: loading, tokenising, encoding, writing) against the
# reference library's sequence classifiers written in PyTorch (Debian's python3-torch,
# /usr/bin/python3) on the same random weights and the same token ids: BERT-base and
# MiniLM-L6-H384 at 128 tokens and a DeBERTa-v3-base-shaped classifier (its real configuration)
# at 32, 128 and 512 tokens, each at 1 and 2 threads, 4,096 tokens a run (128 inputs of 32
# tokens, 32 of 128, 8 of 512). Each is run REPEATS times (default 3) and its best time kept;
# the programs alternate (one PyTorch process per repeat, one timed forward after a warm-up), so
# the ratio in a row comes from one stretch of time on the machine. Prints a Markdown table:
# sequences/s, the ratio, GFLOP/s beside the machine's peak, claimrag's peak resident memory
# (GNU time) beside the size of the F32 weights, the largest logit difference and the load
# average when the row was done.
#
#   scripts/bench_encoder.sh [REPEATS]   the full benchmark (needs torch)
#   scripts/bench_encoder.sh --smoke     one tiny shape of 16 tokens, one repeat, written without
#                                        torch; the PyTorch columns read "not run (no torch)"
#                                        where torch is missing (CI runs this)
#
# CLAIMRAG_BIN names the binary (default build/claimrag); CLAIMRAG_BEFORE_BIN, when set, names a
# second build timed in the same rows (the "before" column); BENCH_SHAPES overrides the rows
# (SHAPE:TOKENS ..., shapes as scripts/bench/encoder_reference.py names them: also roberta-large,
# deberta-v3-large, e.g. "roberta-large:512 deberta-v3-large:512 deberta-v3-large:2048"). BENCH_UNIT=avx2|avx512
# holds both sides to one vector unit: claimrag by CLAIMRAG_VECTOR_UNIT, PyTorch by
# ATEN_CPU_CAPABILITY and its OpenBLAS by OPENBLAS_CORETYPE (Haswell for AVX2, SkylakeX for AVX-512);
# without it each runs the best unit the CPU has. Weights are written to a temporary folder and
# deleted afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=false
if [ "${1:-}" = "--smoke" ]; then smoke=true; shift; fi
repeats=${1:-3}
shapes=${BENCH_SHAPES:-"bert-base:128 minilm-l6:128 deberta-v3-base:32 deberta-v3-base:128 deberta-v3-base:512"}
if $smoke; then repeats=1; shapes="tiny:16"; fi
claimrag=${CLAIMRAG_BIN:-build/claimrag}
before=${CLAIMRAG_BEFORE_BIN:-}
python=/usr/bin/python3
reference=scripts/bench/encoder_reference.py
[ -x "$claimrag" ] || { echo "bench_encoder: no $claimrag; build it first (scripts/build.sh)" >&2; exit 2; }
[ -z "$before" ] || [ -x "$before" ] || { echo "bench_encoder: CLAIMRAG_BEFORE_BIN $before is not an executable" >&2; exit 2; }
[ -x "$python" ] || { echo "bench_encoder: no $python" >&2; exit 2; }
torch=true
if ! "$python" -c "import torch" 2> /dev/null; then
  $smoke || { echo "bench_encoder: $python has no torch (Debian's python3-torch); --smoke runs without it" >&2; exit 2; }
  torch=false
fi

# The vector unit both sides run: the best the CPU has, or BENCH_UNIT's.
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
unit=${BENCH_UNIT:-}
if [ -z "$unit" ]; then
  if [[ $flags == *" avx512f "* ]]; then unit=avx512; elif [[ $flags == *" fma "* && $flags == *" avx2 "* ]]; then unit=avx2; else unit=scalar; fi
fi
case "$unit" in
  avx512) export CLAIMRAG_VECTOR_UNIT=avx512 ATEN_CPU_CAPABILITY=avx512 OPENBLAS_CORETYPE=SkylakeX ;;
  avx2) export CLAIMRAG_VECTOR_UNIT=avx2 ATEN_CPU_CAPABILITY=avx2 OPENBLAS_CORETYPE=Haswell ;;
  scalar) export CLAIMRAG_VECTOR_UNIT=scalar ATEN_CPU_CAPABILITY=default ;;
  *) echo "bench_encoder: BENCH_UNIT is avx2, avx512 or scalar, not $unit" >&2; exit 2 ;;
esac
# Peak single-precision FLOP/s: cores x clock x FLOPs per cycle. AVX2 with FMA: two 8-wide fused
# multiply-adds a cycle (32) on the cores this was written for (Zen 2-5, Haswell and later);
# AVX-512: 64 on Intel's cores and on Zen 5 (CPU family 26), but 32 on Zen 4 (family 25), which runs
# each 16-wide operation as two 8-wide halves; SSE2 only (the scalar unit), two 4-wide operations (8).
cores=$(nproc)
mhz=$(awk -F: '/^cpu MHz/ {print $2; exit}' /proc/cpuinfo)
mhz=${mhz:-1000}
vendor=$(awk -F': ' '/^vendor_id/ {print $2; exit}' /proc/cpuinfo)
family=$(awk -F': ' '/^cpu family/ {print $2; exit}' /proc/cpuinfo)
per_cycle=8
if [ "$unit" = avx512 ] && { [ "$vendor" != AuthenticAMD ] || [ "${family:-0}" -ge 26 ]; }; then
  per_cycle=64
elif [ "$unit" != scalar ]; then
  per_cycle=32
fi
peak=$(awk -v c="$cores" -v m="$mhz" -v f="$per_cycle" 'BEGIN {printf "%.0f", c * m / 1000 * f}')
echo "CPU: $(lscpu 2> /dev/null | sed -n 's/^Model name: *//p') (family ${family:-?}), $cores cores at ${mhz} MHz; unit $unit, $per_cycle FLOPs/cycle: peak $peak GFLOP/s"
if $torch; then
  echo "claimrag: whole process, best of $repeats; PyTorch $("$python" -c 'import torch; print(torch.__version__)'): one batch forward after a warm-up (loading excluded), best of $repeats"
else
  echo "claimrag: whole process, best of $repeats; PyTorch: not run (no torch)"
fi
echo
echo "| shape | tokens | threads | claimrag seq/s | before seq/s | PyTorch seq/s | ratio | claimrag GFLOP/s | PyTorch GFLOP/s | peak GFLOP/s | claimrag peak RSS MB | F32 weights MB | max logit diff | load average |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Peak memory comes from GNU time where it is installed.
gnu_time=()
[ -x /usr/bin/time ] && gnu_time=(/usr/bin/time -f "%M" -o "$work/rss.txt")

# Runs claimrag binary $1 on folder $2 at $4 tokens and $3 threads; writes "SECONDS RSS_KB" (RSS "-"
# without GNU time) to $work/timing.txt. Exits the script (set -e) when the run fails.
time_claimrag() {
  local binary=$1 folder=$2 threads=$3 tokens=$4 start end rss="-"
  start=$(date +%s%N)
  # Its warnings (every input is cut to TOKENS) are shown only when the run fails.
  if ! "${gnu_time[@]}" "$binary" --quiet predict --checkpoint "$folder/model" --pairs "$folder/pairs.jsonl" \
    --out "$folder/predictions.jsonl" --batch-size 32 --threads "$threads" --max-length "$tokens" 2> "$work/stderr.txt"; then
    cat "$work/stderr.txt" >&2
    echo "bench_encoder: $binary failed on $folder" >&2
    exit 1
  fi
  end=$(date +%s%N)
  [ ${#gnu_time[@]} -gt 0 ] && rss=$(tail -n 1 "$work/rss.txt")
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f", (b - a) / 1e9}') $rss" > "$work/timing.txt"
}

smaller() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(b == "" || a < b)}'; }

for entry in $shapes; do
  shape=${entry%%:*}
  tokens=${entry##*:}
  folder="$work/$shape-$tokens"
  "$python" "$reference" write "$folder" "$shape" "$tokens"
  for threads in 1 2; do
    best="" best_rss=0 best_before="" best_reference=""
    for _ in $(seq "$repeats"); do
      time_claimrag "$claimrag" "$folder" "$threads" "$tokens"
      read -r seconds rss < "$work/timing.txt"
      if smaller "$seconds" "$best"; then best=$seconds; fi
      if [ "$rss" = "-" ]; then best_rss="-"; elif [ "$rss" -gt "$best_rss" ]; then best_rss=$rss; fi
      "$python" "$reference" take-ids "$folder" "$folder/predictions.jsonl"
      cp "$folder/predictions.jsonl" "$work/ours.jsonl"
      if [ -n "$before" ]; then
        time_claimrag "$before" "$folder" "$threads" "$tokens"
        read -r seconds _ < "$work/timing.txt"
        if smaller "$seconds" "$best_before"; then best_before=$seconds; fi
      fi
      if $torch; then
        "$python" "$reference" run "$folder" "$threads" 1 > "$work/run.json"
        theirs=$(sed -n 's/^{"seconds": \([^,]*\),.*/\1/p' "$work/run.json")
        if smaller "$theirs" "$best_reference"; then
          best_reference=$theirs
          mv "$work/run.json" "$work/reference.json"
        fi
      fi
    done
    load=$(cut -d' ' -f1 /proc/loadavg)
    "$python" "$reference" report "$folder" "$threads" "$best" "$best_rss" "${best_before:--}" \
      "$($torch && echo "$work/reference.json" || echo -)" "$work/ours.jsonl" "$peak" "$load"
  done
  rm -rf "$folder"
done
