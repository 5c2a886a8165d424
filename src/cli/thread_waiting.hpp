#pragma once
// How long an idle OpenMP thread of the claimrag executable spins before it sleeps (see
// thread_waiting.cpp).

#include <string>

namespace claimrag::cli {

/// Unless the environment sets OMP_WAIT_POLICY or GOMP_SPINCOUNT, sets GOMP_SPINCOUNT to a short
/// spin and starts this executable again with the same arguments, so that the OpenMP runtime
/// reads it; returns (and the process runs on with the runtime's default) if that is not possible.
void restart_with_short_spin_waits(char** argv);

/// The setting the OpenMP runtime runs with, for the debug log: "OMP_WAIT_POLICY=...",
/// "GOMP_SPINCOUNT=..." or "the OpenMP runtime's default".
std::string spin_wait_setting();

}  // namespace claimrag::cli
