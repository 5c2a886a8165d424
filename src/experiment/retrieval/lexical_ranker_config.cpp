#include "claimrag/experiment/retrieval/lexical_ranker_config.hpp"

#include "claimrag/error.hpp"

namespace claimrag::experiment {
namespace {

void read_count(io::StrictObject& object, const std::string& key, std::size_t& target, std::size_t minimum) {
  std::uint64_t value = target;
  object.read(key, value);
  if (value < minimum) throw UsageError("lexical_ranker." + key + " must be >= " + std::to_string(minimum));
  target = value;
}

void read_positive(io::StrictObject& object, const std::string& key, double& target) {
  object.read(key, target);
  if (!(target > 0)) throw UsageError("lexical_ranker." + key + " must be positive");
}

void read_unit(io::StrictObject& object, const std::string& key, double& target) {
  object.read(key, target);
  if (!(target >= 0 && target <= 1)) throw UsageError("lexical_ranker." + key + " must lie in [0, 1]");
}

}  // namespace

text::Stemmer parse_stemmer(const std::string& name) {
  if (name == "porter") return text::Stemmer::porter;
  if (name == "inflection") return text::Stemmer::inflection;
  if (name == "none") return text::Stemmer::none;
  throw UsageError("lexical_ranker.stemmer must be \"porter\", \"inflection\" or \"none\", not \"" + name + "\"");
}

void read_lexical_ranker(io::StrictObject object, LexicalRankerConfig& config) {
  auto& options = config.options;
  auto& features = options.features;
  std::string stemmer = "porter";
  object.read("stemmer", stemmer);
  options.stemmer = parse_stemmer(stemmer);
  read_positive(object, "k1", features.whole.k1);
  read_unit(object, "b", features.whole.b);
  features.title = features.whole;
  read_positive(object, "sentence_k1", features.sentence.k1);
  read_unit(object, "sentence_b", features.sentence.b);
  read_count(object, "depth", features.depth, 1);
  read_count(object, "gram_size", options.gram_size, 1);
  read_count(object, "gram_depth", features.gram_depth, 0);
  read_positive(object, "rrf_k", features.rrf_k);
  read_count(object, "feedback_documents", features.feedback.documents, 1);
  read_count(object, "feedback_terms", features.feedback.terms, 1);
  read_unit(object, "feedback_original_weight", features.feedback.original_weight);
  read_unit(object, "feedback_max_document_fraction", features.feedback.max_document_fraction);
  read_count(object, "prior_terms", options.prior.terms, 0);
  read_positive(object, "prior_C", options.prior.C);
  object.read("features", options.feature_names);
  (void)retrieval::feature_columns(options.feature_names);
  read_positive(object, "l2", options.l2);
  read_count(object, "folds", options.folds, 2);
  read_count(object, "run_depth", options.run_depth, 1);
  object.finish();
}

}  // namespace claimrag::experiment
