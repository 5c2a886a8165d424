// How long an idle OpenMP thread of the claimrag executable spins before it sleeps.
//
// The trainers run thousands of short parallel loops (a few per batch), each ending in a barrier,
// and between loops the second thread waits for the next one. GNU libgomp's default lets a waiting
// thread spin for 300,000 pause instructions (milliseconds on current cores) before it sleeps. On
// a quiet machine that costs nothing; on a machine shared with other work the spinning thread
// takes the core that the thread it waits for needs: beside one other busy process, the seed-000
// stages ran five times slower (docs/reproduction.md). A spin of kSpinCount pauses still catches
// the back-to-back loops of a quiet machine and gives the core back soon when it is shared.
// (OMP_WAIT_POLICY=passive, which never spins, made each short loop cost a sleep and a wake-up.)
//
// libgomp reads its settings once, while it is loaded, before main() runs, and offers no call to
// change them later; the process therefore starts itself again with the variable set. A user's own
// OMP_WAIT_POLICY or GOMP_SPINCOUNT is left as it is, and so is the run when it cannot restart.

#include "thread_waiting.hpp"

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdlib>

namespace claimrag::cli {
namespace {

constexpr const char* kSpinCount = "1000";

}  // namespace

void restart_with_short_spin_waits(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  // The executable's own path, as the kernel (or a tool that runs it, such as valgrind) names it;
  // a binary replaced since it started reads "... (deleted)", which execv refuses.
  std::array<char, 4096> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0 || static_cast<std::size_t>(length) >= path.size() - 1) return;
  if (setenv("GOMP_SPINCOUNT", kSpinCount, 1) != 0) return;
  execv(path.data(), argv);  // returns only when it failed: run on as started
  unsetenv("GOMP_SPINCOUNT");
}

std::string spin_wait_setting() {
  for (const char* name : {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT"}) {
    if (const char* value = std::getenv(name)) return std::string(name) + "=" + value;
  }
  return "the OpenMP runtime's default";
}

}  // namespace claimrag::cli
