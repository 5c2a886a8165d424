// Every input read whole goes through io::read_file under a rule: a device is refused by name, a
// FIFO where the rule takes none is refused without waiting for a writer, a pipe is read to at
// most the rule's size, never to its end.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
namespace io = claimrag::io;
using claimrag::DataError;
using claimrag::UsageError;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

// Writes zeros into `fifo` until the reader goes away (the write then fails with EPIPE).
void flood_fifo_until_closed(const fs::path& fifo) {
  const int descriptor = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
  if (descriptor < 0) return;
  const std::string block(1 << 16, '0');
  while (::write(descriptor, block.data(), block.size()) > 0) {
  }
  ::close(descriptor);
}

}  // namespace

TEST(BoundedReading, ADeviceIsRefusedByNameBeforeAnythingIsRead) {
  expect_error<DataError>([] { (void)io::read_file("/dev/zero", io::kSettingsInput); }, "/dev/zero: is a device, not a regular file");
  expect_error<DataError>([] { (void)io::read_file("/dev/zero"); }, "/dev/zero: is a device");
  expect_error<DataError>([] { (void)claimrag::experiment::load_config("/dev/zero"); }, "/dev/zero: is a device");
  expect_error<UsageError>([] { (void)claimrag::verification::load_judge_prompt("/dev/zero"); }, "/dev/zero: is a device");
  expect_error<DataError>([] { (void)claimrag::verification::load_free_text_verifier("/dev/zero"); }, "/dev/zero: is a device");
  expect_error<DataError>(
      [] { (void)claimrag::dataset::for_each_json_object("/dev/zero", [](simdjson::dom::object, std::size_t) {}); },
      "/dev/zero: is a device");
}

TEST(BoundedReading, AFifoWhereAModelOrCacheIsReadIsRefusedWithoutWaitingForAWriter) {
  TempFolder folder;
  const auto fifo = folder.path() / "verifier.safetensors";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // No writer ever opens it: opening it would block for ever.
  expect_error<DataError>([&] { (void)claimrag::verification::load_free_text_verifier(fifo); },
                          "verifier.safetensors: is a FIFO (named pipe), not a regular file: a model file must be a regular file");
  expect_error<DataError>([&] { (void)io::read_file(fifo, io::kVocabularyInput); }, "is a FIFO");
}

TEST(BoundedReading, APipeIsReadToAtMostTheLimitNeverToItsEnd) {
  std::signal(SIGPIPE, SIG_IGN);  // the flooding writer learns of the reader's end by EPIPE
  TempFolder folder;
  const auto fifo = folder.path() / "config.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { flood_fifo_until_closed(fifo); });
  expect_error<DataError>([&] { (void)io::read_file(fifo, io::kSettingsInput); },
                          "config.json: larger than 16 MiB (16777216 bytes), the limit of a settings file: refused");
  writer.join();
}

TEST(BoundedReading, ARegularFileOverTheLimitIsRefusedBeforeItIsRead) {
  TempFolder folder;
  const auto big = folder.path() / "prompt.txt";
  (void)folder.write("prompt.txt", "");
  fs::resize_file(big, (std::uintmax_t{16} << 20) + 1);  // sparse: costs no disk
  expect_error<DataError>([&] { (void)io::read_file(big, io::kSettingsInput); }, "prompt.txt: larger than 16 MiB");
  fs::resize_file(big, std::uintmax_t{16} << 20);  // exactly the limit is read
  EXPECT_EQ(io::read_file(big, io::kSettingsInput).size(), std::size_t{16} << 20);
}
