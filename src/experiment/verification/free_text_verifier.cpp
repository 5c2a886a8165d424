#include "claimrag/experiment/verification/free_text_verifier.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/shipped_files.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/verification/label_features.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/sentence_features.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

struct TrainingFiles {
  fs::path corpus, claims;
};

// SciFact's release files the built-in verifier trains on: --original, else the configuration's
// data.original. Empty paths when neither names a folder.
TrainingFiles find_training_files(const VerifierSource& source, const ExperimentConfig& config) {
  const fs::path original = source.original.empty() ? fs::path(config.data.original) : source.original;
  if (original.empty()) return {};
  return {original / "corpus.jsonl", original / "claims_train.jsonl"};
}

bool present(const TrainingFiles& files) {
  return !files.corpus.empty() && fs::exists(files.corpus) && fs::exists(files.claims);
}

// How to get SciFact from here: the source tree's script where there is one; an installed claimrag
// ships no scripts, so it names the release files and the folder layout CLAIMRAG_DATA points to.
std::string how_to_fetch_scifact() {
  std::error_code error;
  const fs::path script = shipped_folder() / "scripts" / "get-data.sh";
  if (!shipped_folder().empty() && fs::is_regular_file(script, error)) return "fetch SciFact with " + script.string();
  return "fetch SciFact (the release https://scifact.s3-us-west-2.amazonaws.com/release/latest/data.tar.gz as "
         "DIR/original, BEIR's scifact.zip as DIR/beir) and set CLAIMRAG_DATA=DIR";
}

TrainingFiles training_files(const VerifierSource& source, const ExperimentConfig& config) {
  const TrainingFiles files = find_training_files(source, config);
  if (!present(files)) {
    throw UsageError("the built-in verifier is trained on SciFact's train claims the first time it is needed, and " +
                     (files.corpus.empty() ? std::string("the configuration names no data.original folder")
                                           : files.claims.string() + " or " + files.corpus.string() + " is missing") +
                     ": " + how_to_fetch_scifact() + " (or give --original DIR / --config FILE naming it, or set "
                     "CLAIMRAG_DATA), or pass --model FILE with a verifier saved by `claimrag verify --pairs ... "
                     "--save-model FILE`");
  }
  return files;
}

// The cached model's name is verifier-free_text-<recipe>-<data>.safetensors: <recipe> keys how it
// is trained (the feature columns' names, so that a model of other features is never read back,
// the verification options, BM25's parameters, the seed, the version) and <data> the training
// files' bytes, so that a cached model is found by its recipe alone when the training data is not
// on this machine, and a changed training set trains anew.
std::string recipe_key(const ExperimentConfig& config) {
  const auto& bm25 = config.bm25.parameters;
  std::string features;
  for (const auto* names : {&verification::sentence_feature_names(), &verification::label_feature_names()}) {
    for (const auto& name : *names) features += name + ' ';
  }
  const std::string identity = std::string("free_text-1\n") + features + "\n" + verification::options_text(config.verification.options) +
                               "\nbm25 " + std::to_string(bm25.k1) + " " + std::to_string(bm25.b) + "\nseed " +
                               std::to_string(config.seed) + "\nversion " + CLAIMRAG_VERSION;
  return io::checksum_hex(identity);
}

std::string data_key(const TrainingFiles& files) {
  return io::checksum_hex(io::file_checksum(files.corpus) + "\n" + io::file_checksum(files.claims));
}

std::string cached_name(const std::string& recipe, const std::string& data) {
  return "verifier-free_text-" + recipe + "-" + data + ".safetensors";
}

// A cached model of this recipe trained on any data, for a machine without the training files:
// the one there is, else none. Several (trained on different data) are ambiguous: a usage error.
fs::path cached_by_recipe(const fs::path& folder, const std::string& recipe) {
  std::error_code error;
  if (folder.empty() || !fs::is_directory(folder, error)) return {};
  const std::string prefix = "verifier-free_text-" + recipe + "-";
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0 && entry.path().extension() == ".safetensors") {
      found.push_back(entry.path());
    }
  }
  if (found.size() > 1) {
    std::sort(found.begin(), found.end());
    throw UsageError("the built-in verifier's training data is not on this machine and " + folder.string() + " holds " +
                     std::to_string(found.size()) + " verifiers of this configuration trained on different data (" +
                     found[0].filename().string() + ", " + found[1].filename().string() +
                     "): remove the ones not wanted, or pass --model FILE");
  }
  return found.empty() ? fs::path() : found.front();
}

// SciFact's train claims in the free-text setting: their cited abstracts, plus per claim a BM25
// neighbour without evidence and a random unrelated abstract as NOT_ENOUGH_INFO.
verification::VerifierTrainingData free_text_training_data(const TrainingFiles& files, const ExperimentConfig& config) {
  const auto abstracts = dataset::load_abstracts(files.corpus);
  const auto claims = dataset::load_claims(files.claims, &abstracts);
  const auto index = verification::index_abstracts(abstracts);
  const auto& bm25 = config.bm25.parameters;
  const auto neighbours = verification::bm25_run(abstracts, claims, bm25.k1, bm25.b, kFreeTextNeighbourDepth);
  verification::VerifierTrainingData data;
  data.claims = verification::free_text_inputs(claims, abstracts, index, neighbours, config.seed);
  if (config.verification.options.passages) verification::add_passages(data.claims, config.seed);
  if (config.verification.options.unrelated_passages) verification::add_unrelated_passages(data.claims, config.seed);
  data.corpus_texts = verification::corpus_texts(abstracts);
  data.setting = verification::VerifierSetting::free_text;
  return data;
}

// Saves a freshly trained verifier in the cache; whether it was. The cache is optional: a folder
// that cannot be written, a read-only file or anything but a regular file in the model's place
// (a FIFO would block the write) costs one warning, never the run nor the verifier just trained.
bool save_in_cache(const verification::ClaimVerifier& verifier, const fs::path& cached) {
  if (cached.empty()) return false;
  std::error_code error;
  const auto status = fs::symlink_status(cached, error);
  // Not a regular file: the attempt to read it has already said so (once), and writing would block
  // on a FIFO or write into a device.
  if (fs::exists(status) && !fs::is_regular_file(status)) return false;
  try {
    verifier.save(cached);
    return true;
  } catch (const Error& failure) {
    spdlog::warn("the verifier cache cannot be written ({}): the trained verifier is used without caching it",
                 failure.what());
    return false;
  }
}

std::unique_ptr<verification::ClaimVerifier> train_free_text(const TrainingFiles& files, const ExperimentConfig& config,
                                                             const fs::path& cached) {
  const auto data = free_text_training_data(files, config);
  verification::TrainingReport report;
  auto verifier = verification::train_claim_verifier(data, config.verification.options, &report);
  const bool saved = save_in_cache(*verifier, cached);
  spdlog::info("trained the free-text verifier on {} SciFact train claims of {} (cited abstracts, plus a same-topic "
               "BM25 neighbour and an unrelated abstract each as NOT_ENOUGH_INFO): tau {}, NEI threshold {}, "
               "cross-validated Label+Rationale F1 {:.4f}{}; {}",
               data.claims.size(), files.claims.string(), report.tau, report.nei_threshold,
               report.cross_validation["label_rationale_f1"],
               report.cross_validation.contains("abstracts_label_rationale_f1")
                   ? fmt::format(" ({:.4f} on the abstracts alone)", report.cross_validation["abstracts_label_rationale_f1"])
                   : std::string(),
               saved ? "cached in " + cached.string()
                     : cached.empty() ? std::string("not cached (set XDG_CACHE_HOME or HOME)") : std::string("not cached"));
  return verifier;
}

}  // namespace

FreeTextTraining free_text_training(const VerifierSource& source, const ExperimentConfig& config) {
  const TrainingFiles files = training_files(source, config);
  return {free_text_training_data(files, config), files.claims};
}

std::unique_ptr<verification::ClaimVerifier> open_free_text_verifier(const VerifierSource& source,
                                                                     const ExperimentConfig& config) {
  const fs::path folder = verifier_cache_folder();
  const std::string recipe = recipe_key(config);
  const TrainingFiles found = find_training_files(source, config);
  // Without the training data (and without --original naming it), a model cached by this recipe.
  if (!present(found) && source.original.empty()) {
    if (const fs::path cached = cached_by_recipe(folder, recipe); !cached.empty()) {
      auto verifier = verification::load_free_text_verifier(cached, &config.verification.options);
      spdlog::info("free-text verifier: {} (its training data is not on this machine)", cached.string());
      return verifier;
    }
  }
  const TrainingFiles files = training_files(source, config);
  const fs::path cached = folder.empty() ? fs::path() : folder / cached_name(recipe, data_key(files));
  if (!cached.empty() && fs::exists(cached)) {
    try {
      auto verifier = verification::load_free_text_verifier(cached, &config.verification.options);
      spdlog::info("free-text verifier: {} (trained on {})", cached.string(), files.claims.string());
      return verifier;
    } catch (const DataError& error) {
      std::error_code ignored;
      spdlog::warn("the cached verifier cannot be read ({}): training it again{}", error.what(),
                   fs::is_regular_file(cached, ignored) ? "" : ", without caching it");
    }
  }
  return train_free_text(files, config, cached);
}

fs::path verifier_cache_folder() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "claimrag";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "claimrag";
  return {};
}

}  // namespace claimrag::experiment
