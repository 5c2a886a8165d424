#include "claimrag/io/temporary_names.hpp"

#include <unistd.h>

#include <atomic>
#include <system_error>

#include "claimrag/io/process_alive.hpp"

namespace claimrag::io {
namespace {

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() <= 18 && text.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::filesystem::path temporary_path_for(const std::filesystem::path& target) {
  static std::atomic<unsigned long> counter{0};
  return target.parent_path() /
         ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
}

std::filesystem::path shown_target(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  const std::size_t marker = name.rfind(".tmp.");
  if (name.size() < 2 || name[0] != '.' || marker == std::string::npos || marker < 2) return path;
  const std::string target = name.substr(1, marker - 1);
  if (!writer_of(name, target, "tmp")) return path;
  return shown_target(path.parent_path() / target);
}

std::optional<long> writer_of(const std::string& name, const std::string& target_name, const std::string& kind) {
  const std::string prefix = "." + target_name + "." + kind + ".";
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const std::string rest = name.substr(prefix.size());
  const std::size_t dot = rest.find('.');
  if (dot == std::string::npos || !all_digits(rest.substr(0, dot)) || !all_digits(rest.substr(dot + 1))) {
    return std::nullopt;
  }
  return std::stol(rest.substr(0, dot));
}

namespace {

// Whether `name` is a temporary of `target_name` whose writers are all dead: `.T.tmp.PID.N`, or a
// temporary of such a temporary or of a set's journal (`..T.tmp.P.N.tmp.P.M`: a writer that itself
// writes atomically to the path a file set staged), left when a run was killed between the two.
bool dead_temporary(const std::string& name, const std::string& target_name) {
  if (const auto pid = writer_of(name, target_name, "tmp")) return !process_alive(*pid);
  if (name.size() < 2 || name[0] != '.') return false;
  const std::size_t marker = name.rfind(".tmp.");
  if (marker == std::string::npos || marker < 2) return false;
  const std::string inner = name.substr(1, marker - 1);
  const auto outer_pid = writer_of(name, inner, "tmp");
  if (!outer_pid || process_alive(*outer_pid)) return false;
  if (const auto pid = writer_of(inner, target_name, "commit")) return !process_alive(*pid);
  return dead_temporary(inner, target_name);
}

}  // namespace

std::size_t remove_dead_temporaries(const std::filesystem::path& target) {
  const std::filesystem::path folder = target.parent_path().empty() ? "." : target.parent_path();
  const std::string target_name = target.filename().string();
  std::error_code error;
  std::size_t removed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (!dead_temporary(entry.path().filename().string(), target_name)) continue;
    std::error_code ignored;  // another run may be removing it at the same moment
    if (entry.is_regular_file(ignored) && std::filesystem::remove(entry.path(), ignored)) ++removed;
  }
  return removed;
}

}  // namespace claimrag::io
