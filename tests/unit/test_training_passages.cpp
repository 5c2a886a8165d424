// The passages the free-text training inputs may add (add_passages, add_unrelated_passages), on
// claims built here: which documents each adds, with which label and sentences, and that the same
// seed adds the same passages.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/trained_verifier.hpp"

using namespace claimrag::verification;

namespace {

EvidenceDocument document(const std::string& id, std::size_t sentences) {
  EvidenceDocument doc{id, "title " + id, {}, 0, 0.0};
  for (std::size_t s = 0; s < sentences; ++s) doc.sentences.push_back(id + " sentence " + std::to_string(s) + ".");
  return doc;
}

// A claim citing `cited` (with `label` and rationale {1, 2} in it), plus the two added NOT_ENOUGH_INFO
// abstracts of the free-text setting, `neighbour` and `unrelated`, outside its family.
LabelledInput claim(const std::string& id, const std::string& cited, Label label, const std::string& neighbour,
                    const std::string& unrelated) {
  LabelledInput item;
  item.input = {id, "claim " + id, {document(cited, 5), document(neighbour, 6), document(unrelated, 4)}};
  item.gold = {GoldDocument{label, {{2, 1}}}, GoldDocument{}, GoldDocument{}};
  item.family_doc_ids = {cited};
  item.evidence.emplace(cited, item.gold.front());
  return item;
}

std::vector<LabelledInput> three_claims() {
  return {claim("c1", "A", Label::support, "N1", "U1"), claim("c2", "B", Label::contradict, "N2", "U2"),
          claim("c3", "C", Label::support, "N3", "U3")};
}

std::string base_id(const std::string& doc_id) { return doc_id.substr(0, doc_id.find('#')); }

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const EvidenceDocument* find_document(const LabelledInput& item, const std::string& doc_id) {
  for (const auto& doc : item.input.documents) {
    if (doc.doc_id == doc_id) return &doc;
  }
  return nullptr;
}

}  // namespace

TEST(UnrelatedPassages, AddsARunOfEachOffTopicAbstractAndAnotherClaimsRationaleAllNotEnoughInfo) {
  auto items = three_claims();
  add_unrelated_passages(items, 7);
  for (std::size_t c = 0; c < items.size(); ++c) {
    const LabelledInput& item = items[c];
    const LabelledInput original = three_claims()[c];
    ASSERT_EQ(item.input.documents.size(), item.gold.size());
    // The three documents it had, unchanged, then two "#unrelated" passages and one "#foreign".
    ASSERT_EQ(item.input.documents.size(), 6u) << item.input.claim_id;
    for (std::size_t d = 0; d < 3; ++d) EXPECT_EQ(item.input.documents[d].sentences, original.input.documents[d].sentences);
    for (std::size_t d = 3; d < 6; ++d) {
      EXPECT_EQ(item.gold[d].label, Label::not_enough_info);
      EXPECT_TRUE(item.gold[d].rationale_sets.empty());
    }
    for (const std::size_t d : {std::size_t{1}, std::size_t{2}}) {
      const EvidenceDocument& source = item.input.documents[d];
      const EvidenceDocument* passage = find_document(item, source.doc_id + "#unrelated");
      ASSERT_NE(passage, nullptr) << source.doc_id;
      ASSERT_GE(passage->sentences.size(), 1u);
      ASSERT_LE(passage->sentences.size(), 3u);
      // Consecutive sentences of its abstract.
      const auto first = std::find(source.sentences.begin(), source.sentences.end(), passage->sentences.front());
      ASSERT_NE(first, source.sentences.end());
      EXPECT_TRUE(std::equal(passage->sentences.begin(), passage->sentences.end(), first));
    }
    // The foreign passage: another claim's first rationale, in document order, from outside the family.
    const EvidenceDocument& foreign = item.input.documents[5];
    ASSERT_TRUE(ends_with(foreign.doc_id, "#foreign")) << foreign.doc_id;
    const std::string source_id = base_id(foreign.doc_id);
    EXPECT_NE(source_id, item.family_doc_ids.front());
    EXPECT_EQ(foreign.sentences, (std::vector<std::string>{source_id + " sentence 1.", source_id + " sentence 2."}));
    // Nothing added joins the family or the gold evidence the metrics count.
    EXPECT_EQ(item.family_doc_ids, original.family_doc_ids);
    EXPECT_EQ(item.evidence.size(), 1u);
  }
}

TEST(UnrelatedPassages, SameSeedSameInputsOtherSeedOtherDraws) {
  auto first = three_claims();
  auto second = three_claims();
  add_unrelated_passages(first, 11);
  add_unrelated_passages(second, 11);
  const auto sentences_of = [](const std::vector<LabelledInput>& items) {
    std::vector<std::vector<std::string>> out;
    for (const auto& item : items) {
      for (const auto& doc : item.input.documents) {
        out.push_back(doc.sentences);
        out.back().push_back(doc.doc_id);
      }
    }
    return out;
  };
  EXPECT_EQ(sentences_of(first), sentences_of(second));
  bool differs = false;
  for (std::uint64_t seed = 12; seed < 20 && !differs; ++seed) {
    auto other = three_claims();
    add_unrelated_passages(other, seed);
    differs = sentences_of(other) != sentences_of(first);
  }
  EXPECT_TRUE(differs) << "the draws never depend on the seed";
}

TEST(UnrelatedPassages, NeverCutsFromTheClaimsOwnAbstractsOrTheirPassages) {
  // After add_passages the claim has "#evidence" and "#other" passages of its cited abstract,
  // outside its family by id: none of them may come back as an unrelated NOT_ENOUGH_INFO passage.
  auto items = three_claims();
  add_passages(items, 3);
  const std::size_t before = items.front().input.documents.size();
  ASSERT_NE(find_document(items.front(), "A#evidence"), nullptr);
  add_unrelated_passages(items, 3);
  for (const auto& item : items) {
    for (std::size_t d = 0; d < item.input.documents.size(); ++d) {
      const std::string& id = item.input.documents[d].doc_id;
      if (ends_with(id, "#unrelated") || ends_with(id, "#foreign")) {
        EXPECT_NE(base_id(id), item.family_doc_ids.front()) << item.input.claim_id << " " << id;
      }
    }
  }
  // Two unrelated runs (the neighbour and the unrelated abstract) and one foreign passage.
  EXPECT_EQ(items.front().input.documents.size(), before + 3);
}

TEST(UnrelatedPassages, AClaimWhoseOnlyForeignEvidenceIsItsOwnFamilyGetsNone) {
  // Both claims cite A: the only foreign rationale is always in the family, so after 8 tries none is added.
  std::vector<LabelledInput> items{claim("c1", "A", Label::support, "N1", "U1"),
                                   claim("c2", "A", Label::contradict, "N2", "U2")};
  add_unrelated_passages(items, 5);
  for (const auto& item : items) {
    EXPECT_EQ(item.input.documents.size(), 5u);
    for (const auto& doc : item.input.documents) EXPECT_FALSE(ends_with(doc.doc_id, "#foreign")) << doc.doc_id;
  }
}

TEST(TrainingPassages, EvidencePassageKeepsTheLabelAndOtherSentenceIsNotEnoughInfo) {
  auto items = three_claims();
  add_passages(items, 3);
  const LabelledInput& item = items[1];  // CONTRADICT, rationale {1, 2} of B
  const EvidenceDocument* evidence = find_document(item, "B#evidence");
  ASSERT_NE(evidence, nullptr);
  EXPECT_EQ(evidence->sentences, (std::vector<std::string>{"B sentence 1.", "B sentence 2."}));
  ASSERT_EQ(item.evidence.count("B#evidence"), 1u);
  EXPECT_EQ(item.evidence.at("B#evidence").label, Label::contradict);
  const EvidenceDocument* other = find_document(item, "B#other");
  ASSERT_NE(other, nullptr);
  ASSERT_EQ(other->sentences.size(), 1u);
  EXPECT_NE(other->sentences.front(), "B sentence 1.");
  EXPECT_NE(other->sentences.front(), "B sentence 2.");
  // The added NOT_ENOUGH_INFO abstracts (outside the family) get no passages.
  EXPECT_EQ(find_document(item, "N2#evidence"), nullptr);
  EXPECT_EQ(find_document(item, "N2#other"), nullptr);
}

TEST(UnrelatedPassages, TheOptionIsPartOfTheRecordedOptions) {
  // options_text is what a saved model records and what the cache key reads: a model trained
  // with the unrelated passages is never taken for one trained without them.
  VerificationOptions off;
  VerificationOptions on;
  on.unrelated_passages = true;
  EXPECT_NE(options_text(off), options_text(on));
  EXPECT_NE(options_text(on).find("\"unrelated_passages\":true"), std::string::npos) << options_text(on);
}
