#include "claimrag/served/secret_redaction.hpp"

#include <vector>

namespace claimrag::served {

std::string SecretRedaction::text(std::string text) const {
  if (secret_.empty()) return text;
  for (std::size_t at = text.find(secret_); at != std::string::npos; at = text.find(secret_, at + kRedactedKey.size())) {
    text.replace(at, secret_.size(), kRedactedKey);
  }
  return text;
}

void SecretRedaction::json(nlohmann::json& value) const {
  if (secret_.empty()) return;
  // An explicit stack: the reply's nesting is capped before parsing, but no recursion is needed.
  std::vector<nlohmann::json*> pending{&value};
  while (!pending.empty()) {
    nlohmann::json& item = *pending.back();
    pending.pop_back();
    if (item.is_string()) {
      auto& string = item.get_ref<std::string&>();
      if (string.find(secret_) != std::string::npos) string = text(std::move(string));
    } else if (item.is_array()) {
      for (auto& element : item) pending.push_back(&element);
    } else if (item.is_object()) {
      bool key_holds_secret = false;
      for (auto& [key, element] : item.items()) key_holds_secret = key_holds_secret || key.find(secret_) != std::string::npos;
      if (key_holds_secret) {
        nlohmann::json renamed = nlohmann::json::object();
        for (auto& [key, element] : item.items()) renamed[text(key)] = std::move(element);
        item = std::move(renamed);
      }
      for (auto& [key, element] : item.items()) pending.push_back(&element);
    }
  }
}

}  // namespace claimrag::served
