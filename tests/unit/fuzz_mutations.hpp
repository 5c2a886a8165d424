#pragma once
// Seeded damage for the readers' fuzz tests: the mutations a bad disk, a cut transfer or a hostile
// writer produce (flipped bits, truncation, inserted bytes, forged numbers), and the checksum
// repairs that let a damaged file past its checksum so that the structural checks are reached.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <typeinfo>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/safetensors_checksum.hpp"

namespace claimrag::testing {

/// The resealing step of a format without a checksum: nothing to repair.
inline void no_reseal(std::string&) {}

/// One random mutation of `bytes` (never empty on entry).
inline void mutate(std::string& bytes, std::mt19937_64& rng) {
  const auto at = [&](std::size_t size) { return static_cast<std::size_t>(rng() % (size == 0 ? 1 : size)); };
  switch (rng() % 8) {
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
    case 6: {  // deep nesting, as a crafted JSON text would hold: a stack overflow for a recursive reader
      const std::size_t depth = rng() % 2 == 0 ? 129 + rng() % 64 : 20000 + rng() % 80000;
      bytes.insert(at(bytes.size() + 1), std::string(depth, rng() % 2 == 0 ? '[' : '{'));
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

/// Loads a file and, when it loads, uses what was loaded the way claimrag would.
using Reader = std::function<void(const std::filesystem::path& file)>;

/// Writes `rounds` mutated versions of `original` (1 to 3 mutations each, then `reseal`) to
/// `file` and reads each with `read`: each must load or be refused with a DataError whose message
/// contains `named` (the file, unless given), never another exception or a crash. A version that
/// fails is kept as `file`.failing; at least one version must be refused.
inline void fuzz_reader(const std::string& original, const std::filesystem::path& file, const Reader& read,
                        const std::function<void(std::string&)>& reseal, std::uint64_t seed, int rounds,
                        const std::string& named = "") {
  std::mt19937_64 rng(seed);
  const std::string expected_name = named.empty() ? file.string() : named;
  int refused = 0;
  for (int round = 0; round < rounds; ++round) {
    std::string bytes = original;
    const int mutations = 1 + static_cast<int>(rng() % 3);
    for (int m = 0; m < mutations; ++m) mutate(bytes, rng);
    reseal(bytes);
    io::write_file_atomically(file, bytes, true);
    try {
      read(file);
    } catch (const DataError& error) {
      ++refused;
      EXPECT_NE(std::string(error.what()).find(expected_name), std::string::npos) << error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << "seed " << seed << " round " << round << ": " << typeid(error).name() << ": " << error.what();
      io::write_file_atomically(file.string() + ".failing", bytes, true);
      return;
    }
  }
  EXPECT_GT(refused, 0) << "no mutation was refused: the test damages nothing";
}

}  // namespace claimrag::testing
