#include "claimrag/experiment/shipped_files.hpp"

#include <system_error>

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

bool holds_shipped_files(const fs::path& folder) {
  std::error_code error;
  return !folder.empty() && fs::is_regular_file(folder / "configs" / "scifact.json", error);
}

// The installed layout beside the running executable (Linux: /proc/self/exe), or empty.
fs::path installed_folder() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error || executable.empty()) return {};
  return (executable.parent_path().parent_path() / "share" / "claimrag").lexically_normal();
}

}  // namespace

fs::path shipped_folder() {
  // Computed once: the executable and the source tree do not move while it runs.
  static const fs::path folder = [] {
    if (const fs::path installed = installed_folder(); holds_shipped_files(installed)) return installed;
    if (const fs::path source = build_source_folder(); holds_shipped_files(source)) return source;
    return fs::path();
  }();
  return folder;
}

fs::path shipped_file(const fs::path& relative) {
  const fs::path folder = shipped_folder();
  return folder.empty() || relative.is_absolute() ? relative : folder / relative;
}

}  // namespace claimrag::experiment
