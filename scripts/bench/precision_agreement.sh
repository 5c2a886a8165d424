#!/usr/bin/env bash
# Measures `--precision int8` against the float32 default: for each checkpoint, `claimrag predict`
# on the same claim–sentence pairs at both precisions (the whole process, best of REPEATS, at
# 2 threads), then the label agreement and the largest probability
# change. Checkpoints: the test fixtures that hold their tokenizer (tests/fixtures/pretrained/models:
# tiny, random weights) and a DeBERTa-v3-base-sized classifier with random weights and its real
# configuration and spm.model (written by scripts/bench/encoder_reference.py; needs Debian's
# python3-torch). Pairs: COUNT (default 1000) SciFact train claims against abstract sentences.
# Prints a Markdown table.
#
#   scripts/bench/precision_agreement.sh [COUNT] [REPEATS]
#
# CLAIMRAG_BIN names the binary (default build/claimrag). Needs data/scifact (scripts/get-data.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-1000}
repeats=${2:-1}
claimrag=${CLAIMRAG_BIN:-build/claimrag}
python=/usr/bin/python3
[ -x "$claimrag" ] || { echo "precision_agreement: no $claimrag; build it first (scripts/build.sh)" >&2; exit 2; }
[ -d data/scifact/original ] || { echo "precision_agreement: no data/scifact/original; run scripts/get-data.sh" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" scripts/bench/precision_agreement.py pairs data/scifact/original "$count" "$work/pairs.jsonl"
"$python" scripts/bench/encoder_reference.py write "$work/deberta-v3-base" deberta-v3-base 128 > /dev/null

# Runs $1 (a checkpoint folder) at precision $2 with the extra flags $3; prints the best wall
# seconds and writes $work/$2.jsonl. Its warnings (inputs cut to the length) show only on failure.
run() {
  local folder=$1 precision=$2 flags=$3 best="" start end seconds
  for _ in $(seq "$repeats"); do
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    "$claimrag" --quiet predict --checkpoint "$folder" --pairs "$work/pairs.jsonl" --out "$work/$precision.jsonl" \
      --threads 2 --precision "$precision" $flags 2> "$work/stderr.txt" || { cat "$work/stderr.txt" >&2; exit 1; }
    end=$(date +%s%N)
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", (b - a) / 1e9}')
    if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$seconds; fi
  done
  echo "$best"
}

echo "$count pairs of SciFact train claims and abstract sentences, 2 threads, best of $repeats; load average $(cut -d' ' -f1 /proc/loadavg) at the start"
echo
echo "| checkpoint | f32 s | int8 s | int8 speed-up | label agreement | largest change |"
echo "|---|---|---|---|---|---|"
for folder in tests/fixtures/pretrained/models/* "$work/deberta-v3-base/model"; do
  name=$(basename "$folder")
  # The real-configuration fixtures take their tokenizer from ../shared; only folders that hold one run here.
  if [ "$name" != model ] && ! ls "$folder" | grep -qE '^(vocab\.txt|vocab\.json|tokenizer\.json|spm\.model|sentencepiece\.bpe\.model)$'; then
    continue
  fi
  flags=""
  # The base-sized model at 128 tokens, as the encoder benchmark times it; the fixtures at their own length (64 to 512).
  if [ "$name" = model ]; then name="deberta-v3-base (random, real configuration), 128 tokens"; flags="--max-length 128"; fi
  f32=$(run "$folder" f32 "$flags")
  int8=$(run "$folder" int8 "$flags")
  result=$("$python" scripts/bench/precision_agreement.py compare "$work/f32.jsonl" "$work/int8.jsonl")
  "$python" - "$name" "$f32" "$int8" "$result" <<'PY'
import json, sys
name, f32, int8, result = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), json.loads(sys.argv[4])
agreement = "%.3f" % result["label agreement"] if "label agreement" in result else "—"
print("| %s | %.2f | %.2f | %.2f | %s | %.2g (%s) |" % (name, f32, int8, f32 / int8, agreement, result["largest change"], result["of"]))
PY
done
