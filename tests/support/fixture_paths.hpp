#pragma once
// Paths of the committed fixtures that many command-line tests read, relative to the source folder
// (the tests run claimrag from there). One definition, so that the test files that share a unit of
// the unity build do not define them each.

#include <string>

namespace claimrag::testing {

/// The tiny BEIR folder: five abstracts, a few queries and their qrels.
inline const std::string kTiny = "data/fixtures/tiny-beir";
/// The committed tiny random checkpoints (scripts/fixtures/).
inline const std::string kModels = "tests/fixtures/pretrained/models/";

}  // namespace claimrag::testing
