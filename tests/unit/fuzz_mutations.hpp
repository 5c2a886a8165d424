#pragma once
// Seeded damage for the readers' fuzz tests: the mutations a bad disk, a cut transfer or a hostile
// writer produce (flipped bits, truncation, inserted bytes, forged numbers), and the checksum
// repairs that let a damaged file past its checksum so that the structural checks are reached.

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "claimrag/io/checksum.hpp"
#include "claimrag/io/safetensors_checksum.hpp"

namespace claimrag::testing {

/// One random mutation of `bytes` (never empty on entry).
inline void mutate(std::string& bytes, std::mt19937_64& rng) {
  const auto at = [&](std::size_t size) { return static_cast<std::size_t>(rng() % (size == 0 ? 1 : size)); };
  switch (rng() % 7) {
    case 0:  // a flipped bit
      if (!bytes.empty()) bytes[at(bytes.size())] ^= static_cast<char>(1u << (rng() % 8));
      break;
    case 1:  // cut short
      bytes.resize(at(bytes.size()));
      break;
    case 2: {  // inserted bytes
      std::string inserted(1 + rng() % 8, '\0');
      for (char& c : inserted) c = static_cast<char>(rng());
      bytes.insert(at(bytes.size() + 1), inserted);
      break;
    }
    case 3: {  // a forged 64-bit number: huge, just past a boundary, or zero
      if (bytes.size() < 8) break;
      const std::uint64_t choices[] = {rng(), rng() % 64, ~std::uint64_t{0}, 0, std::uint64_t{1} << 40};
      const std::uint64_t value = choices[rng() % 5];
      std::memcpy(bytes.data() + at(bytes.size() - 7), &value, sizeof value);
      break;
    }
    case 4: {  // a forged 32-bit number
      if (bytes.size() < 4) break;
      const std::uint32_t value = rng() % 2 == 0 ? static_cast<std::uint32_t>(rng()) : static_cast<std::uint32_t>(rng() % 16);
      std::memcpy(bytes.data() + at(bytes.size() - 3), &value, sizeof value);
      break;
    }
    case 5: {  // a changed digit: shapes, offsets and options in text headers
      const std::size_t start = at(bytes.size());
      const std::size_t digit = bytes.find_first_of("0123456789", start);
      if (digit != std::string::npos) bytes[digit] = static_cast<char>('0' + rng() % 10);
      break;
    }
    default: {  // a number made huge or negative
      const std::size_t start = at(bytes.size());
      const std::size_t digit = bytes.find_first_of("0123456789", start);
      if (digit != std::string::npos) bytes.insert(digit, rng() % 2 == 0 ? "99999999999" : "-");
      break;
    }
  }
}

}  // namespace claimrag::testing
