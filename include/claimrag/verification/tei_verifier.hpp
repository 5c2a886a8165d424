#pragma once
// The claim verifier over an NLI cross-encoder served by Text Embeddings Inference (`--verifier
// tei:URL`): the checkpoint verifier's rule (verification/checkpoint_verifier.hpp) with the
// premises' distributions asked of TEI's /predict (served/tei.hpp) instead of computed in
// process, so a server serving the same checkpoint gives the same verdicts as `checkpoint:DIR`.
//
// Each (premise, claim) pair is one /predict input, the premise first. The reply's labels are
// mapped by name with map_nli_labels (entailment → SUPPORT, contradiction → CONTRADICT, neutral or
// not-entailment → NOT_ENOUGH_INFO; in whatever order the server lists them, never by position);
// an unknown label set is a DataError naming the URL and listing the labels. Every pair of every
// claim goes out in one transport call, in requests of at most `batch_size` pairs. A request
// without an accepted reply (failed after the endpoint's retries, or refused: scores that are not a
// probability distribution, another count) fails the documents whose premises it held: their
// verdicts are failed_verdict with the reason naming the URL, which the command counts against
// --max-failures (verdict_failures.hpp). TEI truncates a pair longer than the model's positions
// itself and does not say so: truncated_sentences is 0.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "claimrag/served/exchange.hpp"
#include "claimrag/served/tei.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"

namespace claimrag::verification {

struct TeiVerifierOptions {
  CheckpointRule rule;
  std::size_t batch_size = served::kTeiDefaultBatchSize;  ///< pairs per /predict request, ≥ 1
};

/// The distribution of one pair from its /predict label scores, labels mapped by name (see above);
/// `url` names the endpoint in the error for an unknown label set.
LabelDistribution tei_label_distribution(const std::vector<served::TeiLabelScore>& scores, const std::string& url);

/// The distributions of every premise of every document of every input (document_premises of
/// `unit`), asked of TEI through `transport` in one call; the documents of a request without an
/// accepted reply carry its failure. DataError for a label set that is not NLI's.
PremiseJudgements tei_judge_premises(served::Transport& transport, std::span<const VerificationInput> inputs,
                                     PremiseUnit unit, std::size_t batch_size);

/// The verifier. UsageError for a threshold outside (0, 1], max_rationale 0 or batch size 0.
/// save() is a UsageError: the served model is not claimrag's to save.
std::unique_ptr<ClaimVerifier> make_tei_verifier(std::shared_ptr<served::Transport> transport,
                                                 const TeiVerifierOptions& options);

}  // namespace claimrag::verification
