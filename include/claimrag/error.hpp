#pragma once
// The typed exceptions of the library. Library code throws; only the command line's main()
// turns an exception into a log line and one of the documented exit codes.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace claimrag {

/// Process exit codes, a contract with the scripts that drive claimrag.
enum class ExitCode : int {
  ok = 0,
  check_failed = 1,  ///< a metric deviated from its frozen expectation
  usage = 2,         ///< bad flags, bad configuration, unknown split or method
  data = 3,          ///< a missing, unreadable or malformed input file
  internal = 4,      ///< a bug: an invariant of claimrag itself did not hold
};

/// Base of every error claimrag throws on purpose.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
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
