#include <gtest/gtest.h>

#include <map>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/sufficiency/benchmark.hpp"

using namespace claimrag;
using namespace claimrag::sufficiency;

namespace {

dataset::Abstract abstract(std::string id, std::vector<std::string> sentences) { return {std::move(id), "t", std::move(sentences), false}; }

dataset::Claim claim(std::string id, std::string text, std::map<std::string, std::vector<dataset::EvidenceSet>> evidence,
                     std::vector<std::string> cited) {
  return {std::move(id), std::move(text), std::move(evidence), std::move(cited)};
}

}  // namespace

TEST(SufficiencyBenchmark, VariantsAreMatchedAndSplitsDoNotShareFamilies) {
  const std::vector<dataset::Abstract> abstracts{
      abstract("10", {"Aspirin lowers stroke risk in adults.", "Aspirin lowers bleeding in trials.", "We enrolled patients.",
                      "Stroke risk fell with aspirin use.", "Funding was public."}),
      abstract("20", {"Statins raise muscle pain.", "Statins were given daily.", "Muscle pain rose among users."}),
      abstract("30", {"Aspirin and stroke were studied in mice.", "Stroke models vary.", "Aspirin doses differed."}),
      abstract("31", {"Aspirin risk in children is low.", "Adults had more stroke.", "Trials were small."}),
      abstract("32", {"Statins and muscle pain in elderly.", "Pain scores were recorded.", "Statins users were older."}),
      abstract("33", {"Muscle pain was common.", "Statins lowered cholesterol.", "Pain rose in winter."})};
  const std::vector<dataset::Claim> train{
      claim("1", "Aspirin lowers stroke risk.", {{"10", {{{0, 3}, "SUPPORT"}}}}, {"10"}),
      claim("3", "Statins cause muscle pain in everyone.", {}, {"20"})};  // shares abstract 20 with a test claim
  const std::vector<dataset::Claim> dev{claim("2", "Statins reduce muscle pain.", {{"20", {{{0}, "CONTRADICT"}}}}, {"20"})};
  BenchmarkOptions options;
  options.distractors = 1;
  options.foreign_abstracts = 2;
  options.folds = 2;
  options.dev_fold = 1;
  const Benchmark benchmark = build_benchmark(abstracts, train, dev, options);
  EXPECT_EQ(benchmark.dropped_train_claims, 0u);  // claim 3 has no evidence: dropped, but not counted as an evidence claim
  std::map<std::string, std::vector<const Example*>> groups;
  for (const auto& example : benchmark.examples) groups[example.group].push_back(&example);
  ASSERT_EQ(groups.size(), 2u);
  // Claim 1: full (Supported), partial, hard_insufficient, irrelevant, each with 2 + 1 passages.
  const auto& one = groups.at("1");
  ASSERT_EQ(one.size(), 4u);
  EXPECT_EQ(one[0]->variant, Variant::full);
  EXPECT_EQ(one[0]->label, SufficiencyLabel::supported);
  std::set<std::string> distractor_docs;
  for (const Example* example : one) {
    EXPECT_EQ(example->evidence.size(), 3u) << example->id;
    EXPECT_EQ(example->split, one[0]->split);
    if (example->variant != Variant::full) {
      EXPECT_EQ(example->label, SufficiencyLabel::insufficient);
    }
    for (const auto& source : example->sources) {
      EXPECT_NE(source.doc_id, "20");  // nothing of another claim's abstract
      if (source.doc_id != "10") distractor_docs.insert(source.doc_id);
    }
  }
  for (const auto& doc : distractor_docs) EXPECT_TRUE(doc == "30" || doc == "31" || doc == "32" || doc == "33") << doc;
  // The full variant holds both rationale sentences; the hard one none; the partial one exactly one.
  const auto rationale_count = [](const Example& example) {
    int count = 0;
    for (const auto& source : example.sources) count += source.doc_id == "10" && (source.sentence == 0 || source.sentence == 3);
    return count;
  };
  for (const Example* example : one) {
    const int expected = example->variant == Variant::full ? 2 : example->variant == Variant::partial ? 1 : 0;
    EXPECT_EQ(rationale_count(*example), expected) << example->id;
  }
  // The test claim: full (Refuted), hard_insufficient, irrelevant; no partial (one-sentence rationale).
  const auto& two = groups.at("2");
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[0]->label, SufficiencyLabel::refuted);
  for (const Example* example : two) EXPECT_EQ(example->split, "test");
  // Seeded: the same options give the same benchmark.
  const Benchmark again = build_benchmark(abstracts, train, dev, options);
  ASSERT_EQ(again.examples.size(), benchmark.examples.size());
  for (std::size_t i = 0; i < again.examples.size(); ++i) EXPECT_EQ(again.examples[i].evidence, benchmark.examples[i].evidence);
  options.folds = 1;
  EXPECT_THROW(build_benchmark(abstracts, train, dev, options), UsageError);
}

TEST(SufficiencyBenchmark, TrainClaimsWhoseFamilyReachesATestAbstractAreDropped) {
  const std::vector<dataset::Abstract> abstracts{
      abstract("20", {"Statins raise muscle pain.", "Statins were given daily.", "Muscle pain rose among users."}),
      abstract("21", {"Statins raise liver enzymes.", "Enzymes were measured.", "Liver damage was rare."}),
      abstract("32", {"Statins and muscle pain in elderly.", "Pain scores were recorded.", "Statins users were older."}),
      abstract("33", {"Muscle pain was common.", "Statins lowered cholesterol.", "Pain rose in winter."}),
      abstract("34", {"Liver enzymes and statins.", "Liver tests are cheap.", "Enzymes vary by age."})};
  // Train claim 4 cites 20 (a test abstract); claim 5 shares abstract 21 with claim 4: its family reaches 20 too.
  const std::vector<dataset::Claim> train{
      claim("4", "Statins raise muscle pain.", {{"20", {{{0}, "SUPPORT"}}}}, {"20", "21"}),
      claim("5", "Statins raise liver enzymes.", {{"21", {{{0}, "SUPPORT"}}}}, {"21"})};
  const std::vector<dataset::Claim> dev{claim("2", "Statins reduce muscle pain.", {{"20", {{{0}, "CONTRADICT"}}}}, {"20"})};
  BenchmarkOptions options;
  options.distractors = 1;
  options.foreign_abstracts = 2;
  const Benchmark benchmark = build_benchmark(abstracts, train, dev, options);
  EXPECT_EQ(benchmark.dropped_train_claims, 2u);
  for (const auto& example : benchmark.examples) EXPECT_EQ(example.split, "test");
}
