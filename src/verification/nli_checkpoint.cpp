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

// config.json's names; `declared` adds the names a checker's user declares with --labels for the
// two-label grounding checkers (supported → entailment, unsupported → not_entailment).
std::optional<NliName> nli_name(std::string_view label, bool declared) {
  const std::string name = canonical(label);
  if (name == "entailment") return NliName::entailment;
  if (name == "contradiction") return NliName::contradiction;
  if (name == "neutral") return NliName::neutral;
  if (name == "notentailment" || name == "nonentailment") return NliName::not_entailment;
  if (declared && name == "supported") return NliName::entailment;
  if (declared && name == "unsupported") return NliName::not_entailment;
  return std::nullopt;
}

// The Labels of `names` when they form an accepted set (three-way NLI, or one entailment and one
// not-entailment), else none.
std::optional<std::vector<Label>> accepted_labels(const std::vector<std::string>& names, bool declared) {
  std::vector<std::optional<NliName>> read;
  for (const auto& label : names) read.push_back(nli_name(label, declared));
  const auto count = [&](NliName wanted) { return std::count(read.begin(), read.end(), std::optional<NliName>(wanted)); };
  const bool three_way = names.size() == 3 && count(NliName::entailment) == 1 && count(NliName::contradiction) == 1 &&
                         count(NliName::neutral) == 1;
  const bool two_way = names.size() == 2 && count(NliName::entailment) == 1 && count(NliName::not_entailment) == 1;
  if (!three_way && !two_way) return std::nullopt;
  std::vector<Label> labels;
  for (const auto& name : read) {
    switch (*name) {
      case NliName::entailment: labels.push_back(Label::support); break;
      case NliName::contradiction: labels.push_back(Label::contradict); break;
      case NliName::neutral:
      case NliName::not_entailment: labels.push_back(Label::not_enough_info); break;
    }
  }
  return labels;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string listed;
  for (const auto& label : names) listed += (listed.empty() ? "" : ", ") + ("'" + label + "'");
  return listed;
}

}  // namespace

std::vector<Label> map_nli_labels(const std::vector<std::string>& id2label, const std::string& config_file) {
  if (auto labels = accepted_labels(id2label, /*declared=*/false)) return *std::move(labels);
  throw DataError(config_file, "id2label [" + quoted_list(id2label) +
                                   "] is not an NLI label set claimrag can map: it needs entailment, contradiction and "
                                   "neutral (three labels), or entailment and not_entailment (two labels), by name "
                                   "in any order, case and separator; a checker whose labels mean something else is "
                                   "read with --labels NAMES (verification.checkpoint.labels), e.g. --labels "
                                   "unsupported,supported");
}

std::vector<Label> map_declared_labels(const std::vector<std::string>& declared) {
  if (auto labels = accepted_labels(declared, /*declared=*/true)) return *std::move(labels);
  throw UsageError("the declared labels [" + quoted_list(declared) +
                   "] (--labels, verification.checkpoint.labels): in id order they must be supported and unsupported (two labels), or entailment, "
                   "contradiction and neutral (three), each once; entailment / not_entailment also stand for the two");
}

NliCheckpoint::NliCheckpoint(const std::filesystem::path& folder, const std::vector<std::string>& declared_labels,
                             const std::vector<std::int32_t>& label_tokens)
    : model_(folder, pretrained::LoadOptions{.label_tokens = label_tokens}) {
  model_.model().require_head(pretrained::HeadKind::classification,
                              "a verifier needs an NLI classification head (entailment / contradiction / neutral labels)");
  label_of_id_ = checkpoint_labels(model_.model().config().labels, model_.model().config().file, declared_labels);
}

std::vector<Label> checkpoint_labels(const std::vector<std::string>& id2label, const std::string& config_file,
                                     const std::vector<std::string>& declared_labels) {
  if (declared_labels.empty()) return map_nli_labels(id2label, config_file);
  if (declared_labels.size() != id2label.size()) {
    throw UsageError("the declared labels (--labels, verification.checkpoint.labels) name " +
                     std::to_string(declared_labels.size()) + ", but the head of " + config_file +
                     " has " + std::to_string(id2label.size()) + " (id2label [" + quoted_list(id2label) +
                     "]): give one name per label, in id order");
  }
  return map_declared_labels(declared_labels);
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
