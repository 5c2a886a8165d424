#include "claimrag/text/prompt_template.hpp"

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"

namespace claimrag::text {
namespace {

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

}  // namespace

PromptTemplate::PromptTemplate(const std::filesystem::path& file, std::vector<std::string> placeholders)
    : PromptTemplate(io::read_file(file, io::kSettingsInput), file.string(), std::move(placeholders)) {}

PromptTemplate::PromptTemplate(std::string text, std::string origin, std::vector<std::string> placeholders)
    : text_(std::move(text)), origin_(std::move(origin)), placeholders_(std::move(placeholders)) {
  for (const auto& name : placeholders_) {
    const std::size_t count = occurrences(text_, "{" + name + "}");
    if (count != 1) {
      throw DataError(origin_, "the prompt must hold the placeholder {" + name + "} exactly once (it holds it " +
                                   std::to_string(count) + " times)");
    }
  }
}

std::string PromptTemplate::render(const std::vector<std::pair<std::string, std::string>>& values) const {
  if (values.size() != placeholders_.size()) throw InternalError("prompt " + origin_ + ": values do not match its placeholders");
  for (const auto& [name, value] : values) {
    if (std::find(placeholders_.begin(), placeholders_.end(), name) == placeholders_.end()) {
      throw InternalError("prompt " + origin_ + " has no placeholder {" + name + "}");
    }
  }
  return fill_placeholders(text_, values);
}

std::string fill_placeholders(std::string_view text, const std::vector<std::pair<std::string, std::string>>& values) {
  // One pass: at each position, the earliest placeholder that starts there is replaced, and the
  // scan resumes after it, never inside a substituted value.
  std::string rendered;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t next = std::string::npos;
    const std::pair<std::string, std::string>* chosen = nullptr;
    for (const auto& value : values) {
      const std::size_t found = text.find("{" + value.first + "}", at);
      if (found < next) {
        next = found;
        chosen = &value;
      }
    }
    if (chosen == nullptr) break;
    rendered.append(text, at, next - at);
    rendered += chosen->second;
    at = next + chosen->first.size() + 2;
  }
  if (at < text.size()) rendered.append(text, at, std::string::npos);
  return rendered;
}

std::string numbered_passages(const std::vector<std::string>& passages) {
  std::string text;
  for (std::size_t i = 0; i < passages.size(); ++i) {
    std::string passage = passages[i];
    std::replace(passage.begin(), passage.end(), '\n', ' ');
    std::replace(passage.begin(), passage.end(), '\r', ' ');
    if (i > 0) text += '\n';
    text += "[" + std::to_string(i + 1) + "] " + passage;
  }
  return text;
}

}  // namespace claimrag::text
