#pragma once
// Loading the SciFact release layout (`original/`): sentence-segmented abstracts and claims with
// gold rationales. The dev claims are the BEIR test claims; claims_test.jsonl has no labels.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace claimrag::dataset {

/// One rationale: sentence indices into an abstract that together support or contradict a claim.
struct EvidenceSet {
  std::vector<int> sentences;
  std::string label;  ///< "SUPPORT" or "CONTRADICT"
};

struct Abstract {
  std::string doc_id;
  std::string title;
  std::vector<std::string> sentences;
  bool structured = false;
};

struct Claim {
  std::string id;
  std::string text;
  /// doc id -> its rationales; empty for NOT ENOUGH INFO and for unlabelled claims.
  std::map<std::string, std::vector<EvidenceSet>> evidence;
  std::vector<std::string> cited_doc_ids;
};

/// original/corpus.jsonl: {"doc_id": int, "title", "abstract": [sentence, ...], "structured"}.
std::vector<Abstract> load_abstracts(const std::filesystem::path& corpus_jsonl);

/// original/claims_*.jsonl: {"id", "claim", "evidence"?, "cited_doc_ids"?}. Every rationale set
/// keeps its label; a label other than SUPPORT or CONTRADICT, or sets of one document that
/// disagree on the label, are a DataError naming file and line. Evidence whose sentence index
/// falls outside its abstract is refused when `abstracts` is given.
std::vector<Claim> load_claims(const std::filesystem::path& claims_jsonl,
                               const std::vector<Abstract>* abstracts = nullptr);

}  // namespace claimrag::dataset
