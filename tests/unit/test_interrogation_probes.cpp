// Probe files: loading, validation, sets and rendering.

#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/interrogation/probe.hpp"
#include "support/temp_folder.hpp"

namespace ci = claimrag::interrogation;

namespace {

std::string error_of(const std::filesystem::path& file) {
  try {
    ci::load_probes(file);
  } catch (const claimrag::UsageError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST(InterrogationProbes, ShippedProbeFileHasTwoAgreeAndFourConflictProbes) {
  const auto probes = ci::load_probes(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/probes.json");
  ASSERT_EQ(probes.size(), 6U);
  std::size_t agree = 0;
  std::size_t originals = 0;
  for (const auto& probe : probes) {
    agree += probe.set() == ci::ProbeSet::agree ? 1 : 0;
    originals += probe.original ? 1 : 0;
  }
  EXPECT_EQ(agree, 2U);
  EXPECT_EQ(originals, 1U);
  EXPECT_EQ(probes[0].id, "original");
  EXPECT_TRUE(probes[0].original);
  EXPECT_EQ(probes[2].id, "false");
  EXPECT_TRUE(probes[2].asks_false);
  EXPECT_EQ(probes[2].set(), ci::ProbeSet::conflict);
  EXPECT_TRUE(probes[4].negated_claim);
  EXPECT_EQ(probes[4].set(), ci::ProbeSet::conflict);
}

TEST(InterrogationProbes, RenderFillsEverySlot) {
  ci::Probe probe;
  probe.id = "p";
  probe.template_text = "A: {abstract}\nIs \"{claim}\" true? Again: {claim}. {other";
  EXPECT_EQ(ci::render_probe(probe, "C", "the text"), "A: the text\nIs \"C\" true? Again: C. {other");
}

TEST(InterrogationProbes, TemplateWithoutClaimSlotIsAUsageErrorNamingIt) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.write("p.json", R"({"probes": [{"id": "original", "original": true,
      "template": "Is it true?"}]})");
  const std::string message = error_of(file);
  EXPECT_NE(message.find("original"), std::string::npos) << message;
  EXPECT_NE(message.find("Is it true?"), std::string::npos) << message;
  EXPECT_NE(message.find("{claim}"), std::string::npos) << message;
}

TEST(InterrogationProbes, BadProbeFilesAreRefused) {
  claimrag::testing::TempFolder folder;
  const std::string ok = R"({"id": "original", "original": true, "template": "{claim}?"})";
  EXPECT_NE(error_of(folder.write("a.json", R"({"probes": [{"id": "x", "template": "{claim} {abstact}", "original": true}]})"))
                .find("unknown slot"),
            std::string::npos);
  EXPECT_NE(error_of(folder.write("b.json", R"({"probes": [)" + ok + "," + ok + "]}")).find("duplicate"),
            std::string::npos);
  EXPECT_NE(error_of(folder.write("c.json", R"({"probes": [{"id": "x", "template": "{claim}"}]})")).find("exactly one"),
            std::string::npos);
  EXPECT_NE(error_of(folder.write("d.json", R"({"probes": [{"id": "x", "template": "{claim}", "original": true,
      "asks": "maybe"}]})")).find("asks"),
            std::string::npos);
  EXPECT_NE(error_of(folder.write("e.json", R"({"probes": [{"id": "x", "template": "{claim}", "original": true,
      "polarity": "true"}]})")).find("polarity"),
            std::string::npos);
  EXPECT_NE(error_of(folder.write("f.json", R"({"probes": []})")).find("no probes"), std::string::npos);
  EXPECT_NE(error_of(folder.write("g.json", R"({"probes": [{"id": "x", "template": "{claim}", "original": true,
      "asks": "false"}]})")).find("must ask whether the claim is true"),
            std::string::npos);
  EXPECT_NE(error_of(folder.write("h.json", "not json")).find("not valid JSON"), std::string::npos);
}
