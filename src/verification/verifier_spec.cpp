#include "claimrag/verification/verifier_spec.hpp"

#include "claimrag/error.hpp"

namespace claimrag::verification {
namespace {

constexpr const char* kForms = "builtin, checkpoint:DIR, llm:URL or tei:URL";

[[noreturn]] void refuse(std::string_view text, const std::string& why) {
  throw UsageError("--verifier \"" + std::string(text) + "\": " + why + " (expected " + kForms + ")");
}

std::string_view after(std::string_view text, std::string_view prefix) { return text.substr(prefix.size()); }

}  // namespace

VerifierSpec parse_verifier_spec(std::string_view text) {
  if (text == "builtin") return {};
  struct Form {
    std::string_view prefix;
    VerifierKind kind;
  };
  for (const Form form : {Form{"checkpoint:", VerifierKind::checkpoint}, Form{"llm:", VerifierKind::llm},
                          Form{"tei:", VerifierKind::tei}}) {
    if (!text.starts_with(form.prefix)) continue;
    const std::string_view location = after(text, form.prefix);
    if (location.empty()) refuse(text, "nothing follows \"" + std::string(form.prefix) + "\"");
    if (form.kind != VerifierKind::checkpoint && !location.starts_with("http://") &&
        !location.starts_with("https://"))
      refuse(text, "the URL must start with http:// or https://");
    return {form.kind, std::string(location)};
  }
  refuse(text, "unknown verifier");
}

std::string to_string(const VerifierSpec& spec) {
  switch (spec.kind) {
    case VerifierKind::builtin: return "builtin";
    case VerifierKind::checkpoint: return "checkpoint:" + spec.location;
    case VerifierKind::llm: return "llm:" + spec.location;
    case VerifierKind::tei: return "tei:" + spec.location;
  }
  return "builtin";
}

}  // namespace claimrag::verification
