#pragma once
// The precompiled character maps inside a serialized SentencePiece model (sentencepiece_model.proto:
// ModelProto's normalizer_spec = 3 and denormalizer_spec = 5, each a NormalizerSpec whose
// precompiled_charsmap = 2), found by walking protobuf's wire format, as Debian's libsentencepiece
// ships no header of the message classes.

#include <string>
#include <string_view>
#include <vector>

namespace claimrag::tokenizer {

/// Every non-empty precompiled_charsmap of the model `model`, in file order (a spec given twice
/// gives each of its maps: all are checked, though protobuf keeps the last). DataError naming
/// `source` for bytes that are not protobuf's wire format.
std::vector<std::string_view> sentencepiece_charsmaps(std::string_view model, const std::string& source);

}  // namespace claimrag::tokenizer
