#include "claimrag/interrogation/builtin_responder.hpp"

#include <cmath>
#include <map>
#include <random>
#include <utility>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"

namespace claimrag::interrogation {

using verification::Label;
using Distribution = std::array<double, verification::label_count>;

BuiltinResponder::BuiltinResponder(const verification::ClaimVerifier& verifier, BuiltinResponderOptions options)
    : verifier_(verifier), options_(options) {
  if (!(options_.temperature >= 0.0)) {
    throw UsageError("the sampling temperature must be >= 0, got " + std::to_string(options_.temperature));
  }
}

Label sample_label(const Distribution& probabilities, double temperature, double u) {
  if (temperature == 0.0) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < probabilities.size(); ++i) {
      if (probabilities[i] > probabilities[best]) best = i;
    }
    return static_cast<Label>(best);
  }
  // Tempering in log space keeps small temperatures from underflowing every weight to zero.
  const double inverse = 1.0 / temperature;
  double top = -INFINITY;
  for (const double p : probabilities) {
    if (p > 0.0) top = std::max(top, std::log(p) * inverse);
  }
  Distribution weights{};
  double total = 0.0;
  for (std::size_t i = 0; i < probabilities.size(); ++i) {
    weights[i] = probabilities[i] > 0.0 ? std::exp(std::log(probabilities[i]) * inverse - top) : 0.0;
    total += weights[i];
  }
  if (total <= 0.0) return Label::not_enough_info;
  double cumulative = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    cumulative += weights[i] / total;
    if (u < cumulative) return static_cast<Label>(i);
  }
  // u close to 1 and rounding left the cumulative sum just below it: the last label with weight.
  for (std::size_t i = weights.size(); i-- > 0;) {
    if (weights[i] > 0.0) return static_cast<Label>(i);
  }
  return Label::not_enough_info;
}

std::string answer_text(const Probe& probe, Label label) {
  if (label == Label::not_enough_info) return probe.form == ProbeForm::completion ? "uncertain" : "I am not sure";
  const bool proposition_holds = (label == Label::support) != probe.asks_false;
  if (probe.form == ProbeForm::completion) return proposition_holds ? "high" : "low";
  return proposition_holds ? "Yes" : "No";
}

std::vector<std::vector<std::string>> BuiltinResponder::respond(std::span<const ProbeRequest> requests,
                                                                std::size_t samples) {
  // One verifier call per distinct (pair, claim): paraphrases share the distribution.
  std::map<std::pair<const InterrogationPair*, std::string>, std::size_t> input_of;
  std::vector<verification::VerificationInput> inputs;
  std::vector<std::size_t> request_input(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const ProbeRequest& request = requests[i];
    const auto key = std::make_pair(request.pair, request.claim);
    auto [found, inserted] = input_of.emplace(key, inputs.size());
    if (inserted) {
      // The claim id, not the pair id: a verifier that routes by claim (a cross-fitted one) needs it.
      inputs.push_back({request.pair->claim_id, request.claim, {request.pair->evidence}});
    }
    request_input[i] = found->second;
  }
  const auto verdicts = verifier_.verify(inputs);
  if (verdicts.size() != inputs.size()) {
    throw InternalError("verifier returned " + std::to_string(verdicts.size()) + " verdicts for " +
                        std::to_string(inputs.size()) + " inputs");
  }
  std::vector<std::vector<std::string>> answers(requests.size());
  asked_ = requests;
  failed_.assign(requests.size(), std::string());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto& verdict = verdicts[request_input[i]];
    if (!verdict.documents.empty() && !verdict.documents.front().failure.empty()) {
      failed_[i] = verdict.documents.front().failure;
      failures_ += samples;
      answers[i].assign(samples, std::string());
      continue;
    }
    // A claim the verifier could not judge against any document is NEI, as its interface says.
    const Distribution distribution =
        verdict.documents.empty() ? Distribution{0.0, 0.0, 1.0} : verdict.documents.front().probabilities;
    const std::string key = requests[i].pair->id + '\x1f' + requests[i].probe->id;
    std::mt19937_64 generator(options_.seed ^ io::xxh64(key));
    answers[i].reserve(samples);
    for (std::size_t k = 0; k < samples; ++k) {
      const double u = static_cast<double>(generator() >> 11) * 0x1.0p-53;
      answers[i].push_back(answer_text(*requests[i].probe, sample_label(distribution, options_.temperature, u)));
    }
  }
  return answers;
}

std::string BuiltinResponder::failure(const ProbeRequest& request, std::size_t sample) const {
  if (asked_.empty() || &request < asked_.data() || &request >= asked_.data() + asked_.size()) return {};
  (void)sample;  // the verifier judged the pair once: every sample failed alike
  return failed_[static_cast<std::size_t>(&request - asked_.data())];
}

}  // namespace claimrag::interrogation
