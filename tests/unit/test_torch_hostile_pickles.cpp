// Hostile PyTorch files built in the test, small and fast: a chain of containers far deeper than
// the nesting bound sees (linked through the memo), pickles whose values would cost far more
// memory than the file, and an archive of tens of thousands of storages.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/checkpoint_tensors.hpp"
#include "claimrag/pretrained/torch_pickle.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::pretrained {
namespace {

// `value` in `bytes` little-endian bytes; past the eighth, zeros (a run of zero fields written at once).
void append_little_for_pickles(std::string& out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out.push_back(static_cast<char>(i < 8 ? (value >> (8 * i)) & 0xFFU : 0U));
}

std::string pickle_text_for_pickles(const std::string& text) {
  std::string out = "X";
  append_little_for_pickles(out, text.size(), 4);
  return out + text;
}

std::string recall_for_pickles(std::size_t index) {
  std::string out = "j";
  append_little_for_pickles(out, index, 4);
  return out;
}

std::string pickle_error(const std::string& pickle) {
  try {
    (void)read_torch_pickle(pickle, "hostile/data.pkl", pickle.size());
  } catch (const DataError& error) {
    return error.what();
  }
  return "";
}

// Each dict is put in its parent before it is filled, then recalled from the memo to be filled in
// turn, and BUILD drops it from the stack: every dict stays one level deep when it is placed, yet
// the chain is 300,000 deep. Freeing it recursively overflows the C++ stack.
TEST(TorchHostilePickles, AChainDeeperThanTheNestingBoundIsFreedWithoutOverflow) {
  constexpr std::size_t kLevels = 300'000;
  std::string pickle = "\x80\x02}";
  pickle += "}\x94" "b";  // memo 0: the first dict of the chain, never in the state dict
  for (std::size_t level = 0; level < kLevels; ++level) {
    pickle += recall_for_pickles(level) + pickle_text_for_pickles("k") + "}\x94" "sb";
  }
  pickle += ".";
  // The archive around such a pickle may be large enough (its members padded) for the memory bound
  // to let the chain through.
  TorchStateDict dict;
  ASSERT_NO_THROW(dict = read_torch_pickle(pickle, "chain/data.pkl", 100 * pickle.size()));
  EXPECT_TRUE(dict.tensors.empty());
}

// Two bytes of file (EMPTY_DICT, APPEND) make a whole value on the heap: without a bound a 12 MB
// file takes gigabytes. The machine counts what it holds and refuses past 16 times the file.
TEST(TorchHostilePickles, APickleCostingMoreThanItsBoundInMemoryIsRefused) {
  std::string dicts = "\x80\x02]";
  for (std::size_t i = 0; i < 200'000; ++i) dicts += "}a";
  dicts += ".";
  const std::string refused = "needs more memory than " + std::to_string(kTorchPickleMemoryFactor) + " times the file's " +
                              std::to_string(dicts.size()) + " bytes";
  const std::string message = pickle_error(dicts);
  EXPECT_NE(message.find("hostile/data.pkl: "), std::string::npos) << message;
  EXPECT_NE(message.find(refused), std::string::npos) << message;

  // A memo flood: one value stored under a new index at every byte is refused at once (Python's
  // pickler stores each object once); a new value stored at every other byte meets the bound.
  const std::string memo = "\x80\x02N" + std::string(400'000, '\x94') + ".";
  EXPECT_NE(pickle_error(memo).find("memoizes one value twice (memo index 1)"), std::string::npos) << pickle_error(memo);
  std::string fresh = "\x80\x02";
  for (std::size_t i = 0; i < 200'000; ++i) fresh += "}\x94";
  fresh += ".";
  EXPECT_NE(pickle_error(fresh).find("needs more memory than"), std::string::npos) << pickle_error(fresh);
  // A memo index far past the entries stored is paid for as the slots it adds, and refused.
  std::string sparse = "\x80\x02Nr";
  sparse += std::string("\xff\xff\xff\x7f", 4) + ".";
  EXPECT_NE(pickle_error(sparse).find("needs more memory than"), std::string::npos) << pickle_error(sparse);
}

// NONE then APPEND, two bytes each: None is one shared value, so the list costs its slots (16
// bytes a byte with their growth), within the bound: the pickle is read, then refused for what it
// is, not a dict.
TEST(TorchHostilePickles, ConstantsAreSharedAndTheirSlotsCounted) {
  std::string nones = "\x80\x02]";
  for (std::size_t i = 0; i < 200'000; ++i) nones += "Na";
  nones += ".";
  EXPECT_NE(pickle_error(nones).find("the pickle holds no dict of tensors"), std::string::npos) << pickle_error(nones);
}

// A stored (uncompressed) zip archive of named members, as torch.save writes one.
std::string stored_zip_for_pickles(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string archive;
  std::string directory;
  for (const auto& [name, data] : members) {
    const std::size_t local = archive.size();
    archive += "PK\x03\x04";
    append_little_for_pickles(archive, 20, 2);
    append_little_for_pickles(archive, 0, 2 + 2 + 2 + 2 + 4);  // flags, method, time, date; crc
    append_little_for_pickles(archive, data.size(), 4);
    append_little_for_pickles(archive, data.size(), 4);
    append_little_for_pickles(archive, name.size(), 2);
    append_little_for_pickles(archive, 0, 2);
    archive += name + data;
    directory += "PK\x01\x02";
    append_little_for_pickles(directory, 20, 2);
    append_little_for_pickles(directory, 20, 2);
    append_little_for_pickles(directory, 0, 2 + 2 + 2 + 2 + 4);
    append_little_for_pickles(directory, data.size(), 4);
    append_little_for_pickles(directory, data.size(), 4);
    append_little_for_pickles(directory, name.size(), 2);
    append_little_for_pickles(directory, 0, 2 + 2 + 2 + 2 + 4);  // extra, comment, disk, attributes
    append_little_for_pickles(directory, local, 4);
    directory += name;
  }
  const std::size_t directory_offset = archive.size();
  archive += directory + "PK\x05\x06";
  append_little_for_pickles(archive, 0, 4);
  append_little_for_pickles(archive, members.size(), 2);
  append_little_for_pickles(archive, members.size(), 2);
  append_little_for_pickles(archive, directory.size(), 4);
  append_little_for_pickles(archive, directory_offset, 4);
  append_little_for_pickles(archive, 0, 2);
  return archive;
}

// A state dict of `count` one-element float tensors, tensor i over storage "i".
std::string one_element_state_dict(std::size_t count) {
  std::string pickle = "\x80\x02}";
  for (std::size_t i = 0; i < count; ++i) {
    const std::string key = std::to_string(i);
    pickle += pickle_text_for_pickles("t" + key) + "ctorch._utils\n_rebuild_tensor_v2\n(";
    pickle += "(" + pickle_text_for_pickles("storage") + "ctorch\nFloatStorage\n" + pickle_text_for_pickles(key) +
              pickle_text_for_pickles("cpu") + "K\x01tQ";
    pickle += "K";
    pickle.push_back('\0');  // storage offset 0
    pickle += "K\x01\x85K\x01\x85\x89" "ccollections\nOrderedDict\n)R" "tRs";
  }
  return pickle + ".";
}

// Each tensor's storage member is looked up in an index of the archive built once; scanning every
// member for each tensor took seconds at this size (and minutes at a few times it).
TEST(TorchHostilePickles, ManyStoragesAreFoundWithoutScanningEveryMember) {
  constexpr std::size_t kStorages = 20'000;
  std::vector<std::pair<std::string, std::string>> members{{"archive/data.pkl", one_element_state_dict(kStorages)}};
  for (std::size_t i = 0; i < kStorages; ++i) members.emplace_back("archive/data/" + std::to_string(i), std::string(4, '\0'));
  const testing::TempFolder temp;
  {
    std::ofstream out(temp.path() / "pytorch_model.bin", std::ios::binary);
    out << stored_zip_for_pickles(members);
  }
  const auto started = std::chrono::steady_clock::now();
  const CheckpointTensors tensors(temp.path());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_TRUE(tensors.contains("t0"));
  EXPECT_TRUE(tensors.contains("t" + std::to_string(kStorages - 1)));
  EXPECT_LT(seconds, 2.0);
}

}  // namespace
}  // namespace claimrag::pretrained
