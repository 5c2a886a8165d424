#pragma once
// Keeping the API key out of everything claimrag writes. A server may send the key back (a 401
// page that echoes the request's "Authorization: Bearer ..." header, a debugging proxy): the live
// transport replaces every occurrence of the key in what came back — reply bodies, failure
// reasons, header values — by a fixed marker before anything else sees it, so no message, output
// field or recording can hold it.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace claimrag::served {

/// What stands where the key was.
inline constexpr std::string_view kRedactedKey = "[redacted API key]";

class SecretRedaction {
 public:
  /// `secret` empty: nothing to redact.
  explicit SecretRedaction(std::string secret) : secret_(std::move(secret)) {}
  /// `text` with every occurrence of the secret replaced by kRedactedKey: as written, and as JSON
  /// may escape it (any of its characters written "\\u0073", "\\/", ...).
  [[nodiscard]] std::string text(std::string text) const;
  /// Every string and object key in `value` redacted the same way, in place.
  void json(nlohmann::json& value) const;

 private:
  std::string secret_;
};

}  // namespace claimrag::served
