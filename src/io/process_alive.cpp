#include "claimrag/io/process_alive.hpp"

#include <signal.h>
#include <sys/types.h>

#include <cerrno>

namespace claimrag::io {

bool process_alive(long pid) {
  if (pid <= 0) return false;
  // Signal 0 checks existence without sending anything; EPERM means it exists under another user.
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace claimrag::io
