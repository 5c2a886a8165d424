#pragma once
// The typed exceptions of the library. Library code throws; only the command line's main()
// turns an exception into a log line and one of the documented exit codes.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace claimrag {

/// Messages are read by people: a longer one is cut (a damaged file once turned a whole
/// vocabulary into a 456 KB message).
inline constexpr std::size_t kMaxMessageLength = 1000;

/// `text` cut to at most `limit` bytes (never inside a UTF-8 character), followed by
/// "… (N more bytes)" when anything was cut.
inline std::string abbreviated(const std::string& text, std::size_t limit = kMaxMessageLength) {
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) --cut;
  return text.substr(0, cut) + "… (" + std::to_string(text.size() - cut) + " more bytes)";
}

/// The first `shown` items joined with ", ", then "… N more" when there are more.
inline std::string preview_list(const std::vector<std::string>& items, std::size_t shown = 5) {
  std::string text;
  for (std::size_t i = 0; i < items.size() && i < shown; ++i) text += (i == 0 ? "" : ", ") + abbreviated(items[i], 80);
  if (items.size() > shown) text += " … " + std::to_string(items.size() - shown) + " more";
  return text;
}

/// Process exit codes, a contract with the scripts that drive claimrag.
enum class ExitCode : int {
  ok = 0,
  check_failed = 1,  ///< a metric deviated from its frozen expectation
  usage = 2,         ///< bad flags, bad configuration, unknown split or method
  data = 3,          ///< a missing, unreadable or malformed input file
  internal = 4,      ///< a bug: an invariant of claimrag itself did not hold
};

/// Base of every error claimrag throws on purpose. The message is abbreviated().
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(abbreviated(message)) {}
  [[nodiscard]] virtual ExitCode exit_code() const noexcept = 0;
};

/// The user asked for something that cannot be done as asked (flags, config, names).
class UsageError : public Error {
 public:
  using Error::Error;
  [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::usage; }
};

/// An input file is missing or malformed. The message reads `file:line: reason`
/// (or `file: reason` when no line applies).
class DataError : public Error {
 public:
  explicit DataError(const std::string& message) : Error(message) {}
  DataError(const std::string& file, std::size_t line, const std::string& reason)
      : Error(file + ":" + std::to_string(line) + ": " + reason) {}
  DataError(const std::string& file, const std::string& reason) : Error(file + ": " + reason) {}
  [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::data; }
};

/// A result deviated from its frozen expectation (the deviations were reported before).
class CheckFailedError : public Error {
 public:
  using Error::Error;
  [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::check_failed; }
};

/// An invariant of claimrag itself was broken: a bug, never the user's fault.
class InternalError : public Error {
 public:
  using Error::Error;
  [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::internal; }
};

}  // namespace claimrag
