#!/usr/bin/env bash
# Puts SciFact into data/scifact/ (git-ignored), in both layouts: beir/ and original/.
#   1. from $CLAIMRAG_DATA if set (a folder holding beir/ and original/), else
#   2. from ../shared/data/scifact if present, else
#   3. by download from the dataset's official public archives.
# A copy is checked against its SHA256SUMS; a download is unpacked into the same layout and
# checked by its statistics (the counts of Table 1; the regression test checks the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
target=data/scifact

check_counts() {
  local folder=$1
  local documents train test
  documents=$(grep -c . "$folder/beir/corpus.jsonl")
  train=$(tail -n +2 "$folder/beir/qrels/train.tsv" | grep -c .)
  test=$(tail -n +2 "$folder/beir/qrels/test.tsv" | grep -c .)
  if [ "$documents" != 5183 ] || [ "$train" != 919 ] || [ "$test" != 339 ]; then
    echo "get-data: unexpected SciFact statistics: $documents documents, $train train pairs, $test test pairs" >&2
    echo "          (expected 5183, 919, 339)" >&2
    return 1
  fi
}

if [ -f "$target/beir/corpus.jsonl" ] && [ -f "$target/original/corpus.jsonl" ]; then
  if [ -f "$target/SHA256SUMS" ]; then
    (cd "$target" && sha256sum --quiet -c SHA256SUMS) && { echo "get-data: $target is present and verified"; exit 0; }
    echo "get-data: $target fails its checksums; fetching it again" >&2
  else
    check_counts "$target" && { echo "get-data: $target is present"; exit 0; }
  fi
fi

source_folder=${CLAIMRAG_DATA:-}
if [ -z "$source_folder" ] && [ -d ../shared/data/scifact ]; then source_folder=../shared/data/scifact; fi

rm -rf "$target.partial"
mkdir -p "$target.partial"
if [ -n "$source_folder" ]; then
  echo "get-data: copying from $source_folder"
  cp -r "$source_folder/." "$target.partial/"
  chmod -R u+w "$target.partial"
  if [ -f "$target.partial/SHA256SUMS" ]; then
    (cd "$target.partial" && sha256sum --quiet -c SHA256SUMS) || { echo "get-data: checksum mismatch in $source_folder" >&2; exit 3; }
  else
    check_counts "$target.partial"
  fi
else
  echo "get-data: downloading BEIR scifact.zip and the SciFact release"
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  curl -fsSL -o "$download/scifact.zip" https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip
  curl -fsSL -o "$download/data.tar.gz" https://scifact.s3-us-west-2.amazonaws.com/release/latest/data.tar.gz
  (cd "$download" && unzip -q scifact.zip && tar -xzf data.tar.gz)
  mkdir -p "$target.partial/beir" "$target.partial/original"
  cp -r "$download/scifact/corpus.jsonl" "$download/scifact/queries.jsonl" "$download/scifact/qrels" "$target.partial/beir/"
  cp "$download/data/corpus.jsonl" "$download/data/claims_"*.jsonl "$target.partial/original/"
  check_counts "$target.partial"
fi
rm -rf "$target"
mv "$target.partial" "$target"
echo "get-data: SciFact is in $target"
