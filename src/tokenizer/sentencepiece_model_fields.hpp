#pragma once
// The one field of a serialized SentencePiece ModelProto that claimrag checks itself before
// libsentencepiece reads the model: the normalizer's precompiled charsmap (ModelProto field 3,
// normalizer_spec; NormalizerSpec field 2, precompiled_charsmap), whose replacements are bounded
// as a tokenizer.json's are (precompiled_charsmap.hpp), since libsentencepiece applies any
// replacement whatever its length.

#include <optional>
#include <string>
#include <string_view>

namespace claimrag::tokenizer {

/// The normalizer's precompiled charsmap bytes of `model` (a serialized ModelProto), none when
/// the model has no normalizer or no charsmap. DataError naming `source` when the protobuf wire
/// format is broken on the way to it (a length past the end, an unknown wire type).
std::optional<std::string_view> sentencepiece_normalizer_charsmap(std::string_view model, const std::string& source);

}  // namespace claimrag::tokenizer
