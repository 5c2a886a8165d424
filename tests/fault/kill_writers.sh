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
# Every subcommand that writes is covered, on inputs small enough that the whole script runs in
# about a minute: verify (--out and --save-model), predict (whole and as a shard), merge, ground,
# sufficiency, interrogate, stats, index, retrieve, fuse, rerank (--train: model and run),
# extract-evidence, gate, evaluate, compare-abstention and sufficiency-bench. reproduce is left out: its folder records wall times
# (results.json, REPORT.md, the timing table), so two runs on the same inputs differ and "old or
# new" cannot be told by content; its stages write through the same file sets as the subcommands
# above, and a reproduction is committed stage by stage, not as one set.
#
# Last, two runs of evaluate, interrogate and compare-abstention writing the same outputs are
# started at once, ten times each: the outputs must be one run's whole set.
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

# verdict NAME BAD WHAT_IF_OK WHAT_IF_NOT: one line for the scenario, counted as passed when BAD is 0.
verdict() {
  if (($2 == 0)); then
    ((passed++))
    echo "$1: ok ($3)"
  else
    ((failed++))
    echo "$1: FAILED ($4)"
  fi
}

# run_scenario NAME OUTPUT_FOLDER COMMAND_A COMMAND_B COMMAND_PROBE
run_scenario() {
  local name=$1 outputs=$2 command_a=$3 command_b=$4 probe=$5
  rm -rf "$outputs" "$work/old_outputs" && mkdir -p "$outputs"
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
  verdict "$name" "$bad" "$kills kills: $saw_old left the old outputs, $saw_new the new" "$bad of $kills kills left a mix or a stray file"
}

# run_concurrently NAME OUTPUT_FOLDER COMMAND_A COMMAND_B: ROUNDS times, starts the runs with inputs
# A and B at once, into an empty folder, and checks that the outputs are then all A's or all B's
# (their commits are serialised by the set's lock), never a mix.
run_concurrently() {
  local name=$1 outputs=$2 command_a=$3 command_b=$4 rounds=10
  local -A expected=()
  for command in "$command_a" "$command_b"; do
    rm -rf "$outputs" && mkdir -p "$outputs"
    if ! (cd "$work" && eval "$command") > /dev/null 2>&1; then echo "$name: a run failed"; ((failed++)); return; fi
    expected[$command]=$(snapshot "$outputs")
  done
  local bad=0 a b
  for ((r = 0; r < rounds; r++)); do
    rm -rf "$outputs" && mkdir -p "$outputs"
    (cd "$work" && exec bash -c "$command_a") > /dev/null 2>&1 &
    a=$!
    (cd "$work" && exec bash -c "$command_b") > /dev/null 2>&1 &
    b=$!
    wait "$a" "$b"
    local now; now=$(snapshot "$outputs")
    if [[ "$now" != "${expected[$command_a]}" && "$now" != "${expected[$command_b]}" ]]; then
      ((bad++))
      echo "$name: concurrent round $r left a mix of both runs' outputs:"
      echo "$now" | sed 's/^/    /' | head -20
    fi
  done
  verdict "$name" "$bad" "$rounds concurrent rounds, each left one run's outputs" "$bad of $rounds concurrent rounds left a mix"
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

# A SciFact release layout small enough to train the claim verifier in a fraction of a second:
# six cited abstracts (a claim supported, one contradicted and one without evidence per abstract,
# in train and in dev) and six uncited reviews, the foreign abstracts of sufficiency-bench.
# scifact_layout FOLDER TOPICS...: one cited abstract per "subject:outcome" topic.
scifact_layout() {
  local folder=$1 d=0 split base doc subject outcome
  shift
  mkdir -p "$folder"
  : > "$folder/corpus.jsonl"
  for topic in "$@"; do
    subject=${topic%%:*} outcome=${topic#*:} doc=$((d + 10))
    printf '{"doc_id": %d, "title": "%s and %s", "abstract": ["We studied %s in %d adults.", "%s increased %s in the treated group.", "Follow-up lasted %d years.", "Dropout was low.", "Adverse events were rare."], "structured": false}\n' \
      "$doc" "$subject" "$outcome" "$subject" $((100 + d)) "$subject" "$outcome" $((d + 2)) >> "$folder/corpus.jsonl"
    printf '{"doc_id": %d, "title": "Review %d", "abstract": ["Aspirin, statins, vitamin d, coffee, exercise and smoking were reviewed in cohort %d.", "Sleep improved with light therapy.", "Mood was unchanged.", "The sample was small."], "structured": false}\n' \
      $((d + 20)) "$d" "$d" >> "$folder/corpus.jsonl"
    ((d++))
  done
  for split in train dev; do
    d=0
    for topic in "$@"; do
      subject=${topic%%:*} outcome=${topic#*:} doc=$((d + 10)) base=$((3 * d))
      [[ $split == dev ]] && base=$((100 + 3 * d))
      printf '{"id": %d, "claim": "%s increases %s.", "evidence": {"%d": [{"sentences": [1], "label": "SUPPORT"}]}, "cited_doc_ids": [%d]}\n' $((base + 1)) "$subject" "$outcome" "$doc" "$doc"
      printf '{"id": %d, "claim": "%s does not increase %s.", "evidence": {"%d": [{"sentences": [1], "label": "CONTRADICT"}]}, "cited_doc_ids": [%d]}\n' $((base + 2)) "$subject" "$outcome" "$doc" "$doc"
      printf '{"id": %d, "claim": "%s changes hair colour.", "evidence": {}, "cited_doc_ids": [%d]}\n' $((base + 3)) "$subject" "$doc"
      ((d++))
    done > "$folder/claims_$split.jsonl"
  done
}
scifact_layout original_a "aspirin:bleeding" "statins:cholesterol" "vitamin d:fractures" "coffee:diabetes" "exercise:blood pressure" "smoking:lung function"
scifact_layout original_b "aspirin:bleeding" "statins:cholesterol" "vitamin d:fractures" "coffee:diabetes" "salt:stroke"

examples=$source_dir/examples
head -n 2 "$examples/pairs.jsonl" > pairs_b.jsonl
head -n 2 "$examples/passages.jsonl" > passages_b.jsonl
head -n 2 "$examples/answers.jsonl" > answers_b.jsonl
config="--config '$source_dir/configs/scifact.json'"
"$binary" --quiet verify --pairs "$examples/pairs.jsonl" --original original_a --out verdicts.jsonl --save-model verifier.safetensors \
  --config "$source_dir/configs/scifact.json" > /dev/null 2>&1 || { echo "setup: training the verifier failed"; ((failed++)); }
printf '%s\n' '{"id": "a", "text": "Aspirin lowers risk.", "text_pair": "Aspirin raised risk."}' '{"id": "b", "text": "Coffee."}' > texts_a.jsonl
printf '%s\n' '{"id": "a", "text": "Statins lower cholesterol.", "text_pair": "Statins raised it."}' > texts_b.jsonl
tiny=$source_dir/data/fixtures/tiny-beir
cp -r "$tiny" tiny && "$binary" --quiet index --data tiny --method bm25 --out tiny_index --config "$source_dir/configs/scifact.json" > /dev/null 2>&1 \
  || { echo "setup: indexing the tiny corpus failed"; ((failed++)); }
printf 'q1 Q0 d1 1 3 x\nq1 Q0 d2 2 2 x\nq2 Q0 d3 1 5 x\nq2 Q0 d1 2 4 x\nq3 Q0 d5 1 2 x\nq6 Q0 d2 1 3 x\nq6 Q0 d4 2 1 x\n' > tiny_a.trec
printf 'q1 Q0 d2 1 3 y\nq1 Q0 d1 2 2 y\nq2 Q0 d1 1 5 y\nq2 Q0 d3 2 4 y\nq3 Q0 d4 1 2 y\nq6 Q0 d4 1 3 y\nq6 Q0 d2 2 1 y\n' > tiny_b.trec
printf 'claim_id\tvalue\nq1\t0.5\nq2\t0.9\nq3\t0.1\nq4\t0.3\nq5\t0.7\n' > signal_a.tsv
printf 'claim_id\tvalue\nq1\t0.9\nq2\t0.1\nq3\t0.5\nq4\t0.7\nq5\t0.3\n' > signal_b.tsv

# --- scenarios: one per writing subcommand ----------------------------------------------------

verify="'$binary' --quiet verify $config --out out/verdicts.jsonl --save-model out/verifier.safetensors"
run_scenario "verify (--out, --save-model)" "$work/out" "$verify --pairs '$examples/pairs.jsonl' --original original_a" \
  "$verify --pairs pairs_b.jsonl --original original_b" "$verify --pairs missing.jsonl --original original_a"

checkpoint_predict="'$binary' --quiet predict --checkpoint '$source_dir/tests/fixtures/pretrained/models/bert-classifier'"
predict="$checkpoint_predict --out out/predictions.jsonl"
run_scenario "predict (--out)" "$work/out" "$predict --pairs texts_a.jsonl" "$predict --pairs texts_b.jsonl" "$predict --pairs missing.jsonl"

# A shard: its output and its manifest are one set. A merge: its output (and sidecars) one set.
run_scenario "predict --shard (--out, its manifest)" "$work/out" "$predict --pairs texts_a.jsonl --shard 1/2" \
  "$predict --pairs texts_b.jsonl --shard 1/2" "$predict --pairs missing.jsonl --shard 1/2"
for inputs in a b; do
  for k in 0 1 2; do
    (cd "$work" && eval "$checkpoint_predict --pairs texts_$inputs.jsonl --out shards_$inputs/s-$k.jsonl --shard $k/3")
  done
done
merge="'$binary' --quiet merge --out out/merged.jsonl"
run_scenario "merge (--out)" "$work/out" "$merge shards_a/s-0.jsonl shards_a/s-1.jsonl shards_a/s-2.jsonl" \
  "$merge shards_b/s-2.jsonl shards_b/s-0.jsonl shards_b/s-1.jsonl" "$merge shards_a/s-0.jsonl shards_a/missing.jsonl"

ground="'$binary' --quiet ground $config --data '$examples/abstracts' --model verifier.safetensors --out out/grounded.jsonl"
run_scenario "ground (--out)" "$work/out" "$ground --answers '$examples/answers.jsonl'" "$ground --answers answers_b.jsonl" \
  "$ground --answers missing.jsonl"

sufficiency="'$binary' --quiet sufficiency $config --model verifier.safetensors --aggregator '$source_dir/data/fixtures/sufficiency/aggregator.json' --out out/decisions.jsonl"
run_scenario "sufficiency (--out)" "$work/out" "$sufficiency --examples '$examples/passages.jsonl'" "$sufficiency --examples passages_b.jsonl" \
  "$sufficiency --examples missing.jsonl"

bench="'$binary' --quiet sufficiency-bench $config --out out/benchmark.jsonl"
run_scenario "sufficiency-bench (--out)" "$work/out" "$bench --original original_a" "$bench --original original_b" "$bench --original missing"

interrogate="'$binary' --quiet interrogate --pairs pairs.jsonl --probes probes.json --samples 4 --out out/verdicts.jsonl --record out/record.jsonl --claims-out out/claims.jsonl"
run_scenario "interrogate (--out, --record, --claims-out)" "$work/out" \
  "$interrogate --responder recorded:rec_Yes.jsonl" "$interrogate --responder recorded:rec_No.jsonl" \
  "$interrogate --responder recorded:missing.jsonl"

stats="'$binary' --quiet stats --out out/stats"
run_scenario "stats (two tables in --out)" "$work/out" "$stats --data tiny" "$stats --data beir" "$stats --data missing"

index="'$binary' --quiet index $config --method bm25 --out out/index"
run_scenario "index (bm25.index, meta.json in --out)" "$work/out" "$index --data tiny" "$index --data beir" "$index --data missing"

retrieve="'$binary' --quiet retrieve $config --index tiny_index --method bm25 --split test --out out/run.trec"
run_scenario "retrieve (--out)" "$work/out" "$retrieve --data tiny --k 1" "$retrieve --data tiny --k 3" "$retrieve --data missing --k 1"

fuse="'$binary' --quiet fuse $config --out out/fused.trec --runs run_a1.trec"
run_scenario "fuse (--out)" "$work/out" "$fuse run_a2.trec" "$fuse run_b2.trec" "$fuse missing.trec"

rerank="'$binary' --quiet rerank $config --data tiny --index tiny_index --train --model out/reranker.safetensors --out out/reranked.trec"
run_scenario "rerank --train (--model, --out)" "$work/out" "$rerank --run tiny_a.trec" "$rerank --run tiny_b.trec" "$rerank --run missing.trec"

evidence="'$binary' --quiet extract-evidence $config --data tiny --rationales pseudo --out out/evidence.jsonl"
run_scenario "extract-evidence (--out, its meta file)" "$work/out" "$evidence --run tiny_a.trec" "$evidence --run tiny_b.trec" \
  "$evidence --run missing.trec"

gate="'$binary' --quiet gate $config --data tiny --split test --signal file --thresholds 0.2,0.6 --out out/sweep.tsv --risk-coverage out/risk.tsv"
run_scenario "gate (--out, --risk-coverage)" "$work/out" "$gate --run tiny_a.trec --signal-file signal_a.tsv" \
  "$gate --run tiny_b.trec --signal-file signal_b.tsv" "$gate --run tiny_a.trec --signal-file missing.tsv"

evaluate="'$binary' --quiet evaluate --data beir --split test --metrics ndcg@2,recall@2 --out out/ev"
run_scenario "evaluate (PREFIX.tsv, PREFIX.json)" "$work/out" "$evaluate --run run_a2.trec" "$evaluate --run run_b2.trec" \
  "$evaluate --run missing.trec"

compare="'$binary' --quiet compare-abstention $config --reference gate --resamples 200 --out out/cmp"
run_scenario "compare-abstention (four files in --out)" "$work/out" "$compare --test table_a.tsv" "$compare --test table_b.tsv" \
  "$compare --test missing.tsv"

# --- concurrent writers of one output set -------------------------------------------------------
run_concurrently "evaluate, two runs at once" "$work/out" "$evaluate --run run_a2.trec" "$evaluate --run run_b2.trec"
run_concurrently "interrogate, two runs at once" "$work/out" "$interrogate --responder recorded:rec_Yes.jsonl" \
  "$interrogate --responder recorded:rec_No.jsonl"
run_concurrently "compare-abstention, two runs at once" "$work/out" "$compare --test table_a.tsv" "$compare --test table_b.tsv"

echo "fault injection: $passed passed, $failed failed"
((failed == 0))
