#include "claimrag/experiment/verification/verifier_factory.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "claimrag/verification/verifier_spec.hpp"
#include "claimrag/verification/wordless_claims.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using verification::VerifierSetting;

struct TrainingFiles {
  fs::path corpus, claims;
};

TrainingFiles training_files(const VerifierSource& source, const ExperimentConfig& config) {
  const fs::path original = source.original.empty() ? fs::path(config.data.original) : source.original;
  const TrainingFiles files{original / "corpus.jsonl", original / "claims_train.jsonl"};
  if (original.empty() || !fs::exists(files.corpus) || !fs::exists(files.claims)) {
    throw UsageError("the built-in verifier is trained on SciFact's train claims the first time it is needed, and " +
                     (original.empty() ? std::string("the configuration names no data.original folder")
                                       : files.claims.string() + " or " + files.corpus.string() + " is missing") +
                     ": fetch SciFact with scripts/get-data.sh (or give --original DIR / --config FILE naming it), "
                     "or pass --model FILE with a verifier saved by `claimrag verify --pairs ... --save-model FILE`");
  }
  return files;
}

std::string cache_key(const TrainingFiles& files, const ExperimentConfig& config) {
  const auto& bm25 = config.bm25.parameters;
  const std::string identity = std::string("free_text-1\n") + io::file_checksum(files.corpus) + "\n" +
                               io::file_checksum(files.claims) + "\n" + verification::options_text(config.verification.options) +
                               "\nbm25 " + std::to_string(bm25.k1) + " " + std::to_string(bm25.b) + "\nseed " +
                               std::to_string(config.seed) + "\nversion " + CLAIMRAG_VERSION;
  return io::checksum_hex(identity);
}

std::unique_ptr<verification::ClaimVerifier> train_free_text(const TrainingFiles& files, const ExperimentConfig& config,
                                                             const fs::path& cached) {
  const auto abstracts = dataset::load_abstracts(files.corpus);
  const auto claims = dataset::load_claims(files.claims, &abstracts);
  const auto index = verification::index_abstracts(abstracts);
  const auto& bm25 = config.bm25.parameters;
  const auto neighbours = verification::bm25_run(abstracts, claims, bm25.k1, bm25.b, kFreeTextNeighbourDepth);
  verification::VerifierTrainingData data;
  data.claims = verification::free_text_inputs(claims, abstracts, index, neighbours, config.seed);
  data.corpus_texts = verification::corpus_texts(abstracts);
  data.setting = VerifierSetting::free_text;
  verification::TrainingReport report;
  auto verifier = verification::train_claim_verifier(data, config.verification.options, &report);
  if (!cached.empty()) verifier->save(cached);
  spdlog::info("trained the free-text verifier on {} SciFact train claims of {} (cited abstracts, plus a same-topic "
               "BM25 neighbour and an unrelated abstract each as NOT_ENOUGH_INFO): tau {}, NEI threshold {}, "
               "cross-validated Label+Rationale F1 {:.4f}; {}",
               data.claims.size(), files.claims.string(), report.tau, report.nei_threshold,
               report.cross_validation["label_rationale_f1"],
               cached.empty() ? std::string("not cached (set XDG_CACHE_HOME or HOME)") : "cached in " + cached.string());
  return verifier;
}

std::unique_ptr<verification::ClaimVerifier> free_text_verifier(const VerifierSource& source, const ExperimentConfig& config) {
  const TrainingFiles files = training_files(source, config);
  const fs::path folder = verifier_cache_folder();
  const fs::path cached = folder.empty() ? fs::path() : folder / ("verifier-free_text-" + cache_key(files, config) + ".safetensors");
  if (!cached.empty() && fs::exists(cached)) {
    try {
      auto verifier = verification::load_free_text_verifier(cached, &config.verification.options);
      spdlog::info("free-text verifier: {} (trained on {})", cached.string(), files.claims.string());
      return verifier;
    } catch (const DataError& error) {
      spdlog::warn("the cached verifier cannot be read ({}): training it again", error.what());
    }
  }
  return train_free_text(files, config, cached);
}

}  // namespace

fs::path verifier_cache_folder() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "claimrag";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "claimrag";
  return {};
}

std::unique_ptr<verification::ClaimVerifier> open_verifier(const VerifierSource& source, const ExperimentConfig& config) {
  const verification::VerifierSpec spec = verification::parse_verifier_spec(source.spec.empty() ? "builtin" : source.spec);
  if (spec.kind != verification::VerifierKind::builtin) {
    throw UsageError("--verifier " + verification::to_string(spec) + ": this kind of verifier is not available in this build "
                     "(use builtin)");
  }
  if (!source.model.empty() && !source.save_model.empty()) {
    throw UsageError("--save-model saves a trained verifier: give it without --model");
  }
  if (!source.model.empty()) {
    return verification::guard_wordless_claims(verification::load_free_text_verifier(source.model, &config.verification.options));
  }
  auto verifier = free_text_verifier(source, config);
  if (!source.save_model.empty()) verifier->save(source.save_model);
  return verification::guard_wordless_claims(std::move(verifier));
}

}  // namespace claimrag::experiment
