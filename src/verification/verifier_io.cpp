// The claim verifier's file: safetensors (nn/safetensors.hpp) with F32 tensors
//   selector.weights 1×S, selector.bias 1×1, label.mean 1×L, label.scale 1×L, label.weights 3×L,
//   label.bias 1×3, tfidf.document_frequencies 1×V
// and metadata: format, format_version, options (JSON), setting, tau, nei_threshold, sentence_features and
// label_features (JSON name lists), tfidf_terms (JSON), tfidf_document_count,
// tfidf_max_features, and checksum: XXH64 over every other metadata entry (key NUL value NUL,
// key order) and every tensor (name, then its bytes, in the order above), so a flipped bit
// anywhere outside the JSON framing is caught.

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/nn/safetensors.hpp"
#include "feature_verifier.hpp"

namespace claimrag::verification {
namespace detail {

namespace {

constexpr const char* kFormat = "claimrag-claim-verifier";
// 2: the setting recorded; bounded features (selector_count_capped, capped sizes and counts).
constexpr int kFormatVersion = 2;

/// What a file of another claimrag format is, for the message that refuses it as a claim verifier.
std::string kind_of_format(const std::string& format) {
  static const std::pair<const char*, const char*> kKinds[] = {
      {"claimrag-rerank-model", "a reranker model"},
      {"claimrag-dense", "a dense retriever model"},
      {"claimrag-dense-documents", "a dense document matrix"},
      {"claimrag-verifier", "a sentence-pair transformer verifier"},
      {"claimrag-tfidf-vectorizer", "a TF-IDF vectorizer"},
  };
  for (const auto& [name, kind] : kKinds) {
    if (format == name) return kind;
  }
  return "a file of format \"" + format + "\"";
}

std::string number_text(double value) {
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, written.ptr);
}

struct NamedTensor {
  std::string name;
  std::vector<float> values;
  std::int64_t rows = 1, cols = 0;
};

std::vector<float> floats(const Eigen::MatrixXd& m) {  // row-major
  std::vector<float> values;
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) values.push_back(static_cast<float>(m(r, c)));
  }
  return values;
}

std::vector<NamedTensor> tensors_of(const FittedVerifier& fitted) {
  const auto row = [](const Eigen::VectorXd& v) { return Eigen::MatrixXd(v.transpose()); };
  std::vector<NamedTensor> tensors{
      {"selector.weights", floats(row(fitted.selector.weights)), 1, fitted.selector.weights.size()},
      {"selector.bias", {static_cast<float>(fitted.selector.bias)}, 1, 1},
      {"label.mean", floats(row(fitted.label.mean)), 1, fitted.label.mean.size()},
      {"label.scale", floats(row(fitted.label.scale)), 1, fitted.label.scale.size()},
      {"label.weights", floats(fitted.label.model.weights), fitted.label.model.weights.rows(), fitted.label.model.weights.cols()},
      {"label.bias", floats(row(fitted.label.model.bias)), 1, fitted.label.model.bias.size()},
  };
  NamedTensor df{"tfidf.document_frequencies", {}, 1, static_cast<std::int64_t>(fitted.vectorizer->size())};
  for (const std::uint32_t count : fitted.vectorizer->document_frequencies()) df.values.push_back(static_cast<float>(count));
  tensors.push_back(std::move(df));
  return tensors;
}

std::string checksum(const nn::SafetensorsMetadata& metadata, const std::vector<NamedTensor>& tensors) {
  std::string bytes;
  for (const auto& [key, value] : metadata) {
    if (key == "checksum") continue;
    bytes += key + '\0' + value + '\0';
  }
  for (const auto& tensor : tensors) {
    bytes += tensor.name;
    bytes.append(reinterpret_cast<const char*>(tensor.values.data()), tensor.values.size() * sizeof(float));
  }
  return io::checksum_hex(bytes);
}

const std::string& field(const nn::SafetensorsMetadata& metadata, const std::string& file, const std::string& key) {
  const auto found = metadata.find(key);
  if (found == metadata.end()) throw DataError(file, "metadata has no '" + key + "'");
  return found->second;
}

/// The contradict cue named `text`, or std::invalid_argument saying `key` is not one of the three.
ContradictCue contradict_cue_or_throw(const std::string& text, const std::string& key) {
  const auto parsed = parse_contradict_cue(text);
  if (!parsed) throw std::invalid_argument(key + " is not always, with_cue or cue_required: " + text);
  return *parsed;
}

VerificationOptions parse_options(const std::string& text) {
  const auto json = nlohmann::json::parse(text);
  VerificationOptions options;
  options.folds = json.at("folds").get<std::size_t>();
  options.max_rationale = json.at("max_rationale").get<std::size_t>();
  options.selector_C = json.at("selector_C").get<double>();
  options.label_l2 = json.at("label_l2").get<double>();
  options.tfidf_max_features = json.at("tfidf_max_features").get<std::size_t>();
  options.tau_grid = json.at("tau_grid").get<std::vector<double>>();
  options.nei_threshold_grid = json.at("nei_threshold_grid").get<std::vector<double>>();
  options.claim_only = json.at("claim_only").get<bool>();
  // Absent from the files of versions before the option existed, which trained without it.
  options.negation_augmentation = json.value("negation_augmentation", false);
  options.calibrate = json.at("calibrate").get<bool>();
  options.paraphrased_directions = json.at("paraphrased_directions").get<bool>();
  options.passages = json.value("passages", false);
  options.unrelated_passages = json.value("unrelated_passages", false);
  options.free_text_nei_threshold = json.value("free_text_nei_threshold", 0.0);
  options.free_text_contradict_ratio = json.value("free_text_contradict_ratio", 1.0);
  options.null_against_effect = json.value("null_against_effect", false);
  const std::string cue = json.value("free_text_contradict_cue", std::string(contradict_cue_name(ContradictCue::always)));
  options.free_text_contradict_cue = contradict_cue_or_throw(cue, "free_text_contradict_cue");
  options.free_text_conflict_cues = json.value("free_text_conflict_cues", options.free_text_conflict_cues);
  options.free_text_cue_in_every_sentence = json.value("free_text_cue_in_every_sentence", false);
  const std::string aggregation =
      json.value("free_text_aggregation", std::string(free_text_aggregation_name(FreeTextAggregation::whole)));
  const auto parsed_aggregation = parse_free_text_aggregation(aggregation);
  if (!parsed_aggregation) throw std::invalid_argument("free_text_aggregation is not whole or strongest_sentence: " + aggregation);
  options.free_text_aggregation = *parsed_aggregation;
  if (json.contains("free_text_short_evidence")) {
    const auto& short_json = json.at("free_text_short_evidence");
    ShortEvidenceRule& rule = options.free_text_short_evidence;
    rule.max_sentences = short_json.at("max_sentences").get<std::size_t>();
    rule.nei_threshold = short_json.at("nei_threshold").get<double>();
    rule.contradict_ratio = short_json.at("contradict_ratio").get<double>();
    const std::string short_cue = short_json.at("contradict_cue").get<std::string>();
    rule.contradict_cue = contradict_cue_or_throw(short_cue, "free_text_short_evidence's contradict_cue");
    if (const std::string problem = short_evidence_problem(rule); !problem.empty()) {
      throw std::invalid_argument("free_text_short_evidence: " + problem);
    }
  }
  return options;
}

double parse_number(const std::string& file, const std::string& key, const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw DataError(file, "metadata '" + key + "' is not a finite number: " + text);
  }
  return value;
}

VerifierSetting parse_setting(const std::string& file, const std::string& text) {
  for (const auto setting : {VerifierSetting::oracle, VerifierSetting::open, VerifierSetting::free_text}) {
    if (text == setting_name(setting)) return setting;
  }
  throw DataError(file, "metadata 'setting' is not oracle, open or free_text: " + text);
}

}  // namespace

}  // namespace detail

std::string options_text(const VerificationOptions& options) {
  nlohmann::json json{{"folds", options.folds},
                      {"max_rationale", options.max_rationale},
                      {"selector_C", options.selector_C},
                      {"label_l2", options.label_l2},
                      {"tfidf_max_features", options.tfidf_max_features},
                      {"tau_grid", options.tau_grid},
                      {"nei_threshold_grid", options.nei_threshold_grid},
                      {"claim_only", options.claim_only},
                      {"negation_augmentation", options.negation_augmentation},
                      {"calibrate", options.calibrate},
                      {"paraphrased_directions", options.paraphrased_directions},
                      {"passages", options.passages},
                      {"unrelated_passages", options.unrelated_passages},
                      {"free_text_nei_threshold", options.free_text_nei_threshold}};
  // Written only when they are not their defaults, so that the files and cache keys of models
  // trained without them stay as they were.
  if (options.free_text_contradict_ratio != 1.0) json["free_text_contradict_ratio"] = options.free_text_contradict_ratio;
  if (options.null_against_effect) json["null_against_effect"] = true;
  if (options.free_text_contradict_cue != ContradictCue::always) {
    json["free_text_contradict_cue"] = contradict_cue_name(options.free_text_contradict_cue);
  }
  if (options.free_text_conflict_cues != VerificationOptions{}.free_text_conflict_cues) {
    json["free_text_conflict_cues"] = options.free_text_conflict_cues;
  }
  if (options.free_text_cue_in_every_sentence) json["free_text_cue_in_every_sentence"] = true;
  if (options.free_text_aggregation != FreeTextAggregation::whole) {
    json["free_text_aggregation"] = free_text_aggregation_name(options.free_text_aggregation);
  }
  if (const ShortEvidenceRule& rule = options.free_text_short_evidence; rule.max_sentences > 0) {
    json["free_text_short_evidence"] = {{"max_sentences", rule.max_sentences},
                                        {"nei_threshold", rule.nei_threshold},
                                        {"contradict_ratio", rule.contradict_ratio},
                                        {"contradict_cue", contradict_cue_name(rule.contradict_cue)}};
  }
  return json.dump();
}

namespace detail {

void FeatureVerifier::save(const std::filesystem::path& file) const {
  const std::vector<NamedTensor> tensors = tensors_of(fitted_);
  nn::SafetensorsMetadata metadata{{"format", kFormat},
                                   {"format_version", std::to_string(kFormatVersion)},
                                   {"options", options_text(fitted_.options)},
                                   {"setting", std::string(setting_name(fitted_.setting))},
                                   {"tau", number_text(fitted_.tau)},
                                   {"nei_threshold", number_text(fitted_.nei_threshold)},
                                   {"sentence_features", nlohmann::json(sentence_feature_names()).dump()},
                                   {"label_features", nlohmann::json(label_row_names(fitted_.options)).dump()},
                                   {"tfidf_terms", nlohmann::json(fitted_.vectorizer->terms()).dump()},
                                   {"tfidf_document_count", std::to_string(fitted_.vectorizer->document_count())},
                                   {"tfidf_max_features", std::to_string(fitted_.vectorizer->options().max_features)}};
  metadata["checksum"] = checksum(metadata, tensors);
  std::vector<nn::TensorView> views;
  for (const auto& tensor : tensors) views.push_back({tensor.name, tensor.values.data(), tensor.rows, tensor.cols});
  nn::write_safetensors(file, views, metadata);
}

}  // namespace detail

std::unique_ptr<ClaimVerifier> load_claim_verifier(const std::filesystem::path& path, const VerificationOptions* expected) {
  using namespace detail;
  const std::string file = path.string();
  {  // the kind first: a file of another kind holds tensors a claim verifier's reader would misjudge
    const auto metadata = nn::read_safetensors_metadata(path);
    const auto format = metadata.find("format");
    if (format == metadata.end()) throw DataError(file, "is not a claimrag claim verifier: its metadata names no format");
    if (format->second != kFormat) {
      throw DataError(file, "is " + kind_of_format(format->second) + ", not a claim verifier: the wrong kind of model");
    }
  }
  nn::SafetensorsContent content = nn::read_safetensors(path);
  const auto& metadata = content.metadata;
  if (field(metadata, file, "format_version") != std::to_string(kFormatVersion)) {
    throw DataError(file, "has claim verifier format version " + metadata.at("format_version") + ", this program reads " +
                              std::to_string(kFormatVersion));
  }
  std::vector<NamedTensor> tensors;
  const auto tensor = [&](const std::string& name) -> NamedTensor {
    for (const auto& loaded : content.tensors) {
      if (loaded.name != name) continue;
      NamedTensor t{name, {}, loaded.value.rows(), loaded.value.cols()};
      for (Eigen::Index r = 0; r < loaded.value.rows(); ++r) {
        for (Eigen::Index c = 0; c < loaded.value.cols(); ++c) t.values.push_back(loaded.value(r, c));
      }
      return t;
    }
    throw DataError(file, "has no tensor '" + name + "'");
  };
  for (const char* name : {"selector.weights", "selector.bias", "label.mean", "label.scale", "label.weights", "label.bias",
                           "tfidf.document_frequencies"}) {
    tensors.push_back(tensor(name));
  }
  if (content.tensors.size() != tensors.size()) throw DataError(file, "holds tensors other than a claim verifier's");
  if (field(metadata, file, "checksum") != checksum(metadata, tensors)) {
    throw DataError(file, "checksum mismatch: the file was changed or damaged after it was written");
  }
  for (const auto& t : tensors) {
    for (const float v : t.values) {
      if (!std::isfinite(v)) throw DataError(file, "tensor '" + t.name + "' holds a non-finite value");
    }
  }
  FittedVerifier fitted;
  std::vector<std::string> terms;
  try {
    fitted.options = parse_options(std::string(io::depth_checked(field(metadata, file, "options"), file)));
    if (nlohmann::json::parse(io::depth_checked(field(metadata, file, "sentence_features"), file)).get<std::vector<std::string>>() != sentence_feature_names() ||
        nlohmann::json::parse(io::depth_checked(field(metadata, file, "label_features"), file)).get<std::vector<std::string>>() !=
            label_row_names(fitted.options)) {
      throw DataError(file, "was trained on other features than this program computes");
    }
    terms = nlohmann::json::parse(io::depth_checked(field(metadata, file, "tfidf_terms"), file)).get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& error) {
    throw DataError(file, std::string("malformed claim verifier metadata: ") + error.what());
  } catch (const std::invalid_argument& error) {
    throw DataError(file, std::string("malformed claim verifier metadata: ") + error.what());
  }
  if (expected && options_text(*expected) != options_text(fitted.options)) {
    throw DataError(file, "was trained with options " + options_text(fitted.options) + ", the configuration asks for " +
                              options_text(*expected));
  }
  if (!(fitted.options.free_text_contradict_ratio > 0) || !std::isfinite(fitted.options.free_text_contradict_ratio)) {
    throw DataError(file, "metadata 'options' has a free_text_contradict_ratio that is not a positive finite number");
  }
  fitted.setting = parse_setting(file, field(metadata, file, "setting"));
  fitted.tau = parse_number(file, "tau", field(metadata, file, "tau"));
  fitted.nei_threshold = parse_number(file, "nei_threshold", field(metadata, file, "nei_threshold"));
  const auto S = static_cast<std::int64_t>(sentence_feature_names().size());
  const auto L = static_cast<std::int64_t>(label_row_names(fitted.options).size());
  const std::int64_t shapes[][2] = {{1, S}, {1, 1}, {1, L}, {1, L}, {static_cast<std::int64_t>(label_count), L},
                                    {1, static_cast<std::int64_t>(label_count)}, {1, static_cast<std::int64_t>(terms.size())}};
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    if (tensors[t].rows != shapes[t][0] || tensors[t].cols != shapes[t][1]) {
      throw DataError(file, "tensor '" + tensors[t].name + "' has shape " + std::to_string(tensors[t].rows) + "x" +
                                std::to_string(tensors[t].cols) + ", expected " + std::to_string(shapes[t][0]) + "x" +
                                std::to_string(shapes[t][1]) + " (vocabulary or features do not match)");
    }
  }
  const auto vector = [](const NamedTensor& t) {
    Eigen::VectorXd v(static_cast<Eigen::Index>(t.values.size()));
    for (std::size_t i = 0; i < t.values.size(); ++i) v(static_cast<Eigen::Index>(i)) = t.values[i];
    return v;
  };
  fitted.selector.weights = vector(tensors[0]);
  fitted.selector.bias = tensors[1].values[0];
  fitted.label.mean = vector(tensors[2]);
  fitted.label.scale = vector(tensors[3]);
  fitted.label.model.set_parameters(Eigen::VectorXd::Zero(L * 3 + 3), 3, L);
  for (Eigen::Index k = 0; k < 3; ++k) {
    for (Eigen::Index j = 0; j < L; ++j) fitted.label.model.weights(k, j) = tensors[4].values[static_cast<std::size_t>(k * L + j)];
    fitted.label.model.bias(k) = tensors[5].values[static_cast<std::size_t>(k)];
  }
  std::vector<std::uint32_t> df;
  for (const float v : tensors[6].values) df.push_back(static_cast<std::uint32_t>(v));
  fitted.vectorizer = std::make_shared<const tfidf::TfidfVectorizer>(tfidf::TfidfVectorizer::from_parts(
      std::move(terms), std::move(df), static_cast<std::size_t>(parse_number(file, "tfidf_document_count", field(metadata, file, "tfidf_document_count"))),
      {static_cast<std::size_t>(parse_number(file, "tfidf_max_features", field(metadata, file, "tfidf_max_features")))}));
  return std::make_unique<FeatureVerifier>(std::move(fitted));
}

std::string_view setting_name(VerifierSetting setting) {
  switch (setting) {
    case VerifierSetting::oracle: return "oracle";
    case VerifierSetting::open: return "open";
    case VerifierSetting::free_text: return "free_text";
  }
  throw InternalError("setting_name: setting out of range");
}

std::string_view contradict_cue_name(ContradictCue cue) {
  switch (cue) {
    case ContradictCue::always: return "always";
    case ContradictCue::with_cue: return "with_cue";
    case ContradictCue::cue_required: return "cue_required";
  }
  throw InternalError("contradict_cue_name: value out of range");
}

std::optional<ContradictCue> parse_contradict_cue(std::string_view name) {
  for (const auto cue : {ContradictCue::always, ContradictCue::with_cue, ContradictCue::cue_required}) {
    if (name == contradict_cue_name(cue)) return cue;
  }
  return std::nullopt;
}

std::string short_evidence_problem(const ShortEvidenceRule& rule) {
  if (!(rule.nei_threshold >= 0 && rule.nei_threshold <= 1)) return "nei_threshold must be in [0, 1]";
  if (!contradict_ratio_in_range(rule.contradict_ratio)) return "contradict_ratio must be in (0, 10]";
  return {};
}

std::string_view free_text_aggregation_name(FreeTextAggregation aggregation) {
  switch (aggregation) {
    case FreeTextAggregation::whole: return "whole";
    case FreeTextAggregation::strongest_sentence: return "strongest_sentence";
  }
  throw InternalError("free_text_aggregation_name: value out of range");
}

std::optional<FreeTextAggregation> parse_free_text_aggregation(std::string_view name) {
  for (const auto aggregation : {FreeTextAggregation::whole, FreeTextAggregation::strongest_sentence}) {
    if (name == free_text_aggregation_name(aggregation)) return aggregation;
  }
  return std::nullopt;
}

VerifierSetting setting_of(const ClaimVerifier& verifier) {
  const auto* feature = dynamic_cast<const detail::FeatureVerifier*>(&verifier);
  if (!feature) throw UsageError("setting_of: not a verifier trained by claimrag");
  return feature->fitted().setting;
}

std::unique_ptr<ClaimVerifier> load_free_text_verifier(const std::filesystem::path& file, const VerificationOptions* expected) {
  auto verifier = load_claim_verifier(file, expected);
  if (setting_of(*verifier) == VerifierSetting::open) {
    throw DataError(file.string(), "is a verifier of the open setting (it reads each document's retrieval rank, which "
                                   "your own evidence does not have): use the free-text verifier instead, by leaving "
                                   "out --model (claimrag trains and caches it) or with a file saved by "
                                   "`claimrag verify --pairs FILE --out FILE --save-model FILE`");
  }
  return verifier;
}

}  // namespace claimrag::verification
