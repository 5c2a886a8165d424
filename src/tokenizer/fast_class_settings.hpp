#pragma once
// tokenizer_config.json's settings applied over a tokenizer.json pipeline as transformers' fast
// tokenizer classes apply them.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "claimrag/tokenizer/pipeline.hpp"
#include "folder_settings.hpp"

namespace claimrag::tokenizer {

/// Rebuilds `parts`' normaliser or pre-tokeniser where the fast class (tokenizer_config.json's
/// tokenizer_class, else the one for `model_type`) would, and sets the truncation side and
/// model_max_length from `settings`. `root` is tokenizer.json as read from `source`.
void apply_fast_class_settings(const nlohmann::json& root, const FolderSettings& settings, std::string_view model_type,
                               PipelineParts& parts, const std::string& source);

}  // namespace claimrag::tokenizer
