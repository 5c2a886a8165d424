// The claim negation rewriter on hand-written claims: every rule, its rule name, the order of
// the rules, and claims that must not be rewritten wrongly.

#include <gtest/gtest.h>

#include <string>

#include "claimrag/text/direction_words.hpp"
#include "claimrag/text/negation.hpp"

using claimrag::text::negate_claim;
using claimrag::text::negation_rule_name;
using claimrag::text::NegationRule;

namespace {

struct Case {
  const char* claim;
  const char* negated;
  NegationRule rule;
};

void expect_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const auto result = negate_claim(c.claim);
    EXPECT_TRUE(result.applied) << c.claim;
    EXPECT_EQ(result.text, c.negated) << c.claim;
    EXPECT_EQ(negation_rule_name(result.rule), negation_rule_name(c.rule)) << c.claim;
  }
}

}  // namespace

TEST(Negation, RemovesDoSupportWithVerbAgreement) {
  expect_cases({
      {"Aspirin does not increase bleeding.", "Aspirin increases bleeding.", NegationRule::remove_do_not},
      {"Statins do not reduce mortality.", "Statins reduce mortality.", NegationRule::remove_do_not},
      {"The drug did not improve survival.", "The drug improved survival.", NegationRule::remove_do_not},
      {"The drug doesn't affect sleep.", "The drug affects sleep.", NegationRule::remove_do_not},
      {"Vitamin D does not significantly alter bone density.", "Vitamin D significantly alters bone density.",
       NegationRule::remove_do_not},
      {"Obesity does not have a genetic component.", "Obesity has a genetic component.", NegationRule::remove_do_not},
      {"Exercise does not modify mood.", "Exercise modifies mood.", NegationRule::remove_do_not},      // -y -> -ies
      {"The virus does not reach the brain.", "The virus reaches the brain.", NegationRule::remove_do_not},  // -ch -> -ches
      {"Does not apply to children.", "Applies to children.", NegationRule::remove_do_not},  // capital moves
  });
}

TEST(Negation, RemovesNotAfterAuxiliariesAndContractions) {
  expect_cases({
      {"Smoking is not associated with asthma.", "Smoking is associated with asthma.", NegationRule::remove_not},
      {"Mutations are not required for growth.", "Mutations are required for growth.", NegationRule::remove_not},
      {"The protein was not detected.", "The protein was detected.", NegationRule::remove_not},
      {"Klf4 has not been shown to matter.", "Klf4 has been shown to matter.", NegationRule::remove_not},
      {"X cannot bind Y.", "X can bind Y.", NegationRule::remove_not},
      {"X can't bind Y.", "X can bind Y.", NegationRule::remove_not},
      {"The effect isn't significant.", "The effect is significant.", NegationRule::remove_not},
      {"Not all patients respond.", "All patients respond.", NegationRule::remove_not},
  });
}

TEST(Negation, RemovesOtherCues) {
  expect_cases({
      {"Exercise has no effect on mood.", "Exercise has an effect on mood.", NegationRule::remove_no},
      {"These patients have no side effects.", "These patients have side effects.", NegationRule::remove_no},
      {"There is no evidence of harm.", "There is evidence of harm.", NegationRule::remove_no},
      {"No association was found.", "An association was found.", NegationRule::remove_no},
      {"Treatment never cures the disease.", "Treatment cures the disease.", NegationRule::remove_never},
      {"Mice without IL-6 survive.", "Mice with IL-6 survive.", NegationRule::remove_without},
      {"Lack of sleep causes obesity.", "Presence of sleep causes obesity.", NegationRule::remove_lack},
      {"The mutant lacks kinase activity.", "The mutant has kinase activity.", NegationRule::remove_lack},
      {"The drug fails to reduce pain.", "The drug reduces pain.", NegationRule::remove_fail_to},
      {"The drug failed to reduce pain.", "The drug reduced pain.", NegationRule::remove_fail_to},
      {"Cells are unable to divide.", "Cells are able to divide.", NegationRule::remove_fail_to},
  });
}

TEST(Negation, SwapsTheDirectionWordOfThePredicate) {
  expect_cases({
      {"Insulin increases glucose uptake.", "Insulin decreases glucose uptake.", NegationRule::swap_direction},
      {"Insulin decreased glucose uptake.", "Insulin increased glucose uptake.", NegationRule::swap_direction},
      {"Statins reduce mortality.", "Statins increase mortality.", NegationRule::swap_direction},
      {"Smokers have higher mortality.", "Smokers have lower mortality.", NegationRule::swap_direction},
      {"Drug A is more effective than placebo.", "Drug A is less effective than placebo.", NegationRule::swap_direction},
      // the subject's "Higher" stays: the predicate's direction word is the one swapped
      {"Higher plasma levels of X are positively correlated with Y.",
       "Higher plasma levels of X are negatively correlated with Y.", NegationRule::swap_direction},
      // the article follows the new word
      {"Pioglitazone is associated with an increased risk of cancer.",
       "Pioglitazone is associated with a decreased risk of cancer.", NegationRule::swap_direction},
      {"IL-6 up-regulates TNF expression.", "IL-6 down-regulates TNF expression.", NegationRule::swap_direction},
      {"TGF-beta downregulates SMAD7.", "TGF-beta upregulates SMAD7.", NegationRule::swap_direction},
      {"BCL-2 promotes apoptosis.", "BCL-2 inhibits apoptosis.", NegationRule::swap_direction},
      {"p53 inhibits tumour growth.", "p53 promotes tumour growth.", NegationRule::swap_direction},
      {"Loss of PTEN activates AKT.", "Loss of PTEN inhibits AKT.", NegationRule::swap_direction},
      {"Exercise enhances memory.", "Exercise reduces memory.", NegationRule::swap_direction},
      {"Sleep improves memory.", "Sleep worsens memory.", NegationRule::swap_direction},
      {"CRP is HIGHER in sepsis.", "CRP is LOWER in sepsis.", NegationRule::swap_direction},  // capitals kept
      {"Increased TNF causes fever.", "Decreased TNF causes fever.", NegationRule::swap_direction},  // only one
  });
}

TEST(Negation, InsertsAfterAnAuxiliaryOrBeforeTheMainVerb) {
  expect_cases({
      {"Aspirin causes bleeding.", "Aspirin does not cause bleeding.", NegationRule::insert_before_verb},
      {"Metformin modifies gut flora.", "Metformin does not modify gut flora.", NegationRule::insert_before_verb},
      {"Natriuretic peptides protect against diabetes.", "Natriuretic peptides do not protect against diabetes.",
       NegationRule::insert_before_verb},
      {"Obesity has a genetic component.", "Obesity does not have a genetic component.", NegationRule::insert_before_verb},
      {"The trial required the patients to fast.", "The trial did not require the patients to fast.",
       NegationRule::insert_before_verb},
      {"Obesity is a risk factor for diabetes.", "Obesity is not a risk factor for diabetes.",
       NegationRule::insert_after_auxiliary},
      {"Aspirin has been shown to be safe.", "Aspirin has not been shown to be safe.", NegationRule::insert_after_auxiliary},
      {"The vaccine can block infection.", "The vaccine cannot block infection.", NegationRule::insert_after_auxiliary},
      {"There is a relation between X and Y.", "There is no relation between X and Y.", NegationRule::insert_after_auxiliary},
      {"The patients were randomised in 2001.", "The patients were not randomised in 2001.",
       NegationRule::insert_after_auxiliary},
      // a plural subject before its verb, and the verb of a relative clause, are skipped
      {"Changes in diet affect weight.", "Changes in diet do not affect weight.", NegationRule::insert_before_verb},
      {"Genes that are mutated cause disease.", "Genes that are mutated do not cause disease.",
       NegationRule::insert_before_verb},
  });
}

TEST(Negation, KeepsWordsThatOnlyContainACueAndBytesOutsideTheEdit) {
  expect_cases({
      // "Notably", "knot" and "nothing"-like words are not "not"
      {"Notably, the knot protein binds DNA.", "Notably, the knot protein does not bind DNA.",
       NegationRule::insert_before_verb},
      // numbers, units and punctuation come through byte for byte
      {"IL-6 levels rise 2.5-fold (p<0.05) in 10% of patients.",
       "IL-6 levels do not rise 2.5-fold (p<0.05) in 10% of patients.", NegationRule::insert_before_verb},
      // "NO" (nitric oxide) in capitals is not the cue "no"
      {"NAC destabilizes NO in cells.", "NAC does not destabilize NO in cells.", NegationRule::insert_before_verb},
      // a contrast "X, not Y" is not the claim's negation
      {"The effect occurs in visceral fat, not subcutaneous fat.",
       "The effect does not occur in visceral fat, not subcutaneous fat.", NegationRule::insert_before_verb},
      // non-ASCII bytes are copied unchanged
      {"IL-1\xCE\xB2 increases fever.", "IL-1\xCE\xB2 decreases fever.", NegationRule::swap_direction},
  });
}

TEST(Negation, ReportsClaimsNoRuleCanNegate) {
  for (const char* claim : {"Nothing is known about the knot protein.",  // a negation without a rule to remove it
                            "It works not only in mice but in humans.",   // "not only" is no negation; "works" unknown
                            "1 in 5 patients relapse.", "", "   ", "\xCE\xB1\xCE\xB2"}) {
    const auto result = negate_claim(claim);
    EXPECT_FALSE(result.applied) << claim;
    EXPECT_EQ(result.rule, NegationRule::none) << claim;
    EXPECT_EQ(result.text, claim);
    EXPECT_EQ(negation_rule_name(result.rule), "none");
  }
}

TEST(Negation, RemovalComesBeforeSwapAndSwapBeforeInsertion) {
  // Both a cue and a direction word: the cue is removed, the direction word kept.
  EXPECT_EQ(negate_claim("Statins do not increase mortality.").text, "Statins increase mortality.");
  // A direction verb: swapped by default, negated by insertion when insertion comes first.
  EXPECT_EQ(negate_claim("Insulin increases glucose uptake.").text, "Insulin decreases glucose uptake.");
  const auto insert_first = negate_claim("Insulin increases glucose uptake.", {.swap_before_insert = false});
  EXPECT_EQ(insert_first.text, "Insulin does not increase glucose uptake.");
  EXPECT_EQ(insert_first.rule, NegationRule::insert_before_verb);
  // Without a verb to negate, the swap still applies when insertion comes first.
  EXPECT_EQ(negate_claim("Higher doses, better outcomes.", {.swap_before_insert = false}).text,
            "Lower doses, better outcomes.");
}

TEST(Negation, RemovingANegationUndoesInsertingIt) {
  for (const char* claim : {"Aspirin causes bleeding.", "Obesity is a risk factor for diabetes.",
                            "The vaccine can block infection.", "Metformin modifies gut flora.",
                            "Obesity has a genetic component.", "Insulin increases glucose uptake."}) {
    const auto once = negate_claim(claim);
    const auto twice = negate_claim(once.text);
    EXPECT_TRUE(twice.applied) << claim;
    EXPECT_EQ(twice.text, claim);
  }
}

TEST(DirectionWords, EveryOppositeIsAnEntryOfTheOppositePolarity) {
  const auto words = claimrag::text::direction_words();
  ASSERT_GE(words.size(), 100u);
  for (const std::string_view word : words) {
    const auto entry = claimrag::text::find_direction_word(word);
    ASSERT_TRUE(entry) << word;
    EXPECT_TRUE(entry->polarity == 1 || entry->polarity == -1) << word;
    const auto opposite = claimrag::text::find_direction_word(entry->opposite);
    ASSERT_TRUE(opposite) << word << " -> " << entry->opposite;
    EXPECT_EQ(opposite->polarity, -entry->polarity) << word;
  }
  EXPECT_FALSE(claimrag::text::find_direction_word("Increases"));  // lower-case input only
  EXPECT_FALSE(claimrag::text::find_direction_word("cause"));
}
