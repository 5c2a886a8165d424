#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>

#include "claimrag/error.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/rerank/logistic_regression.hpp"
#include "claimrag/selective/calibration.hpp"
#include "claimrag/text/negation.hpp"
#include "claimrag/verification/claim_folds.hpp"
#include "claimrag/verification/rationale_selection.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "feature_verifier.hpp"
#include "verdict_scores.hpp"

namespace claimrag::verification {
namespace {

using detail::LabelModel;
using detail::SelectorModel;
using linear::RowMatrixXd;

struct PreparedDocument {
  const EvidenceDocument* source = nullptr;
  const GoldDocument* gold = nullptr;
  DocumentText text;
  RowMatrixXd features;
  std::vector<int> is_rationale;          ///< per sentence
  std::vector<std::size_t> gold_rationale;  ///< the gold sentences, best by out-of-fold probability, ≤ max
  std::vector<double> out_of_fold;        ///< selector probabilities from the fold's model
};

/// A training claim rewritten by text::negate_claim (VerificationOptions::negation_augmentation).
struct NegatedClaim {
  std::string text;
  ClaimText claim;
  std::vector<DocumentText> documents;  ///< the claim's documents, related to the negated claim
  bool removed_or_inserted = false;    ///< a negation removed or inserted, not a direction word swapped
};

struct PreparedClaim {
  const LabelledInput* item = nullptr;
  ClaimText claim;
  std::vector<PreparedDocument> documents;
  std::size_t fold = 0;
  std::optional<NegatedClaim> negated;
};

/// The label of a document for the negated claim, or nothing when it cannot be told (see
/// VerificationOptions::negation_augmentation).
std::optional<Label> negated_label(Label label, const NegatedClaim& negated) {
  switch (label) {
    case Label::support: return Label::contradict;
    case Label::contradict: return negated.removed_or_inserted ? std::optional<Label>(Label::support) : std::nullopt;
    default: return Label::not_enough_info;
  }
}

std::optional<NegatedClaim> negate(const tfidf::TfidfVectorizer& vectorizer, const PreparedClaim& claim) {
  text::NegationResult result = text::negate_claim(claim.item->input.claim);
  if (!result.applied) return std::nullopt;
  NegatedClaim negated;
  negated.text = std::move(result.text);
  negated.claim = read_claim(vectorizer, negated.text);
  negated.removed_or_inserted = result.rule != text::NegationRule::swap_direction;
  for (const auto& document : claim.documents) negated.documents.push_back(relate(negated.claim, document.text.sentences));
  return negated;
}

void check(const VerifierTrainingData& data, const VerificationOptions& options) {
  if (data.claims.empty()) throw UsageError("verifier training: no claims");
  if (data.corpus_texts.empty()) throw UsageError("verifier training: no corpus texts for the TF-IDF vectorizer");
  if (options.folds < 2 || options.max_rationale == 0 || !(options.selector_C > 0) || !(options.label_l2 > 0) ||
      options.tau_grid.empty() || options.nei_threshold_grid.empty()) {
    throw UsageError("verifier training: needs folds ≥ 2, max_rationale ≥ 1, positive selector_C and label_l2, "
                     "and non-empty tau and nei_threshold grids");
  }
  for (const auto& item : data.claims) {
    if (item.gold.size() != item.input.documents.size()) {
      throw UsageError("verifier training: claim " + item.input.claim_id + " has " + std::to_string(item.gold.size()) +
                       " gold answers for " + std::to_string(item.input.documents.size()) + " documents");
    }
  }
}

std::vector<PreparedClaim> prepare(const VerifierTrainingData& data, const tfidf::TfidfVectorizer& vectorizer,
                                   std::size_t folds, bool negation_augmentation) {
  std::vector<std::vector<std::string>> families;
  for (const auto& item : data.claims) families.push_back(item.family_doc_ids);
  const std::vector<std::size_t> fold_of = family_folds(families, folds);
  std::vector<PreparedClaim> claims(data.claims.size());
  const auto n = static_cast<std::ptrdiff_t>(claims.size());
#pragma omp parallel for schedule(dynamic)
  for (std::ptrdiff_t c = 0; c < n; ++c) {
    const auto i = static_cast<std::size_t>(c);
    const LabelledInput& item = data.claims[i];
    PreparedClaim& prepared = claims[i];
    prepared.item = &item;
    prepared.fold = fold_of[i];
    prepared.claim = read_claim(vectorizer, item.input.claim);
    for (std::size_t d = 0; d < item.input.documents.size(); ++d) {
      PreparedDocument document;
      document.source = &item.input.documents[d];
      document.gold = &item.gold[d];
      document.text = read_document(vectorizer, prepared.claim, document.source->sentences);
      document.features = sentence_features(prepared.claim, document.text);
      document.is_rationale.assign(document.source->sentences.size(), 0);
      for (const auto& set : document.gold->rationale_sets) {
        for (const std::size_t s : set) {
          if (s < document.is_rationale.size()) document.is_rationale[s] = 1;
        }
      }
      prepared.documents.push_back(std::move(document));
    }
    if (negation_augmentation) prepared.negated = negate(vectorizer, prepared);
  }
  return claims;
}

SelectorModel fit_selector(const std::vector<PreparedClaim>& claims, std::size_t held_out, double C) {
  std::vector<const PreparedDocument*> documents;
  Eigen::Index rows = 0;
  for (const auto& claim : claims) {
    if (claim.fold == held_out) continue;
    for (const auto& document : claim.documents) {
      documents.push_back(&document);
      rows += document.features.rows();
    }
  }
  RowMatrixXd X(rows, static_cast<Eigen::Index>(sentence_feature_names().size()));
  std::vector<int> labels;
  for (const auto* document : documents) {
    X.middleRows(static_cast<Eigen::Index>(labels.size()), document->features.rows()) = document->features;
    labels.insert(labels.end(), document->is_rationale.begin(), document->is_rationale.end());
  }
  rerank::LogisticRegressionOptions options;
  options.C = C;
  options.class_weight = rerank::ClassWeight::none;
  const auto fitted = rerank::fit_logistic_regression(X, labels, options);
  SelectorModel selector{fitted.weights, fitted.intercept};
  detail::round_to_float(selector);
  return selector;
}

/// A document's rationale as the selector predicts it out of fold: the sentences reaching τ, or
/// the single best one when none does.
std::vector<std::size_t> predicted_rationale(const VerificationOptions& options, const PreparedDocument& document, double tau) {
  std::vector<std::size_t> rationale = select_rationale(document.out_of_fold, tau, options.max_rationale);
  if (rationale.empty()) rationale = best_sentences(document.out_of_fold, 1);
  return rationale;
}

LabelModel fit_label_model(const std::vector<std::vector<double>>& rows, const std::vector<int>& labels, double l2) {
  const auto d = static_cast<Eigen::Index>(rows.front().size());
  RowMatrixXd X(static_cast<Eigen::Index>(rows.size()), d);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (Eigen::Index j = 0; j < d; ++j) X(static_cast<Eigen::Index>(r), j) = rows[r][static_cast<std::size_t>(j)];
  }
  LabelModel label;
  label.mean = X.colwise().mean().transpose();
  label.scale = ((X.rowwise() - label.mean.transpose()).array().square().colwise().mean().sqrt()).transpose();
  for (Eigen::Index j = 0; j < d; ++j) {
    if (!(label.scale(j) > 1e-12)) label.scale(j) = 1.0;  // a constant feature: left centred, unscaled
  }
  detail::round_to_float(label);
  for (Eigen::Index j = 0; j < d; ++j) X.col(j) = (X.col(j).array() - label.mean(j)) / label.scale(j);
  linear::SoftmaxRegressionOptions options;
  options.l2 = l2;
  label.model = linear::fit_softmax_regression(X, labels, static_cast<int>(label_count), options);
  detail::round_to_float(label);
  return label;
}

/// The training rows of one document for one claim text (the claim's own, or its negation's)
/// under `label`: one from its predicted rationale and, for a SUPPORT / CONTRADICT document (not
/// for the claim-only baseline), one from its gold rationale.
void document_rows(const VerificationOptions& options, const std::string& claim_text, const ClaimText& claim,
                   const DocumentText& text, const PreparedDocument& document, Label label, double tau,
                   std::vector<std::vector<double>>& rows, std::vector<int>& labels) {
  rows.push_back(detail::label_row(options, claim_text, claim, text, *document.source, document.out_of_fold,
                                   predicted_rationale(options, document, tau), tau));
  labels.push_back(static_cast<int>(label));
  if (document.gold->label != Label::not_enough_info && !document.gold_rationale.empty() && !options.claim_only) {
    rows.push_back(detail::label_row(options, claim_text, claim, text, *document.source, document.out_of_fold,
                                     document.gold_rationale, tau));
    labels.push_back(static_cast<int>(label));
  }
}

inline constexpr std::size_t kNoRow = static_cast<std::size_t>(-1);

/// One claim's rows and labels for training the label predictor at τ: its documents' rows, then
/// its negation's (the same rationales, features read against the negated text). predicted[d] is
/// the row of document d read from its predicted rationale (kNoRow for a document without
/// sentences): the row the cross-validation scores the claim with.
void claim_label_rows(const VerificationOptions& options, const PreparedClaim& claim, double tau,
                      std::vector<std::vector<double>>& rows, std::vector<int>& labels, std::vector<std::size_t>& predicted) {
  predicted.assign(claim.documents.size(), kNoRow);
  for (std::size_t d = 0; d < claim.documents.size(); ++d) {
    const PreparedDocument& document = claim.documents[d];
    if (document.source->sentences.empty()) continue;
    predicted[d] = rows.size();
    document_rows(options, claim.item->input.claim, claim.claim, document.text, document, document.gold->label, tau, rows, labels);
  }
  if (!claim.negated) return;
  for (std::size_t d = 0; d < claim.documents.size(); ++d) {
    const PreparedDocument& document = claim.documents[d];
    const std::optional<Label> label = negated_label(document.gold->label, *claim.negated);
    if (document.source->sentences.empty() || !label) continue;
    document_rows(options, claim.negated->text, claim.negated->claim, claim.negated->documents[d], document, *label, tau,
                  rows, labels);
  }
}

/// Every claim's label rows at τ, computed once in parallel: a claim's rows do not depend on which
/// fold is held out, so each fold's training set is a selection of them.
struct ClaimLabelRows {
  std::vector<std::vector<std::vector<double>>> rows;  ///< per claim
  std::vector<std::vector<int>> labels;                ///< per claim
  std::vector<std::vector<std::size_t>> predicted;     ///< per claim, per document: its predicted-rationale row
};

ClaimLabelRows all_label_rows(const VerificationOptions& options, const std::vector<PreparedClaim>& claims, double tau) {
  ClaimLabelRows all;
  all.rows.resize(claims.size());
  all.labels.resize(claims.size());
  all.predicted.resize(claims.size());
  parallel_for(claims.size(),
               [&](std::size_t c) { claim_label_rows(options, claims[c], tau, all.rows[c], all.labels[c], all.predicted[c]); });
  return all;
}

/// Rows and labels for training the label predictor on the claims outside `held_out` (every
/// claim when held_out is folds), in claim order.
void label_training_rows(const std::vector<PreparedClaim>& claims, const ClaimLabelRows& all, std::size_t held_out,
                         std::vector<std::vector<double>>& rows, std::vector<int>& labels) {
  for (std::size_t c = 0; c < claims.size(); ++c) {
    if (claims[c].fold == held_out) continue;
    rows.insert(rows.end(), all.rows[c].begin(), all.rows[c].end());
    labels.insert(labels.end(), all.labels[c].begin(), all.labels[c].end());
  }
}

/// SUPPORT vs CONTRADICT on gold rationales, out of fold: every SUPPORT / CONTRADICT document
/// with a gold rationale, judged by its fold's label model from the gold-rationale row (the row
/// after its predicted-rationale one, document_rows), the likelier of the two labels.
struct GoldRationaleCounts {
  std::size_t documents = 0, correct = 0, contradict = 0, contradict_found = 0, support = 0;
  void add(Label gold, const std::array<double, label_count>& p) {
    const Label said = p[0] >= p[1] ? Label::support : Label::contradict;
    ++documents;
    correct += said == gold ? 1 : 0;
    support += gold == Label::support ? 1 : 0;
    if (gold == Label::contradict) {
      ++contradict;
      contradict_found += said == Label::contradict ? 1 : 0;
    }
  }
  void report(std::map<std::string, double>& named) const {
    const auto share = [](std::size_t a, std::size_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); };
    named["gold_rationale_sc_accuracy"] = share(correct, documents);
    named["gold_rationale_contradict_recall"] = share(contradict_found, contradict);
    named["gold_rationale_support_always_accuracy"] = share(support, documents);
  }
};

/// softmax(ln p / T): p tempered by T (T > 1 flattens, T < 1 sharpens); p's zeros stay zero.
std::array<double, label_count> tempered(const std::array<double, label_count>& p, double temperature) {
  std::array<double, label_count> out{};
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < label_count; ++k) {
    if (p[k] > 0) top = std::max(top, std::log(p[k]) / temperature);
  }
  double sum = 0;
  for (std::size_t k = 0; k < label_count; ++k) {
    out[k] = p[k] > 0 ? std::exp(std::log(p[k]) / temperature - top) : 0.0;
    sum += out[k];
  }
  for (double& value : out) value /= sum;
  return out;
}

/// The temperature minimising the out-of-fold negative log-likelihood of the documents' gold
/// labels (documents judged from a predicted rationale; those without sentences have no row).
double fit_label_temperature(const std::vector<PreparedClaim>& claims,
                             const std::vector<std::vector<std::array<double, label_count>>>& probabilities,
                             const std::vector<std::vector<std::size_t>>& predicted) {
  std::vector<std::array<double, label_count>> rows;
  std::vector<int> labels;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    for (std::size_t d = 0; d < claims[c].documents.size(); ++d) {
      if (predicted[c][d] == kNoRow) continue;
      rows.push_back(probabilities[c][d]);
      labels.push_back(static_cast<int>(claims[c].documents[d].gold->label));
    }
  }
  Eigen::MatrixXd logits(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(label_count));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t k = 0; k < label_count; ++k) {
      logits(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) = std::log(std::max(rows[r][k], 1e-300));
    }
  }
  return selective::fit_softmax_temperature(logits, labels);
}

std::map<std::string, double> named_scores(const detail::TaskScores& scores) {
  std::map<std::string, double> named;
  const std::pair<const char*, const detail::F1Scores*> parts[] = {{"label_only", &scores.label_only},
                                                                    {"label_rationale", &scores.label_rationale},
                                                                    {"selection", &scores.selection},
                                                                    {"selection_label", &scores.selection_label}};
  for (const auto& [name, s] : parts) {
    named[std::string(name) + "_precision"] = s->precision;
    named[std::string(name) + "_recall"] = s->recall;
    named[std::string(name) + "_f1"] = s->f1;
  }
  return named;
}

}  // namespace

std::unique_ptr<ClaimVerifier> train_claim_verifier(const VerifierTrainingData& data, const VerificationOptions& options,
                                                    TrainingReport* report) {
  check(data, options);
  detail::FittedVerifier fitted;
  fitted.options = options;
  fitted.setting = data.setting;
  for (const auto& item : data.claims) {
    for (const auto& document : item.input.documents) {
      if (document.retrieval_rank > 0) fitted.setting = VerifierSetting::open;
    }
  }
  fitted.vectorizer = std::make_shared<const tfidf::TfidfVectorizer>(
      tfidf::TfidfVectorizer::fit(data.corpus_texts, {options.tfidf_max_features}));
  std::vector<PreparedClaim> claims =
      prepare(data, *fitted.vectorizer, options.folds, options.negation_augmentation && !options.claim_only);

  std::vector<SelectorModel> fold_selectors(options.folds);
  parallel_for(options.folds, [&](std::size_t fold) { fold_selectors[fold] = fit_selector(claims, fold, options.selector_C); });
  for (std::size_t fold = 0; fold < options.folds; ++fold) {
    const SelectorModel& selector = fold_selectors[fold];
    for (auto& claim : claims) {
      if (claim.fold != fold) continue;
      for (auto& document : claim.documents) {
        document.out_of_fold = selector.probabilities(document.features);
        std::vector<double> gold_only(document.out_of_fold.size(), -1.0);
        for (std::size_t s = 0; s < gold_only.size(); ++s) {
          if (document.is_rationale[s]) gold_only[s] = document.out_of_fold[s];
        }
        document.gold_rationale = select_rationale(gold_only, 0.0, options.max_rationale);
      }
    }
  }

  std::vector<const LabelledInput*> gold;
  for (const auto& claim : claims) gold.push_back(claim.item);
  double best = -1;
  double fitted_temperature = 1.0;
  ClaimLabelRows best_rows;  // the chosen τ's rows, for the final fit
  // A free-text θ chosen over more than SciFact replaces the grid (VerificationOptions).
  const std::vector<double> theta_grid = fitted.setting == VerifierSetting::free_text && options.free_text_nei_threshold > 0
                                             ? std::vector<double>{options.free_text_nei_threshold}
                                             : options.nei_threshold_grid;
  for (const double tau : options.tau_grid) {
    // Out-of-fold label probabilities of every document at this τ.
    std::vector<std::vector<std::array<double, label_count>>> probabilities(claims.size());
    std::vector<LabelModel> fold_labels(options.folds);
    ClaimLabelRows tau_rows = all_label_rows(options, claims, tau);
    parallel_for(options.folds, [&](std::size_t fold) {
      std::vector<std::vector<double>> rows;
      std::vector<int> labels;
      label_training_rows(claims, tau_rows, fold, rows, labels);
      fold_labels[fold] = fit_label_model(rows, labels, options.label_l2);
    });
    GoldRationaleCounts gold_rationale;
    for (std::size_t fold = 0; fold < options.folds; ++fold) {
      const LabelModel& label = fold_labels[fold];
      for (std::size_t c = 0; c < claims.size(); ++c) {
        if (claims[c].fold != fold) continue;
        for (std::size_t d = 0; d < tau_rows.predicted[c].size(); ++d) {
          const std::size_t row = tau_rows.predicted[c][d];
          probabilities[c].push_back(row == kNoRow ? std::array<double, label_count>{0, 0, 1}
                                                   : label.probabilities(tau_rows.rows[c][row]));
          const PreparedDocument& document = claims[c].documents[d];
          if (row != kNoRow && document.gold->label != Label::not_enough_info && !document.gold_rationale.empty() &&
              !options.claim_only) {
            gold_rationale.add(document.gold->label, label.probabilities(tau_rows.rows[c][row + 1]));
          }
        }
      }
    }
    // Calibration: one temperature for the label probabilities, fitted on these out-of-fold
    // predictions, applied before θ is chosen so that θ reads calibrated probabilities.
    const double temperature = options.calibrate ? fit_label_temperature(claims, probabilities, tau_rows.predicted) : 1.0;
    for (std::size_t c = 0; c < claims.size(); ++c) {
      for (std::size_t d = 0; d < probabilities[c].size(); ++d) {
        if (tau_rows.predicted[c][d] != kNoRow) probabilities[c][d] = tempered(probabilities[c][d], temperature);
      }
    }
    // Strongest-sentence aggregation: every distinct sentence of every document read alone by its
    // fold's selector and label model, tempered as the whole documents are, so that the scores
    // below are those of the verifier that will judge.
    const bool by_sentence = detail::judges_strongest_sentence(options, fitted.setting);
    std::vector<std::vector<detail::SentencesAlone>> alone(claims.size());
    std::vector<std::vector<std::vector<std::array<double, label_count>>>> alone_probabilities(claims.size());
    if (by_sentence) {
      parallel_for(claims.size(), [&](std::size_t c) {
        const PreparedClaim& claim = claims[c];
        for (const auto& document : claim.documents) {
          alone[c].push_back(document.source->sentences.empty()
                                 ? detail::SentencesAlone{}
                                 : detail::read_sentences_alone(options, fold_selectors[claim.fold], claim.item->input.claim,
                                                                claim.claim, *document.source, *document.text.sentences, tau));
          auto& p = alone_probabilities[c].emplace_back();
          for (const auto& reading : alone[c].back().readings) {
            p.push_back(tempered(fold_labels[claim.fold].probabilities(reading.row), temperature));
          }
        }
      });
    }
    // Each document's rule (but for θ) and its rationale's conflict cues do not depend on θ: read
    // once per τ, the grid of θ below only sets the threshold.
    std::vector<std::vector<detail::DecisionRule>> rules(claims.size());
    std::vector<std::vector<std::vector<std::string_view>>> cues(claims.size());
    parallel_for(claims.size(), [&](std::size_t c) {
      for (std::size_t d = 0; d < claims[c].documents.size(); ++d) {
        const auto& document = claims[c].documents[d];
        const std::size_t row = tau_rows.predicted[c][d];
        const auto& rule = rules[c].emplace_back(detail::decision_rule(options, fitted.setting, theta_grid.front(), document.source->sentences));
        cues[c].push_back(row == kNoRow ? std::vector<std::string_view>{}
                                        : detail::rationale_conflict_cues(options, rule.contradict.cue, claims[c].item->input.claim,
                                                                          *document.source, predicted_rationale(options, document, tau),
                                                                          tau_rows.rows[c][row]));
      }
    });
    bool improved = false;
    for (const double theta : theta_grid) {
      std::vector<ClaimVerdict> verdicts(claims.size());
      for (std::size_t c = 0; c < claims.size(); ++c) {
        for (std::size_t d = 0; d < claims[c].documents.size(); ++d) {
          const auto& document = claims[c].documents[d];
          const std::size_t row = tau_rows.predicted[c][d];
          const detail::DecisionRule rule = detail::at_nei_threshold(rules[c][d], theta);
          DocumentVerdict whole = detail::decide(*document.source, document.out_of_fold, probabilities[c][d], tau,
                                                 options.max_rationale, rule, cues[c][d]);
          if (by_sentence && row != kNoRow) {
            whole = detail::strongest_sentence_verdict(std::move(whole), options, claims[c].item->input.claim, *document.source,
                                                       alone[c][d], alone_probabilities[c][d], tau, rule);
          }
          verdicts[c].documents.push_back(std::move(whole));
        }
      }
      const detail::TaskScores scores = detail::verdict_scores(verdicts, gold);
      spdlog::debug("verifier CV τ {} θ {}: Label+Rationale F1 {:.4f} (Label-only {:.4f}, selection {:.4f})", tau, theta,
                    scores.label_rationale.f1, scores.label_only.f1, scores.selection.f1);
      if (scores.label_rationale.f1 > best) {
        improved = true;
        best = scores.label_rationale.f1;
        fitted.tau = tau;
        fitted.nei_threshold = theta;
        fitted_temperature = temperature;
        if (report) {
          report->cross_validation = named_scores(scores);
          // With passages in the training data, the score on the abstracts alone too: the number
          // comparable to a mix without them.
          if (options.passages || options.unrelated_passages) {
            report->cross_validation["abstracts_label_rationale_f1"] = detail::abstract_scores(verdicts, gold).label_rationale.f1;
          }
          gold_rationale.report(report->cross_validation);
          report->cross_validation["temperature"] = temperature;
        }
      }
    }
    if (improved) best_rows = std::move(tau_rows);
  }

  fitted.selector = fit_selector(claims, options.folds, options.selector_C);
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  label_training_rows(claims, best_rows, options.folds, rows, labels);
  fitted.label = fit_label_model(rows, labels, options.label_l2);
  // softmax((Wx + b) / T) = softmax((W / T)x + b / T): the temperature lives in the weights.
  fitted.label.model.weights /= fitted_temperature;
  fitted.label.model.bias /= fitted_temperature;
  detail::round_to_float(fitted.label);
  if (report) {
    report->tau = fitted.tau;
    report->nei_threshold = fitted.nei_threshold;
    report->label_rows = rows.size();
    report->selector_rows = 0;
    for (const auto& claim : claims) {
      for (const auto& document : claim.documents) report->selector_rows += document.source->sentences.size();
    }
  }
  return std::make_unique<detail::FeatureVerifier>(std::move(fitted));
}

}  // namespace claimrag::verification
