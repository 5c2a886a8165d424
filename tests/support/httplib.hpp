#pragma once
// cpp-httplib for the tests' fake servers. Its <resolv.h> defines `_res` as a macro (glibc's
// resolver state), and Eigen names parameters `_res`: in a unit of the unity build where a file
// that includes httplib comes before the first that includes Eigen, Eigen's headers would not
// compile. Nothing in the tests uses the resolver state.

#include <httplib.h>

#ifdef _res
#undef _res
#endif
