#!/usr/bin/env bash
# Times `claimrag predict --precision int8` against float32, the whole process (loading,
# tokenising, encoding, writing), on classifiers of real sizes with random weights at 128 tokens:
# BERT-base and DeBERTa-v3-base (scripts/bench/encoder_reference.py, the benchmark's own shapes
# and texts; needs Debian's python3-torch) and DeBERTa-v3-large (24 layers, hidden 1024;
# scripts/bench/random_deberta_v3.py, on the DeBERTa-v3-base texts). Each shape runs on each int8
# kernel this CPU has, with float32 on the same vector unit:
#   avx2         CLAIMRAG_VECTOR_UNIT=avx2 CLAIMRAG_INT8_VNNI=off (16-bit pairs, as AVX2 CPUs
#                without VNNI run it)
#   avx-vnni     CLAIMRAG_VECTOR_UNIT=avx2 (where the CPU has AVX-VNNI)
#   avx512-vnni  CLAIMRAG_VECTOR_UNIT=avx512 (where the CPU has AVX-512 VNNI)
# at 1 and 2 threads (taskset to the first cores). The programs alternate and each keeps its best
# of REPEATS, so a row's ratio comes from one stretch of time; each row gives the load average
# when it was done. Label agreement: the share of the benchmark's sequences whose most probable
# label int8 keeps (random weights: the labels' margins are narrow, see docs/checkpoints.md).
# Prints a Markdown table.
#
#   scripts/bench/int8_speed.sh [REPEATS]      (default 3; every kernel, shape and thread count
#                                               took 29 minutes at 2 repeats, with a before build,
#                                               on a busy 2-core Zen 5: about 45 at 3)
#
# CLAIMRAG_BIN names the binary (default build/claimrag); CLAIMRAG_BEFORE_BIN, when set, names a
# second build whose int8 is timed in the same rows (the "int8 before" column). INT8_SHAPES
# overrides the shapes (bert-base deberta-v3-base deberta-v3-large), INT8_KERNELS the kernels,
# INT8_THREADS the thread counts (1 2). The weights go to a temporary folder, deleted afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."
repeats=${1:-3}
claimrag=${CLAIMRAG_BIN:-build/claimrag}
before=${CLAIMRAG_BEFORE_BIN:-}
python=/usr/bin/python3
shapes=${INT8_SHAPES:-"bert-base deberta-v3-base deberta-v3-large"}
thread_counts=${INT8_THREADS:-"1 2"}
tokens=128
[ -x "$claimrag" ] || { echo "int8_speed: no $claimrag; build it first (scripts/build.sh)" >&2; exit 2; }
[ -z "$before" ] || [ -x "$before" ] || { echo "int8_speed: CLAIMRAG_BEFORE_BIN $before is not an executable" >&2; exit 2; }
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
default_kernels="avx2"
[[ $flags == *" avx_vnni "* ]] && default_kernels="$default_kernels avx-vnni"
[[ $flags == *" avx512_vnni "* ]] && default_kernels="$default_kernels avx512-vnni"
kernels=${INT8_KERNELS:-$default_kernels}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Writes $work/$1/model and $work/$1/pairs.jsonl for shape $1.
write_shape() {
  local shape=$1
  case $shape in
    bert-base | deberta-v3-base) "$python" scripts/bench/encoder_reference.py write "$work/$shape" "$shape" "$tokens" ;;
    deberta-v3-large)
      [ -f "$work/deberta-v3-base/pairs.jsonl" ] || "$python" scripts/bench/encoder_reference.py write "$work/deberta-v3-base" deberta-v3-base "$tokens"
      mkdir -p "$work/$shape"
      "$python" scripts/bench/random_deberta_v3.py large "$work/$shape/model" > /dev/null
      cp "$work/deberta-v3-base/pairs.jsonl" "$work/$shape/pairs.jsonl" ;;
    *) echo "int8_speed: unknown shape $shape" >&2; exit 2 ;;
  esac
}

# The environment that holds the products to kernel $1.
kernel_environment() {
  case $1 in
    avx2) echo "CLAIMRAG_VECTOR_UNIT=avx2 CLAIMRAG_INT8_VNNI=off" ;;
    avx-vnni) echo "CLAIMRAG_VECTOR_UNIT=avx2" ;;
    avx512-vnni) echo "CLAIMRAG_VECTOR_UNIT=avx512" ;;
    *) echo "int8_speed: unknown kernel $1" >&2; exit 2 ;;
  esac
}

# Runs binary $1 on shape $2 at precision $3 with kernel $4 and $5 threads; prints the wall seconds
# and leaves the predictions in $work/$3.jsonl.
time_run() {
  local binary=$1 shape=$2 precision=$3 kernel=$4 threads=$5 start end cores
  cores=$(seq -s, 0 $((threads - 1)))
  start=$(date +%s%N)
  # shellcheck disable=SC2046
  if ! env $(kernel_environment "$kernel") taskset -c "$cores" "$binary" --quiet predict --checkpoint "$work/$shape/model" \
    --pairs "$work/$shape/pairs.jsonl" --out "$work/$precision.jsonl" --batch-size 32 --threads "$threads" \
    --max-length "$tokens" --precision "$precision" 2> "$work/stderr.txt"; then
    cat "$work/stderr.txt" >&2
    echo "int8_speed: $binary failed on $shape ($precision, $kernel)" >&2
    exit 1
  fi
  end=$(date +%s%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", (b - a) / 1e9}'
}

smaller() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(b == "" || a < b)}'; }
rate() { [ -z "$2" ] && echo "—" || awk -v n="$1" -v s="$2" 'BEGIN {printf "%.2f", n / s}'; }

echo "CPU: $(lscpu 2> /dev/null | sed -n 's/^Model name: *//p'), family $(awk -F': ' '/^cpu family/ {print $2; exit}' /proc/cpuinfo)," \
  "model $(awk -F': ' '/^model\t/ {print $2; exit}' /proc/cpuinfo); $tokens tokens, best of $repeats, whole process"
echo
echo "| shape | int8 kernel | threads | f32 seq/s | int8 before seq/s | int8 seq/s | int8 / f32 | label agreement | load average |"
echo "|---|---|---|---|---|---|---|---|---|"
for shape in $shapes; do
  write_shape "$shape" > /dev/null
  sequences=$(grep -c . "$work/$shape/pairs.jsonl")
  for kernel in $kernels; do
    for threads in $thread_counts; do
      best_f32="" best_int8="" best_before=""
      for _ in $(seq "$repeats"); do
        seconds=$(time_run "$claimrag" "$shape" f32 "$kernel" "$threads")
        smaller "$seconds" "$best_f32" && best_f32=$seconds
        if [ -n "$before" ]; then
          seconds=$(time_run "$before" "$shape" int8 "$kernel" "$threads")
          smaller "$seconds" "$best_before" && best_before=$seconds
        fi
        seconds=$(time_run "$claimrag" "$shape" int8 "$kernel" "$threads")
        smaller "$seconds" "$best_int8" && best_int8=$seconds
      done
      agreement=$("$python" scripts/bench/precision_agreement.py compare "$work/f32.jsonl" "$work/int8.jsonl" |
        "$python" -c 'import json, sys; print("%.3f" % json.load(sys.stdin)["label agreement"])')
      ratio=$(awk -v f="$best_f32" -v i="$best_int8" 'BEGIN {printf "%.2f", f / i}')
      echo "| $shape | $kernel | $threads | $(rate "$sequences" "$best_f32") | $(rate "$sequences" "$best_before") |" \
        "$(rate "$sequences" "$best_int8") | $ratio | $agreement | $(cut -d' ' -f1-3 /proc/loadavg) |"
    done
  done
  rm -rf "${work:?}/$shape/model"
done
