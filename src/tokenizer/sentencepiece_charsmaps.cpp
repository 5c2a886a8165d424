#include "sentencepiece_charsmaps.hpp"

#include <cstdint>

#include "claimrag/error.hpp"

namespace claimrag::tokenizer {
namespace {

constexpr std::uint64_t kNormalizerSpec = 3;
constexpr std::uint64_t kDenormalizerSpec = 5;
constexpr std::uint64_t kPrecompiledCharsmap = 2;

[[noreturn]] void malformed(const std::string& source, const std::string& why) {
  throw DataError(source, "not a SentencePiece model (" + why + ")");
}

std::uint64_t read_varint(std::string_view& bytes, const std::string& source) {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64 && !bytes.empty(); shift += 7) {
    const auto byte = static_cast<unsigned char>(bytes.front());
    bytes.remove_prefix(1);
    value |= static_cast<std::uint64_t>(byte & 0x7FU) << shift;
    if (byte < 0x80U) return value;
  }
  malformed(source, "a varint cut short or longer than 10 bytes");
}

void skip(std::string_view& bytes, std::uint64_t count, const std::string& source) {
  if (count > bytes.size()) malformed(source, "a field runs past the end of its message");
  bytes.remove_prefix(count);
}

/// Calls visit(field number, payload) for each length-delimited field of `message`, in order.
template <class Visit>
void for_each_length_delimited(std::string_view message, const std::string& source, Visit&& visit) {
  while (!message.empty()) {
    const std::uint64_t key = read_varint(message, source);
    switch (key & 7U) {
      case 0: (void)read_varint(message, source); break;
      case 1: skip(message, 8, source); break;
      case 5: skip(message, 4, source); break;
      case 2: {
        const std::uint64_t length = read_varint(message, source);
        const std::string_view payload = message.substr(0, length);
        skip(message, length, source);
        visit(key >> 3, payload);
        break;
      }
      default: malformed(source, "a field of wire type " + std::to_string(key & 7U) + ", which no SentencePiece message uses");
    }
  }
}

}  // namespace

std::vector<std::string_view> sentencepiece_charsmaps(std::string_view model, const std::string& source) {
  std::vector<std::string_view> charsmaps;
  for_each_length_delimited(model, source, [&](std::uint64_t field, std::string_view spec) {
    if (field != kNormalizerSpec && field != kDenormalizerSpec) return;
    for_each_length_delimited(spec, source, [&](std::uint64_t spec_field, std::string_view value) {
      if (spec_field == kPrecompiledCharsmap && !value.empty()) charsmaps.push_back(value);
    });
  });
  return charsmaps;
}

}  // namespace claimrag::tokenizer
