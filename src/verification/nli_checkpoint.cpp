// NliCheckpoint and the mapping of a checkpoint's id2label onto SciFact's labels
// (checkpoint_verifier.hpp).
#include <algorithm>
#include <cctype>
#include <optional>

#include "claimrag/error.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"

namespace claimrag::verification {
namespace {

// "Not_Entailment" → "notentailment": families write the same names with other cases and separators.
std::string canonical(std::string_view name) {
  std::string text;
  for (const char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

enum class NliName { entailment, contradiction, neutral, not_entailment };

std::optional<NliName> nli_name(std::string_view label) {
  const std::string name = canonical(label);
  if (name == "entailment") return NliName::entailment;
  if (name == "contradiction") return NliName::contradiction;
  if (name == "neutral") return NliName::neutral;
  if (name == "notentailment" || name == "nonentailment") return NliName::not_entailment;
  return std::nullopt;
}

}  // namespace

std::vector<Label> map_nli_labels(const std::vector<std::string>& id2label, const std::string& config_file) {
  std::vector<std::optional<NliName>> names;
  for (const auto& label : id2label) names.push_back(nli_name(label));
  const auto count = [&](NliName wanted) { return std::count(names.begin(), names.end(), std::optional<NliName>(wanted)); };
  const bool three_way = id2label.size() == 3 && count(NliName::entailment) == 1 && count(NliName::contradiction) == 1 &&
                         count(NliName::neutral) == 1;
  const bool two_way = id2label.size() == 2 && count(NliName::entailment) == 1 && count(NliName::not_entailment) == 1;
  if (!three_way && !two_way) {
    std::string listed;
    for (const auto& label : id2label) listed += (listed.empty() ? "" : ", ") + ("'" + label + "'");
    throw DataError(config_file, "id2label [" + listed +
                                     "] is not an NLI label set claimrag can map: it needs entailment, contradiction and "
                                     "neutral (three labels), or entailment and not_entailment (two labels), by name "
                                     "in any order, case and separator");
  }
  std::vector<Label> labels;
  for (const auto& name : names) {
    switch (*name) {
      case NliName::entailment: labels.push_back(Label::support); break;
      case NliName::contradiction: labels.push_back(Label::contradict); break;
      case NliName::neutral:
      case NliName::not_entailment: labels.push_back(Label::not_enough_info); break;
    }
  }
  return labels;
}

NliCheckpoint::NliCheckpoint(const std::filesystem::path& folder) : model_(folder) {
  model_.model().require_head(pretrained::HeadKind::classification,
                              "a verifier needs an NLI classification head (entailment / contradiction / neutral labels)");
  label_of_id_ = map_nli_labels(model_.model().config().labels, model_.model().config().file);
}

std::vector<LabelDistribution> NliCheckpoint::judge(std::span<const pretrained::TextInput> pairs,
                                                    const CheckpointVerifierOptions& options,
                                                    std::vector<std::size_t>& truncated) const {
  const auto outputs = model_.run(pairs, options.max_length, options.batch_size, model_.folder().string());
  truncated = outputs.truncated_tokens;
  std::vector<LabelDistribution> distributions;
  distributions.reserve(outputs.values.size());
  for (const auto& logits : outputs.values) {
    const std::vector<double> probabilities = pretrained::softmax(logits);
    LabelDistribution distribution{};
    for (std::size_t id = 0; id < probabilities.size(); ++id) {
      distribution[static_cast<std::size_t>(label_of_id_[id])] += probabilities[id];
    }
    distributions.push_back(distribution);
  }
  return distributions;
}

}  // namespace claimrag::verification
