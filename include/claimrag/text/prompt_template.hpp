#pragma once
// Prompt files: plain text with named placeholders, "{claim}", "{passages}", "{question}",
// "{context}", filled in by the code that sends the prompt to a served model. A prompt is a file
// (configs/prompts/) so that it can be read, reviewed and changed without rebuilding, and so that
// a recording's key (the prompt is part of the request) changes when the prompt does.
//
// Rules: every placeholder the caller names must appear in the file exactly once (a prompt that
// lost "{passages}" would send the model nothing to judge: DataError naming the file); braces
// around other text are left as they are (a prompt may show the model a JSON example). Values are
// substituted in one pass over the template, so a value that itself holds "{claim}" is not
// expanded again.

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace claimrag::text {

/// A prompt read from a file, with the placeholders it must hold.
class PromptTemplate {
 public:
  /// Reads `file` (io::read_file) and checks that each of `placeholders` (names without braces)
  /// appears exactly once: DataError naming the file and the placeholder otherwise.
  PromptTemplate(const std::filesystem::path& file, std::vector<std::string> placeholders);
  /// A template from text (tests); `origin` names it in errors.
  PromptTemplate(std::string text, std::string origin, std::vector<std::string> placeholders);

  /// The prompt with each placeholder replaced by its value; `values` must name exactly the
  /// template's placeholders (InternalError otherwise: a caller's mistake, not the user's).
  [[nodiscard]] std::string render(const std::vector<std::pair<std::string, std::string>>& values) const;

  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::string origin_;
  std::vector<std::string> placeholders_;
};

/// `text` with every `{name}` of `values` replaced by its value in one pass: a value is never
/// searched again, so a claim holding "{evidence}" stays as written.
std::string fill_placeholders(std::string_view text, const std::vector<std::pair<std::string, std::string>>& values);

/// Passages as a prompt shows them: "[1] first passage\n[2] second passage" (numbered from 1,
/// one a line; line breaks inside a passage become spaces so that numbering stays unambiguous).
std::string numbered_passages(const std::vector<std::string>& passages);

}  // namespace claimrag::text
