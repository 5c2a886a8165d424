#!/usr/bin/env bash
# Fault injection: kills writing subcommands at random points (SIGKILL, a fixed seed, a bounded
# count per subcommand) and checks that each output set is then the old set or the new one, never
# a mix, and that no stray file (a temporary, a journal) is left once the next run of the command
# has started (docs/outputs.md: a killed run's leftovers are finished or removed by the next run
# that writes the same outputs, before it does anything else).
#
# For every scenario: a run with inputs A gives the old outputs, a run with inputs B the new ones.
# Then, KILLS times: the old outputs are put back, the run with inputs B is started and killed after
# a random delay within its measured duration, a run whose input is missing (it fails with exit 3
# after its outputs' recovery, and writes nothing) is made, and the folder is compared with the old
# set and the new set.
#
# Usage: tests/fault/kill_writers.sh CLAIMRAG_BINARY [KILLS] [SEED]. Prints one line per scenario
# and "fault injection: N passed, M failed"; exits 1 when any check failed.
set -uo pipefail
binary=$(realpath "$1")
kills=${2:-6}
RANDOM=${3:-20261125}
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/claimrag_fault.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# The scenario's folder listing and the checksum of every file in it, one line per file.
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha1sum); }

# run_scenario NAME OUTPUT_FOLDER COMMAND_A COMMAND_B COMMAND_PROBE
run_scenario() {
  local name=$1 outputs=$2 command_a=$3 command_b=$4 probe=$5
  rm -rf "$outputs" && mkdir -p "$outputs"
  if ! (cd "$work" && eval "$command_b") > /dev/null 2>&1; then echo "$name: the run with inputs B failed"; ((failed++)); return; fi
  local new; new=$(snapshot "$outputs")
  rm -rf "$outputs" && mkdir -p "$outputs"
  local begin end
  begin=$(date +%s%N)
  if ! (cd "$work" && eval "$command_a") > /dev/null 2>&1; then echo "$name: the run with inputs A failed"; ((failed++)); return; fi
  end=$(date +%s%N)
  local old; old=$(snapshot "$outputs")
  cp -a "$outputs" "$work/old_outputs"
  if [[ "$old" == "$new" ]]; then echo "$name: inputs A and B give the same outputs"; ((failed++)); return; fi
  local span_us=$(( (end - begin) / 1000 + 1000 ))
  local bad=0 saw_old=0 saw_new=0
  for ((k = 0; k < kills; k++)); do
    rm -rf "$outputs" && cp -a "$work/old_outputs" "$outputs"
    local delay_us=$(( (RANDOM * 32768 + RANDOM) % span_us ))
    (cd "$work" && exec bash -c "$command_b") > /dev/null 2>&1 &
    local pid=$!
    sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
    kill -KILL "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    (cd "$work" && eval "$probe") > /dev/null 2>&1
    local now; now=$(snapshot "$outputs")
    if [[ "$now" == "$old" ]]; then
      ((saw_old++))
    elif [[ "$now" == "$new" ]]; then
      ((saw_new++))
    else
      ((bad++))
      echo "$name: kill $k after ${delay_us} us left neither the old nor the new outputs:"
      diff <(echo "$old") <(echo "$now") | sed 's/^/    /' | head -20
    fi
  done
  rm -rf "$work/old_outputs"
  if ((bad == 0)); then
    ((passed++))
    echo "$name: ok ($kills kills: $saw_old left the old outputs, $saw_new the new)"
  else
    ((failed++))
    echo "$name: FAILED ($bad of $kills kills left a mix or a stray file)"
  fi
}

# --- inputs -------------------------------------------------------------------------------------
cd "$work"
printf '%s\n' '{"id": "p1", "claim_id": "c1", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin raised bleeding risk."}' \
  '{"id": "p2", "claim_id": "c1", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin lowered bleeding risk."}' > pairs.jsonl
cat > probes.json << 'JSON'
{"probes": [{"id": "o", "original": true, "template": "{abstract} Is \"{claim}\" true?"},
            {"id": "f", "asks": "false", "template": "{abstract} Is \"{claim}\" false?"}]}
JSON
for answer in Yes No; do
  : > "rec_$answer.jsonl"
  for pair in p1 p2; do
    for probe in o f; do
      for sample in 0 1 2 3; do
        printf '{"pair_id": "%s", "probe_id": "%s", "sample": %d, "text": "%s"}\n' "$pair" "$probe" "$sample" "$answer" >> "rec_$answer.jsonl"
      done
    done
  done
done
printf 'q1 Q0 a 1 3 x\nq1 Q0 b 2 2 x\nq2 Q0 c 1 5 x\n' > run_a1.trec
printf 'q1 Q0 b 1 9 y\nq1 Q0 d 2 8 y\nq2 Q0 a 1 7 y\n' > run_a2.trec
printf 'q1 Q0 d 1 9 z\nq1 Q0 a 2 8 z\nq2 Q0 c 1 7 z\n' > run_b2.trec
printf 'claim_id\tanswered\tunsafe\tgate\tjudge\n1\t1\t0\t1\t0.9\n2\t1\t1\t5\t0.2\n3\t1\t0\t2\t0.8\n4\t1\t1\t4\t0.1\n5\t1\t1\t3\t0.3\n' > table_a.tsv
printf 'claim_id\tanswered\tunsafe\tgate\tjudge\n1\t1\t1\t1\t0.9\n2\t1\t0\t5\t0.2\n3\t1\t0\t2\t0.8\n4\t1\t1\t4\t0.1\n5\t1\t0\t3\t0.3\n' > table_b.tsv
mkdir -p beir/qrels
printf '%s\n' '{"_id": "a", "title": "A", "text": "aspirin bleeding risk"}' '{"_id": "b", "title": "B", "text": "statins lower cholesterol"}' \
  '{"_id": "c", "title": "C", "text": "vitamin d bone density"}' '{"_id": "d", "title": "D", "text": "aspirin heart attack"}' > beir/corpus.jsonl
printf '%s\n' '{"_id": "q1", "text": "aspirin"}' '{"_id": "q2", "text": "vitamin"}' > beir/queries.jsonl
printf 'query-id\tcorpus-id\tscore\nq1\ta\t1\nq2\tc\t1\n' > beir/qrels/test.tsv

interrogate="'$binary' --quiet interrogate --pairs pairs.jsonl --probes probes.json --samples 4 --out out/verdicts.jsonl --record out/record.jsonl --claims-out out/claims.jsonl"
run_scenario "interrogate (--out, --record, --claims-out)" "$work/out" \
  "$interrogate --responder recorded:rec_Yes.jsonl" "$interrogate --responder recorded:rec_No.jsonl" \
  "$interrogate --responder recorded:missing.jsonl"

fuse="'$binary' --quiet fuse --config '$source_dir/configs/scifact.json' --out out/fused.trec --runs run_a1.trec"
run_scenario "fuse (--out)" "$work/out" "$fuse run_a2.trec" "$fuse run_b2.trec" "$fuse missing.trec"

evaluate="'$binary' --quiet evaluate --data beir --split test --metrics ndcg@2,recall@2 --out out/ev"
run_scenario "evaluate (PREFIX.tsv, PREFIX.json)" "$work/out" "$evaluate --run run_a2.trec" "$evaluate --run run_b2.trec" \
  "$evaluate --run missing.trec"

compare="'$binary' --quiet compare-abstention --config '$source_dir/configs/scifact.json' --reference gate --resamples 200 --out out/cmp"
run_scenario "compare-abstention (four files in --out)" "$work/out" "$compare --test table_a.tsv" "$compare --test table_b.tsv" \
  "$compare --test missing.tsv"

echo "fault injection: $passed passed, $failed failed"
((failed == 0))
