#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/safetensors_checksum.hpp"
#include "claimrag/nn/safetensors.hpp"

namespace fs = std::filesystem;
using claimrag::DataError;
using claimrag::nn::Matrix;
using claimrag::nn::ParameterRegistry;

namespace {

class Safetensors : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("claimrag_safetensors_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  fs::path path(const std::string& name) const { return folder_ / name; }

  // A file built byte by byte, independently of write_safetensors, with a valid checksum unless
  // `sealed` is false: the structure is what these tests judge.
  fs::path handmade(const std::string& name, std::string header, const std::vector<float>& data, bool sealed = true) {
    if (sealed) {
      const std::string field = R"("claimrag_checksum":"0000000000000000")";
      const auto metadata = header.find(R"("__metadata__":{)");
      if (metadata != std::string::npos) {
        header.insert(metadata + 16, field + (header[metadata + 16] == '}' ? "" : ","));
      } else {
        header.insert(1, R"("__metadata__":{)" + field + "},");
      }
    }
    std::string bytes;
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xFF));
    bytes += header;
    bytes.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float));
    if (sealed) claimrag::io::reseal_safetensors(bytes);
    claimrag::io::write_file_atomically(path(name), bytes, true);
    return path(name);
  }

  static void fill(ParameterRegistry<float>& registry) {
    auto& a = registry.add("a", 2, 3);
    auto& b = registry.add("b.bias", 1, 2);
    a.value << 1, 2, 3, 4, 5, 6;
    b.value << -0.5F, 0.25F;
  }

  // The message of the DataError that `action` throws.
  template <typename Action>
  static std::string error_of(Action action) {
    try {
      action();
    } catch (const DataError& error) {
      return error.what();
    }
    return "no DataError";
  }

  fs::path folder_;
};

}  // namespace

TEST_F(Safetensors, WritesTheDocumentedLayout) {
  ParameterRegistry<float> registry;
  fill(registry);
  claimrag::nn::save_registry(path("m.safetensors"), registry, {{"format_version", "1"}});
  const std::string bytes = claimrag::io::read_file(path("m.safetensors"));
  std::uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  EXPECT_EQ(length % 8, 0u);
  const auto header = nlohmann::json::parse(bytes.substr(8, length));
  EXPECT_EQ(header["a"]["dtype"], "F32");
  EXPECT_EQ(header["a"]["shape"], nlohmann::json({2, 3}));
  EXPECT_EQ(header["a"]["data_offsets"], nlohmann::json({0, 24}));
  EXPECT_EQ(header["b.bias"]["data_offsets"], nlohmann::json({24, 32}));
  EXPECT_EQ(header["__metadata__"]["format_version"], "1");
  ASSERT_EQ(bytes.size(), 8 + length + 32);
  float third = 0;
  std::memcpy(&third, bytes.data() + 8 + length + 2 * sizeof(float), sizeof(float));
  EXPECT_EQ(third, 3.0F);
}

TEST_F(Safetensors, RoundTripRestoresValuesAndMetadata) {
  ParameterRegistry<float> saved;
  fill(saved);
  claimrag::nn::save_registry(path("m.safetensors"), saved, {{"seed", "42"}, {"note", "a b"}});
  ParameterRegistry<float> loaded;
  loaded.add("a", 2, 3);
  loaded.add("b.bias", 1, 2);
  const auto metadata = claimrag::nn::load_registry(path("m.safetensors"), loaded);
  EXPECT_EQ(loaded.find("a").value, saved.find("a").value);
  EXPECT_EQ(loaded.find("b.bias").value, saved.find("b.bias").value);
  EXPECT_EQ(metadata, (claimrag::nn::SafetensorsMetadata{{"seed", "42"}, {"note", "a b"}}));
}

TEST_F(Safetensors, ReadsAHandmadeFileWithAOneDimensionalTensorAndPadding) {
  const auto file = handmade(
      "h.safetensors",
      R"({"__metadata__":{"k":"v"},"w":{"dtype":"F32","shape":[3],"data_offsets":[8,20]},)"
      R"("z":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]}}   )",
      {7, 8, 1, 2, 3});
  const auto content = claimrag::nn::read_safetensors(file);
  ASSERT_EQ(content.tensors.size(), 2u);
  EXPECT_EQ(content.tensors[0].name, "z");  // in data order
  EXPECT_EQ(content.tensors[1].name, "w");
  EXPECT_EQ(content.tensors[1].value.rows(), 1);
  EXPECT_EQ(content.tensors[1].value, (Matrix<float>(1, 3) << 1, 2, 3).finished());
  EXPECT_EQ(content.metadata.at("k"), "v");
}

TEST_F(Safetensors, RefusesMalformedFilesNamingThem) {
  const auto bad = [&](const std::string& header, const std::vector<float>& data, const std::string& reason) {
    const auto file = handmade("bad.safetensors", header, data);
    const std::string message = error_of([&] { claimrag::nn::read_safetensors(file); });
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
  };
  bad(R"({"w":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}})", {0, 0}, "expected \"F32\"");
  bad(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", {0}, "do not match shape");
  bad(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", {0, 0}, "the file holds 8");
  bad(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", {0, 0}, "do not follow");
  bad(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"__metadata__":{"a":1}})", {0}, "not a string");
  bad(R"({"w":)", {}, "malformed safetensors header");
  claimrag::io::write_file_atomically(path("short.safetensors"), std::string("\x40\0\0\0\0\0\0\0{}", 10), true);
  EXPECT_NE(error_of([&] { claimrag::nn::read_safetensors(path("short.safetensors")); }).find("exceeds the file size"),
            std::string::npos);
}

TEST_F(Safetensors, AFlippedBitAnywhereIsRefused) {
  ParameterRegistry<float> registry;
  fill(registry);
  claimrag::nn::save_registry(path("m.safetensors"), registry, {{"vocabulary", R"(["alpha","beta"])"}});
  const std::string bytes = claimrag::io::read_file(path("m.safetensors"));
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ (1 << (i % 8)));
    claimrag::io::write_file_atomically(path("damaged.safetensors"), damaged, true);
    EXPECT_NE(error_of([&] { claimrag::nn::read_safetensors(path("damaged.safetensors")); }), "no DataError")
        << "byte " << i;
  }
}

TEST_F(Safetensors, AFileWithoutChecksumIsRefused) {
  const auto file = handmade("plain.safetensors", R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", {1},
                             /*sealed=*/false);
  EXPECT_NE(error_of([&] { claimrag::nn::read_safetensors(file); }).find("has no claimrag_checksum"), std::string::npos);
}

TEST_F(Safetensors, NanOrInfiniteWeightsAreRefusedAtLoad) {
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()}) {
    const auto file = handmade("nan.safetensors", R"({"w":{"dtype":"F32","shape":[1,3],"data_offsets":[0,12]}})",
                               {1, bad, 3});
    const std::string message = error_of([&] { claimrag::nn::read_safetensors(file); });
    EXPECT_NE(message.find("tensor 'w' holds"), std::string::npos) << message;
    EXPECT_NE(message.find("at index 1"), std::string::npos) << message;
  }
}

TEST_F(Safetensors, LoadRefusesAnotherModelsShapesOrNamesAndLeavesTheRegistryAlone) {
  ParameterRegistry<float> saved;
  fill(saved);
  claimrag::nn::save_registry(path("m.safetensors"), saved, {});

  ParameterRegistry<float> wrong_shape;
  auto& a = wrong_shape.add("a", 3, 2);
  wrong_shape.add("b.bias", 1, 2);
  a.value.setConstant(9);
  const std::string shape_message =
      error_of([&] { claimrag::nn::load_registry(path("m.safetensors"), wrong_shape); });
  EXPECT_NE(shape_message.find("tensor 'a' has shape [2, 3], expected [3, 2]"), std::string::npos) << shape_message;
  EXPECT_EQ(a.value, Matrix<float>::Constant(3, 2, 9));

  ParameterRegistry<float> missing;
  missing.add("a", 2, 3);
  missing.add("b.bias", 1, 2);
  missing.add("c", 1, 1);
  EXPECT_NE(error_of([&] { claimrag::nn::load_registry(path("m.safetensors"), missing); }).find("no tensor named 'c'"),
            std::string::npos);

  ParameterRegistry<float> fewer;
  fewer.add("a", 2, 3);
  EXPECT_NE(error_of([&] { claimrag::nn::load_registry(path("m.safetensors"), fewer); })
                .find("unexpected tensor 'b.bias'"),
            std::string::npos);
}

TEST_F(Safetensors, MissingFileIsADataError) {
  EXPECT_THROW(claimrag::nn::read_safetensors(path("absent.safetensors")), DataError);
}
