#pragma once
// `claimrag verify` as one library call, in three modes:
//  - run:   the claims of --split or --queries with their top-k documents in a TREC run
//           -> the prediction file (verification/prediction.hpp), one line per claim;
//  - pairs: a user's (claim, evidence) pairs (verification/verification_pairs.hpp)
//           -> one verdict line per pair, in input order;
//  - claim: one claim typed on the command line, retrieved with BM25 over --data (the index in
//           --index, else one built in memory from the corpus) -> a verdict on stdout, as text
//           or as one JSON object (verification/verdict_report.hpp).
// Inputs are read and checked before any model is loaded or trained, so bad input fails fast
// and leaves no output file.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/shard/shard_selection.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::experiment {

/// What `claimrag verify` was asked to do: `run`, `pairs` or `claim` selects the mode.
struct VerifyRequest {
  std::filesystem::path data;      ///< BEIR folder (run and claim modes; training reads it too)
  QuerySelection claims;           ///< run mode: --split or --queries
  std::filesystem::path run;       ///< run mode: TREC run of the claims
  std::filesystem::path pairs;     ///< pairs mode: JSON Lines of (id, claim, evidence)
  std::string claim;               ///< claim mode: the claim's text
  std::filesystem::path index;     ///< claim mode: folder holding bm25.index; empty: built in memory
  std::size_t k = 0;               ///< documents per claim (run and claim modes); 0: the configuration's
  std::filesystem::path original;  ///< SciFact release layout: sentences with SciFact's indices, gold rationales for training
  std::filesystem::path out;       ///< run and pairs modes: the file to write
  bool json = false;               ///< claim mode: one JSON object instead of text
  std::string verifier;              ///< --verifier SPEC; empty: builtin
  std::filesystem::path model;       ///< a saved verifier to load instead of training one
  std::filesystem::path save_model;  ///< where to save the trained verifier (optional)
  bool log_progress = true;
  served::ServedOptions served = {};       ///< a served --verifier's endpoint rules, recording, replay
  std::string llm_model = {};              ///< --verifier llm:URL: the model name
  std::filesystem::path llm_prompt = {};   ///< --verifier llm:URL: the prompt template; empty: the default
  double max_failures = 0.0;               ///< share of pairs the verifier may fail to judge (verdict_failures.hpp)
  /// run and pairs modes: the shard to keep of the claims or pairs (shard_selection.hpp); nullptr: all.
  shard::ShardSelection* shard = nullptr;
};

enum class VerifyMode { run, pairs, claim };

/// The mode the request selects. UsageError naming the flag when no mode or two are asked for,
/// a mode's required flag is missing, or a flag of another mode is given.
VerifyMode verify_mode(const VerifyRequest& request);

/// The documents per claim: request.k, else the configuration's verification.verify_k.
std::size_t documents_per_claim(const VerifyRequest& request, const ExperimentConfig& config);

/// The claims of the request with their documents, in input order, read and checked.
std::vector<verification::VerificationInput> verify_inputs(const VerifyRequest& request, const ExperimentConfig& config);

/// What a verification did.
struct VerifySummary {
  std::size_t claims = 0;
  std::size_t documents = 0;
  std::size_t claims_without_documents = 0;  ///< NEI with reason "no retrieved abstract"
  std::size_t not_enough_evidence = 0;       ///< claims with no SUPPORT or CONTRADICT document
  std::size_t truncated_sentences = 0;
  std::size_t failed = 0;                    ///< pairs the verifier could not judge (written as failed)
};

/// Verifies `inputs` and delivers the verdicts as the request's mode says: the prediction file or
/// the pair lines written atomically to request.out, or the claim's verdict on `out`. Logs one
/// warning with the count when sentences were cut to the model's maximum length. Pairs the
/// verifier could not judge are checked against request.max_failures first (DataError, nothing
/// written, when there are more).
VerifySummary deliver_verdicts(const verification::ClaimVerifier& verifier, const VerifyRequest& request,
                               std::span<const verification::VerificationInput> inputs, std::ostream& out);

/// The verifier of the request. --pairs: open_verifier (verifier_factory.hpp), the free-text
/// verifier or request.model. --run and --claim: loaded from request.model (refused unless
/// trained with config.verification.options), or trained on SciFact's train claims in the open
/// setting: each claim's BM25 top k abstracts (k as documents_per_claim), gold-labelled from the
/// release layout in request.original, else the configuration's data.original (a UsageError
/// naming the missing file when absent); then saved to request.save_model when given. A
/// --verifier other than builtin goes to open_verifier in every mode.
std::unique_ptr<verification::ClaimVerifier> verifier_for(const VerifyRequest& request, const ExperimentConfig& config);

/// verify_inputs (the request's shard of them), then verifier_for, then deliver_verdicts, then one summary line in the log.
VerifySummary run_verify(const VerifyRequest& request, const ExperimentConfig& config, std::ostream& out);

}  // namespace claimrag::experiment
