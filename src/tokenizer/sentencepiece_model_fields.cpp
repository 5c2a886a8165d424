#include "sentencepiece_model_fields.hpp"

#include <cstdint>
#include <vector>

#include "claimrag/error.hpp"

namespace claimrag::tokenizer {
namespace {

// A reader of protobuf's wire format over one message's bytes.
class WireReader {
 public:
  WireReader(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}

  [[nodiscard]] bool done() const { return at_ >= bytes_.size(); }

  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (done()) broken("a number runs past the end");
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    broken("a number longer than 10 bytes");
  }

  std::string_view length_delimited() {
    const std::uint64_t length = varint();
    if (length > bytes_.size() - at_) broken("a field's length runs past the end");
    const std::string_view field = bytes_.substr(at_, static_cast<std::size_t>(length));
    at_ += static_cast<std::size_t>(length);
    return field;
  }

  // Skips a field of `wire_type` (0 varint, 1 fixed 64, 2 length-delimited, 5 fixed 32).
  void skip(std::uint64_t wire_type) {
    switch (wire_type) {
      case 0: (void)varint(); return;
      case 1: advance(8); return;
      case 2: (void)length_delimited(); return;
      case 5: advance(4); return;
      default: broken("wire type " + std::to_string(wire_type) + " is not protobuf's");
    }
  }

  // Every length-delimited field numbered `number`, in order: protobuf merges the occurrences of
  // a message field and keeps the last of a bytes field, so a reader must see them all.
  std::vector<std::string_view> all(std::uint64_t number) {
    std::vector<std::string_view> fields;
    while (!done()) {
      const std::uint64_t key = varint();
      if (key >> 3 == number && (key & 7) == 2) {
        fields.push_back(length_delimited());
      } else {
        skip(key & 7);
      }
    }
    return fields;
  }

 private:
  void advance(std::size_t count) {
    if (count > bytes_.size() - at_) broken("a fixed-size field runs past the end");
    at_ += count;
  }
  [[noreturn]] void broken(const std::string& why) const {
    throw DataError(source_, "not a SentencePiece model (its protobuf is broken: " + why + ")");
  }

  std::string_view bytes_;
  const std::string& source_;
  std::size_t at_ = 0;
};

constexpr std::uint64_t kNormalizerSpec = 3;      // ModelProto.normalizer_spec
constexpr std::uint64_t kPrecompiledCharsmap = 2;  // NormalizerSpec.precompiled_charsmap

}  // namespace

std::optional<std::string_view> sentencepiece_normalizer_charsmap(std::string_view model, const std::string& source) {
  std::optional<std::string_view> charsmap;
  for (const std::string_view normalizer : WireReader(model, source).all(kNormalizerSpec)) {
    for (const std::string_view bytes : WireReader(normalizer, source).all(kPrecompiledCharsmap)) charsmap = bytes;
  }
  return charsmap;
}

}  // namespace claimrag::tokenizer
