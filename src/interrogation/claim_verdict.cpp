#include "claimrag/interrogation/claim_verdict.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::interrogation {
namespace {

void keep_most_confident(std::vector<AbstractVerdict>& verdicts, std::size_t listed) {
  std::stable_sort(verdicts.begin(), verdicts.end(),
                   [](const AbstractVerdict& a, const AbstractVerdict& b) { return a.confidence > b.confidence; });
  if (verdicts.size() > listed) verdicts.resize(listed);
}

nlohmann::ordered_json list_json(const std::vector<AbstractVerdict>& verdicts) {
  auto list = nlohmann::ordered_json::array();
  for (const AbstractVerdict& verdict : verdicts) {
    list.push_back({{"pair_id", verdict.pair_id}, {"doc_id", verdict.doc_id}, {"confidence", verdict.confidence}});
  }
  return list;
}

}  // namespace

std::vector<ClaimLevelVerdict> claim_level_verdicts(std::span<const InterrogationPair> pairs,
                                                    std::span<const PairInterrogation> results, std::size_t listed) {
  if (pairs.size() != results.size()) throw InternalError("claim_level_verdicts: pairs and results differ in number");
  std::vector<ClaimLevelVerdict> claims;
  std::map<std::string, std::size_t> position;
  std::vector<double> support_mass;
  std::vector<double> refute_mass;
  std::vector<double> all_mass;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto [found, inserted] = position.emplace(pairs[i].claim_id, claims.size());
    if (inserted) {
      claims.push_back({pairs[i].claim_id, pairs[i].claim, Answer::neutral, 0.0, 0, {}, {}});
      support_mass.push_back(0.0);
      refute_mass.push_back(0.0);
      all_mass.push_back(0.0);
    }
    const std::size_t c = found->second;
    const MetaVerdict& meta = results[i].fusion.meta;
    ClaimLevelVerdict& claim = claims[c];
    ++claim.abstracts;
    all_mass[c] += meta.confidence;
    const AbstractVerdict vote{pairs[i].id, pairs[i].evidence.doc_id, meta.confidence};
    if (meta.verdict == Answer::support) {
      support_mass[c] += meta.confidence;
      claim.supporting.push_back(vote);
    } else if (meta.verdict == Answer::refute) {
      refute_mass[c] += meta.confidence;
      claim.refuting.push_back(vote);
    }
  }
  for (std::size_t c = 0; c < claims.size(); ++c) {
    ClaimLevelVerdict& claim = claims[c];
    const double s = support_mass[c];
    const double r = refute_mass[c];
    if (s > r) {
      claim.verdict = Answer::support;
      claim.confidence = s / (s + r);
    } else if (r > s) {
      claim.verdict = Answer::refute;
      claim.confidence = r / (s + r);
    } else if (s > 0.0) {
      claim.confidence = 0.5;
    } else {
      claim.confidence = all_mass[c] / static_cast<double>(claim.abstracts);
    }
    keep_most_confident(claim.supporting, listed);
    keep_most_confident(claim.refuting, listed);
  }
  return claims;
}

void write_claim_verdicts(const std::filesystem::path& file, std::span<const ClaimLevelVerdict> verdicts) {
  io::AtomicFile out(file);
  for (const ClaimLevelVerdict& claim : verdicts) {
    nlohmann::ordered_json line;
    line["claim_id"] = claim.claim_id;
    line["claim"] = claim.claim;
    line["verdict"] = answer_name(claim.verdict);
    line["confidence"] = claim.confidence;
    line["abstracts"] = claim.abstracts;
    line["supporting"] = list_json(claim.supporting);
    line["refuting"] = list_json(claim.refuting);
    out.stream() << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  out.commit();
}

}  // namespace claimrag::interrogation
