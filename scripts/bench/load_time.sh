#!/usr/bin/env bash
# Times loading a checkpoint: `claimrag --verbose predict` on one input of 128 tokens, whose last
# line splits the process into loading (reading, converting, checking and packing the weights,
# the tokenizer), tokenizing and running; a before build in the same rows, the two alternating.
# Random classifiers of real sizes, written by scripts/bench/encoder_reference.py (needs Debian's
# python3-torch): BERT-base, MiniLM-L6-H384, DeBERTa-v3-base, RoBERTa-large and DeBERTa-v3-large
# (its 128,100 × 1,024 embedding table is 524 MB). Prints a Markdown table: the median and the
# fastest loading of RUNS runs each, the whole process's median, claimrag's peak resident memory
# (GNU time) beside the F32 weights' size, and the load average when the row was done.
#
#   scripts/bench/load_time.sh [RUNS]   (default 5; about 4 minutes with a before build)
#
# CLAIMRAG_BIN names the binary (default build/claimrag); CLAIMRAG_BEFORE_BIN, when set, a second
# build timed in the same rows. LOAD_SHAPES overrides the shapes. One thread: loading runs on one.
# The weights go to a temporary folder, deleted afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x /usr/bin/time ] || { echo "load_time: needs GNU time (/usr/bin/time, Debian's time)" >&2; exit 2; }
claimrag=${CLAIMRAG_BIN:-build/claimrag}
[ -x "$claimrag" ] || { echo "load_time: no $claimrag; build it first (scripts/build.sh)" >&2; exit 2; }
before=${CLAIMRAG_BEFORE_BIN:-}
[ -z "$before" ] || [ -x "$before" ] || { echo "load_time: CLAIMRAG_BEFORE_BIN $before is not an executable" >&2; exit 2; }
runs=${1:-5}
shapes=${LOAD_SHAPES:-"bert-base minilm-l6 deberta-v3-base roberta-large deberta-v3-large"}
python=/usr/bin/python3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs binary $1 on folder $2; appends "LOADING WHOLE RSS_KB" to file $3.
time_load() {
  local binary=$1 folder=$2 out=$3 line
  if ! /usr/bin/time -f "%M" -o "$work/rss.txt" "$binary" --verbose predict --checkpoint "$folder/model" \
    --pairs "$folder/one.jsonl" --out "$work/out.jsonl" --threads 1 --max-length 128 2> "$work/stderr.txt"; then
    cat "$work/stderr.txt" >&2
    echo "load_time: $binary failed on $folder" >&2
    exit 1
  fi
  line=$(grep 'time with pretrained models' "$work/stderr.txt" | tail -n 1)
  echo "$(sed -n 's/.*loading \([0-9.]*\) s,.*/\1/p' <<< "$line") $(sed -n 's/.*of \([0-9.]*\) s in all.*/\1/p' <<< "$line") $(tail -n 1 "$work/rss.txt")" >> "$out"
}

# "MEDIAN FASTEST" of column $2 of file $1.
median_and_fastest() { sort -g -k"$2","$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {printf "%.2f %.2f", v[int((NR + 1) / 2)], v[1]}'; }

echo "CPU: $(lscpu 2> /dev/null | sed -n 's/^Model name: *//p') (family $(awk -F': ' '/^cpu family/ {print $2; exit}' /proc/cpuinfo)), one thread, $runs runs each"
echo
echo "| shape | F32 weights MB | loading s, median (fastest) | before, median (fastest) | whole process s, median | before | peak RSS MB | before | load average |"
echo "|---|---|---|---|---|---|---|---|---|"
for shape in $shapes; do
  folder="$work/$shape"
  "$python" scripts/bench/encoder_reference.py write "$folder" "$shape" 128 > /dev/null
  head -n 1 "$folder/pairs.jsonl" > "$folder/one.jsonl"
  weights=$(awk -v b="$(stat -c %s "$folder/model/model.safetensors")" 'BEGIN {printf "%.0f", b / 1e6}')
  : > "$work/after.txt"
  : > "$work/before.txt"
  for _ in $(seq "$runs"); do
    time_load "$claimrag" "$folder" "$work/after.txt"
    [ -z "$before" ] || time_load "$before" "$folder" "$work/before.txt"
  done
  read -r load_median load_fastest <<< "$(median_and_fastest "$work/after.txt" 1)"
  read -r whole_median _ <<< "$(median_and_fastest "$work/after.txt" 2)"
  rss=$(sort -g "$work/after.txt" -k3,3 | tail -n 1 | awk '{printf "%.0f", $3 / 1024}')
  before_load="—" before_whole="—" before_rss="—"
  if [ -n "$before" ]; then
    read -r median fastest <<< "$(median_and_fastest "$work/before.txt" 1)"
    before_load="$median ($fastest)"
    read -r before_whole _ <<< "$(median_and_fastest "$work/before.txt" 2)"
    before_rss=$(sort -g "$work/before.txt" -k3,3 | tail -n 1 | awk '{printf "%.0f", $3 / 1024}')
  fi
  echo "| $shape | $weights | $load_median ($load_fastest) | $before_load | $whole_median | $before_whole | $rss | $before_rss | $(cut -d' ' -f1 /proc/loadavg) |"
  rm -rf "$folder"
done
