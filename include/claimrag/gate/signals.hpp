#pragma once
// Confidence signals per claim, computed from the pipeline's artefacts. A larger value means more
// confidence. Each signal names the inputs it needs; a needed input that is absent is a
// UsageError. A claim without lines in a run has an empty ranking there (a TREC run cannot record
// one otherwise), whose top scores are 0.
//
//   bm25_top1               BM25's top-1 score (the paper's gate)
//   bm25_margin             BM25's top-1 minus top-2 score (top-1 alone with one document)
//   sparse_dense_rank       1 / (rank of BM25's top document in the dense run), 0 when absent
//   sparse_dense_overlap    |BM25 top-10 ∩ dense top-10| / 10
//   rerank_top1             the reranker's probability for its top document
//   verifier_top1           the verifier's best sentence score among the claim's candidates
//   file                    values read from a TSV (claim id, value): any external signal

#include <map>
#include <string>
#include <vector>

#include "claimrag/run/run.hpp"

namespace claimrag::gate {

/// The artefacts signals are computed from; absent ones are null.
struct SignalInputs {
  const run::Run* bm25 = nullptr;
  const run::Run* dense = nullptr;
  const run::Run* rerank = nullptr;
  const std::map<std::string, double>* verifier_top1 = nullptr;  ///< claim id -> best sentence score
  const std::map<std::string, double>* external = nullptr;       ///< claim id -> value ("file")
};

/// The names accepted by signal_values, in documentation order.
const std::vector<std::string>& signal_names();

/// The signal's value for every claim id, in the given order.
std::vector<double> signal_values(const std::string& name, const SignalInputs& inputs,
                                  const std::vector<std::string>& claim_ids);

/// Reads a signal TSV: `claim_id<TAB>value` per line, an optional header `claim_id<TAB>...`.
std::map<std::string, double> read_signal_file(const std::string& path);

/// Writes what read_signal_file reads: the header `claim_id<TAB>name`, then one line per claim,
/// values in their shortest exact decimal form (read back as the same doubles), atomically.
/// InternalError for sizes that differ or a non-finite value.
void write_signal_file(const std::string& path, const std::string& name, const std::vector<std::string>& claim_ids,
                       const std::vector<double>& values);

}  // namespace claimrag::gate
