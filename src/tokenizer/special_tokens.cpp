#include "claimrag/tokenizer/special_tokens.hpp"

#include "folder_settings.hpp"

namespace claimrag::tokenizer {

std::optional<std::string> end_of_sequence_token(const std::filesystem::path& folder, std::string_view model_type) {
  const FolderSettings settings = read_folder_settings(folder);
  if (const auto found = settings.special_tokens.find("eos_token"); found != settings.special_tokens.end()) {
    return found->second.content;
  }
  if (model_type == "roberta" || model_type == "xlm-roberta" || model_type == "bart" || model_type == "t5") return "</s>";
  if (model_type == "deberta" || model_type == "deberta-v2") return "[SEP]";
  return std::nullopt;
}

}  // namespace claimrag::tokenizer
