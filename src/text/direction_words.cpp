#include "claimrag/text/direction_words.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace claimrag::text {

namespace {

// One-way swaps between word families, form by form (base, -s, -ed, -ing, noun); "" where a
// form does not exist. Where a word has two plausible opposites the choice follows the
// SciFact train siblings: "inhibits" -> "promotes", "activates" -> "inhibits",
// "reduces" -> "increases", "prevents" -> "induces", "encourages" -> "inhibits".
struct FamilySwap {
  std::array<std::string_view, 5> from;
  std::array<std::string_view, 5> to;
  int polarity;  // of `from`
  bool paraphrase = false;  // one of the paraphrase families (DirectionWord::paraphrase)
};

constexpr FamilySwap kSwaps[] = {
    {{"increase", "increases", "increased", "increasing", ""}, {"decrease", "decreases", "decreased", "decreasing", ""}, +1},
    {{"decrease", "decreases", "decreased", "decreasing", ""}, {"increase", "increases", "increased", "increasing", ""}, -1},
    {{"reduce", "reduces", "reduced", "reducing", "reduction"}, {"increase", "increases", "increased", "increasing", "increase"}, -1},
    {{"raise", "raises", "raised", "raising", ""}, {"lower", "lowers", "lowered", "lowering", ""}, +1},
    {{"lower", "lowers", "lowered", "lowering", "lowest"}, {"higher", "raises", "raised", "raising", "highest"}, -1},
    {{"higher", "high", "highest", "", ""}, {"lower", "low", "lowest", "", ""}, +1},
    {{"low", "", "", "", ""}, {"high", "", "", "", ""}, -1},
    {{"more", "most", "greater", "larger", "bigger"}, {"less", "least", "smaller", "smaller", "smaller"}, +1},
    {{"less", "least", "smaller", "fewer", ""}, {"more", "most", "larger", "more", ""}, -1},
    {{"longer", "faster", "better", "best", ""}, {"shorter", "slower", "worse", "worst", ""}, +1},
    {{"shorter", "slower", "worse", "worst", ""}, {"longer", "faster", "better", "best", ""}, -1},
    {{"upregulate", "upregulates", "upregulated", "upregulating", "upregulation"},
     {"downregulate", "downregulates", "downregulated", "downregulating", "downregulation"}, +1},
    {{"downregulate", "downregulates", "downregulated", "downregulating", "downregulation"},
     {"upregulate", "upregulates", "upregulated", "upregulating", "upregulation"}, -1},
    {{"up-regulate", "up-regulates", "up-regulated", "up-regulating", "up-regulation"},
     {"down-regulate", "down-regulates", "down-regulated", "down-regulating", "down-regulation"}, +1},
    {{"down-regulate", "down-regulates", "down-regulated", "down-regulating", "down-regulation"},
     {"up-regulate", "up-regulates", "up-regulated", "up-regulating", "up-regulation"}, -1},
    {{"promote", "promotes", "promoted", "promoting", "promotion"}, {"inhibit", "inhibits", "inhibited", "inhibiting", "inhibition"}, +1},
    {{"inhibit", "inhibits", "inhibited", "inhibiting", "inhibition"}, {"promote", "promotes", "promoted", "promoting", "promotion"}, -1},
    {{"activate", "activates", "activated", "activating", "activation"}, {"inhibit", "inhibits", "inhibited", "inhibiting", "inhibition"}, +1},
    {{"suppress", "suppresses", "suppressed", "suppressing", "suppression"}, {"promote", "promotes", "promoted", "promoting", "promotion"}, -1},
    {{"stimulate", "stimulates", "stimulated", "stimulating", "stimulation"}, {"inhibit", "inhibits", "inhibited", "inhibiting", "inhibition"}, +1},
    {{"encourage", "encourages", "encouraged", "encouraging", ""}, {"inhibit", "inhibits", "inhibited", "inhibiting", ""}, +1},
    {{"enhance", "enhances", "enhanced", "enhancing", "enhancement"}, {"reduce", "reduces", "reduced", "reducing", "reduction"}, +1},
    {{"diminish", "diminishes", "diminished", "diminishing", ""}, {"enhance", "enhances", "enhanced", "enhancing", ""}, -1},
    {{"improve", "improves", "improved", "improving", "improvement"}, {"worsen", "worsens", "worsened", "worsening", "worsening"}, +1},
    {{"worsen", "worsens", "worsened", "worsening", ""}, {"improve", "improves", "improved", "improving", ""}, -1},
    {{"impair", "impairs", "impaired", "impairing", "impairment"}, {"improve", "improves", "improved", "improving", "improvement"}, -1},
    {{"restore", "restores", "restored", "restoring", "restoration"}, {"impair", "impairs", "impaired", "impairing", "impairment"}, +1},
    {{"repair", "repairs", "repaired", "repairing", ""}, {"worsen", "worsens", "worsened", "worsening", ""}, +1},
    {{"induce", "induces", "induced", "inducing", "induction"}, {"prevent", "prevents", "prevented", "preventing", "prevention"}, +1},
    {{"prevent", "prevents", "prevented", "preventing", "prevention"}, {"induce", "induces", "induced", "inducing", "induction"}, -1},
    {{"accelerate", "accelerates", "accelerated", "accelerating", "acceleration"}, {"slow", "slows", "slowed", "slowing", "slowing"}, +1},
    {{"slow", "slows", "slowed", "slowing", ""}, {"accelerate", "accelerates", "accelerated", "accelerating", ""}, -1},
    {{"elevate", "elevates", "elevated", "elevating", "elevation"}, {"reduce", "reduces", "reduced", "reducing", "reduction"}, +1},
    {{"exacerbate", "exacerbates", "exacerbated", "exacerbating", "exacerbation"}, {"alleviate", "alleviates", "alleviated", "alleviating", "alleviation"}, +1},
    {{"alleviate", "alleviates", "alleviated", "alleviating", "alleviation"}, {"exacerbate", "exacerbates", "exacerbated", "exacerbating", "exacerbation"}, -1},
    // Paraphrases of the direction words above, as abstracts write them.
    {{"attenuate", "attenuates", "attenuated", "attenuating", "attenuation"}, {"enhance", "enhances", "enhanced", "enhancing", "enhancement"}, -1, true},
    {{"augment", "augments", "augmented", "augmenting", "augmentation"}, {"reduce", "reduces", "reduced", "reducing", "reduction"}, +1, true},
    {{"boost", "boosts", "boosted", "boosting", ""}, {"reduce", "reduces", "reduced", "reducing", ""}, +1, true},
    {{"amplify", "amplifies", "amplified", "amplifying", "amplification"}, {"attenuate", "attenuates", "attenuated", "attenuating", "attenuation"}, +1, true},
    {{"lessen", "lessens", "lessened", "lessening", ""}, {"increase", "increases", "increased", "increasing", ""}, -1, true},
    {{"mitigate", "mitigates", "mitigated", "mitigating", "mitigation"}, {"exacerbate", "exacerbates", "exacerbated", "exacerbating", "exacerbation"}, -1, true},
    {{"strengthen", "strengthens", "strengthened", "strengthening", ""}, {"weaken", "weakens", "weakened", "weakening", ""}, +1, true},
    {{"weaken", "weakens", "weakened", "weakening", ""}, {"strengthen", "strengthens", "strengthened", "strengthening", ""}, -1, true},
    {{"heighten", "heightens", "heightened", "heightening", ""}, {"lower", "lowers", "lowered", "lowering", ""}, +1, true},
    {{"rise", "rises", "rose", "rising", ""}, {"fall", "falls", "fell", "falling", ""}, +1, true},
    {{"fall", "falls", "fell", "falling", ""}, {"rise", "rises", "rose", "rising", ""}, -1, true},
    {{"decline", "declines", "declined", "declining", ""}, {"increase", "increases", "increased", "increasing", ""}, -1, true},
    {{"prolong", "prolongs", "prolonged", "prolonging", "prolongation"}, {"shorten", "shortens", "shortened", "shortening", "shortening"}, +1, true},
    {{"shorten", "shortens", "shortened", "shortening", ""}, {"prolong", "prolongs", "prolonged", "prolonging", ""}, -1, true},
    {{"positive", "positively", "gain", "presence", "enhancer"}, {"negative", "negatively", "loss", "absence", "suppressor"}, +1},
    {{"negative", "negatively", "loss", "absence", "suppressor"}, {"positive", "positively", "gain", "presence", "enhancer"}, -1},
    {{"beneficial", "susceptible", "susceptibility", "vulnerable", ""}, {"harmful", "resistant", "resistance", "resistant", ""}, +1},
    {{"harmful", "resistant", "resistance", "", ""}, {"beneficial", "susceptible", "susceptibility", "", ""}, -1},
};

using Entry = std::pair<std::string_view, DirectionWord>;

std::vector<Entry> build_table() {
  std::vector<Entry> table;
  for (const FamilySwap& swap : kSwaps) {
    for (std::size_t form = 0; form < swap.from.size(); ++form) {
      if (swap.from[form].empty()) continue;
      table.push_back({swap.from[form], DirectionWord{swap.to[form], swap.polarity, swap.paraphrase}});
    }
  }
  // Should a word ever be listed by two families, the first listing wins, deterministically.
  std::stable_sort(table.begin(), table.end(), [](const Entry& a, const Entry& b) { return a.first < b.first; });
  table.erase(std::unique(table.begin(), table.end(), [](const Entry& a, const Entry& b) { return a.first == b.first; }),
              table.end());
  return table;
}

const std::vector<Entry>& table() {
  static const std::vector<Entry> entries = build_table();
  return entries;
}

/// The table hashed, for find_direction_word: it is asked about every word of every claim and
/// sentence the verifier reads.
const std::unordered_map<std::string_view, DirectionWord>& lookup() {
  static const std::unordered_map<std::string_view, DirectionWord> map(table().begin(), table().end());
  return map;
}

}  // namespace

std::vector<std::string_view> direction_words() {
  std::vector<std::string_view> words;
  for (const Entry& entry : table()) words.push_back(entry.first);
  return words;
}

std::optional<DirectionWord> find_direction_word(std::string_view lower_word) {
  const auto found = lookup().find(lower_word);
  if (found == lookup().end()) return std::nullopt;
  return found->second;
}

}  // namespace claimrag::text
