#pragma once
// Whether a process id still names a running process: what lets claimrag tell the leftovers of a
// killed run (safe to clean) from files another run is writing right now (never touched).

namespace claimrag::io {

/// True when `pid` is this process or a live one (including one we may not signal). A reused pid
/// reads as alive, which errs on the side of leaving files alone.
bool process_alive(long pid);

}  // namespace claimrag::io
