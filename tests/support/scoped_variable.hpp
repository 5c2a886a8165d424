#pragma once
// An environment variable set for the commands a test runs while it lives.

#include <cstdlib>

namespace claimrag::testing {

/// Sets `name` to `value` for the test's child processes and removes it afterwards.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedVariable() { ::unsetenv(name_); }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
};

}  // namespace claimrag::testing
