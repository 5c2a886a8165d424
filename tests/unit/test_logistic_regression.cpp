#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/rerank/logistic_regression.hpp"

using claimrag::DataError;
using claimrag::UsageError;
using namespace claimrag::rerank;

namespace {

double sigma(double t) { return 1.0 / (1.0 + std::exp(-t)); }

// The root of an increasing function on [low, high], by bisection to the last bit.
double bisect(const std::function<double(double)>& increasing, double low, double high) {
  for (int k = 0; k < 200; ++k) {
    const double middle = 0.5 * (low + high);
    if (middle == low || middle == high) break;
    (increasing(middle) > 0.0 ? high : low) = middle;
  }
  return 0.5 * (low + high);
}

RowMatrixXd column(const std::vector<double>& values) {
  RowMatrixXd X(static_cast<Eigen::Index>(values.size()), 1);
  for (std::size_t i = 0; i < values.size(); ++i) X(static_cast<Eigen::Index>(i), 0) = values[i];
  return X;
}

// A fixed random problem: n rows, d features, roughly 20% positives, labels noisy.
struct RandomProblem {
  RowMatrixXd X;
  std::vector<int> labels;
};

RandomProblem random_problem(Eigen::Index n, Eigen::Index d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  RandomProblem problem{RowMatrixXd(n, d), {}};
  for (Eigen::Index i = 0; i < n; ++i) {
    double z = -1.5;
    for (Eigen::Index j = 0; j < d; ++j) {
      problem.X(i, j) = normal(rng) + 0.5 * static_cast<double>(j);
      z += (j % 2 == 0 ? 0.8 : -0.6) * problem.X(i, j);
    }
    problem.labels.push_back(uniform(rng) < sigma(z) ? 1 : 0);
  }
  return problem;
}

// ∇f by plain loops, written from the objective in the header, independent of the library:
// f(w, b) = ½(wᵀw + b²) + Σ C_i ln(1 + exp(−y_i (wᵀx_i + s b))).
std::vector<double> naive_gradient(const RowMatrixXd& X, const std::vector<int>& labels,
                                   const std::vector<double>& w, double b, double s,
                                   const std::array<double, 2>& class_cost) {
  const auto d = static_cast<std::size_t>(X.cols());
  std::vector<double> g(w);
  g.push_back(b);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    double z = s * b;
    for (std::size_t j = 0; j < d; ++j) z += w[j] * X(i, static_cast<Eigen::Index>(j));
    const double y = labels[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
    const double factor = -class_cost[static_cast<std::size_t>(labels[static_cast<std::size_t>(i)])] *
                          y * sigma(-y * z);
    for (std::size_t j = 0; j < d; ++j) g[j] += factor * X(i, static_cast<Eigen::Index>(j));
    g[d] += factor * s;
  }
  return g;
}

double norm(const std::vector<double>& v) {
  double sum = 0.0;
  for (const double x : v) sum += x * x;
  return std::sqrt(sum);
}

std::vector<double> to_std(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

}  // namespace

TEST(LogisticRegression, BalancedClassWeightsByHand) {
  const std::vector<int> labels = {1, 0, 0, 0};
  // n / (2 · count): 4 / (2·3) for label 0 and 4 / (2·1) for label 1.
  const auto balanced = class_weights(labels, ClassWeight::balanced);
  EXPECT_DOUBLE_EQ(balanced[0], 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(balanced[1], 2.0);
  EXPECT_EQ(class_weights(labels, ClassWeight::none), (std::array<double, 2>{1.0, 1.0}));
  EXPECT_THROW(class_weights(std::vector<int>{1, 1}, ClassWeight::balanced), UsageError);
  EXPECT_THROW(class_weights(std::vector<int>{0, 2}, ClassWeight::none), UsageError);
}

TEST(LogisticRegression, OneFeatureWithoutInterceptMatchesBisection) {
  const std::vector<double> x = {-2.0, -1.0, -0.5, 0.5, 1.0, 3.0};
  const std::vector<int> labels = {0, 1, 0, 0, 1, 1};
  for (const ClassWeight weighting : {ClassWeight::none, ClassWeight::balanced}) {
    const LogisticRegressionOptions options{.C = 0.7, .class_weight = weighting,
                                            .fit_intercept = false};
    const auto cost = class_weights(labels, weighting);
    // f'(w) = w − Σ C·c_i·y_i·x_i·σ(−y_i·w·x_i), increasing in w.
    const auto derivative = [&](double w) {
      double sum = w;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double y = labels[i] == 1 ? 1.0 : -1.0;
        sum -= options.C * cost[static_cast<std::size_t>(labels[i])] * y * x[i] * sigma(-y * w * x[i]);
      }
      return sum;
    };
    const double optimum = bisect(derivative, -100.0, 100.0);
    const LogisticRegressionModel model = fit_logistic_regression(column(x), labels, options);
    ASSERT_TRUE(model.converged);
    EXPECT_EQ(model.intercept, 0.0);
    // 1-strong convexity: |w − w*| ≤ |f'(w)| ≤ tolerance·|f'(0)|.
    EXPECT_LE(std::abs(model.weights[0] - optimum),
              options.tolerance * std::abs(derivative(0.0)) + 1e-15);
    EXPECT_NEAR(model.initial_gradient_norm, std::abs(derivative(0.0)), 1e-14);
  }
}

TEST(LogisticRegression, SeparableDataStaysBoundedByTheRegulariser) {
  // x = −1 labelled 0 and x = +1 labelled 1: f'(w) = w − 2σ(−w), a finite root although
  // any larger w separates better.
  const LogisticRegressionOptions options{.class_weight = ClassWeight::none, .fit_intercept = false};
  const LogisticRegressionModel model =
      fit_logistic_regression(column({-1.0, 1.0}), std::vector<int>{0, 1}, options);
  const double optimum = bisect([](double w) { return w - 2.0 * sigma(-w); }, 0.0, 10.0);
  ASSERT_TRUE(model.converged);
  EXPECT_NEAR(model.weights[0], optimum, 1e-12);
  EXPECT_NEAR(optimum, 0.6748, 1e-4);  // 2σ(−0.6748) = 0.67484
}

TEST(LogisticRegression, InterceptIsRegularisedLikeAWeight) {
  // A feature that is always 0 leaves only the intercept: labels 1, 1, 1, 0 without class
  // weights. Unpenalised, σ(b) = 3/4 gives b = ln 3 ≈ 1.0986; with ½b² in the objective,
  // b solves b − 3σ(−b) + σ(b) = 0, b ≈ 0.505.
  const RowMatrixXd X = column({0.0, 0.0, 0.0, 0.0});
  const std::vector<int> labels = {1, 1, 1, 0};
  const LogisticRegressionOptions options{.class_weight = ClassWeight::none};
  const LogisticRegressionModel model = fit_logistic_regression(X, labels, options);
  const double penalised =
      bisect([](double b) { return b - 3.0 * sigma(-b) + sigma(b); }, -10.0, 10.0);
  ASSERT_TRUE(model.converged);
  EXPECT_EQ(model.weights[0], 0.0);
  EXPECT_NEAR(model.intercept, penalised, 1e-12);
  EXPECT_NEAR(penalised, 0.505, 1e-3);
  EXPECT_GT(std::log(3.0) - model.intercept, 0.5);

  // intercept_scaling s = 10: the variable is b = intercept/s, penalised ½b², so the intercept
  // moves towards ln 3: s·b where b solves b − 3s·σ(−s·b) + s·σ(s·b) = 0.
  LogisticRegressionOptions scaled = options;
  scaled.intercept_scaling = 10.0;
  const LogisticRegressionModel scaled_model = fit_logistic_regression(X, labels, scaled);
  const double b = bisect(
      [](double v) { return v - 30.0 * sigma(-10.0 * v) + 10.0 * sigma(10.0 * v); }, -10.0, 10.0);
  EXPECT_NEAR(scaled_model.intercept, 10.0 * b, 1e-10);
  EXPECT_GT(scaled_model.intercept, model.intercept + 0.4);
  EXPECT_LT(scaled_model.intercept, std::log(3.0));
}

TEST(LogisticRegression, BalancedWeightsMultiplyCPerSample) {
  // One positive, three negatives: balanced weights are 2 and 2/3, so with C = 1.5 the costs
  // are 3 and 1: the same objective as unweighted C = 1 with the positive row three times.
  RowMatrixXd X(4, 2);
  X << 1.0, 0.5, -0.3, 1.2, 0.4, -0.8, -1.1, 0.1;
  const std::vector<int> labels = {1, 0, 0, 0};
  const LogisticRegressionModel balanced = fit_logistic_regression(
      X, labels, {.C = 1.5, .class_weight = ClassWeight::balanced});
  RowMatrixXd replicated(6, 2);
  replicated << 1.0, 0.5, 1.0, 0.5, 1.0, 0.5, -0.3, 1.2, 0.4, -0.8, -1.1, 0.1;
  const LogisticRegressionModel plain = fit_logistic_regression(
      replicated, std::vector<int>{1, 1, 1, 0, 0, 0}, {.C = 1.0, .class_weight = ClassWeight::none});
  ASSERT_TRUE(balanced.converged && plain.converged);
  EXPECT_NEAR(balanced.weights[0], plain.weights[0], 1e-9);
  EXPECT_NEAR(balanced.weights[1], plain.weights[1], 1e-9);
  EXPECT_NEAR(balanced.intercept, plain.intercept, 1e-9);
  EXPECT_NEAR(balanced.objective, plain.objective, 1e-9);
}

TEST(LogisticRegression, GradientVanishesAtTheSolution) {
  const RandomProblem problem = random_problem(500, 4, 42);
  const LogisticRegressionOptions options;  // C = 1, balanced, intercept
  const LogisticRegressionModel model = fit_logistic_regression(problem.X, problem.labels, options);
  ASSERT_TRUE(model.converged);
  EXPECT_LE(model.iterations, 15);
  const auto cost = class_weights(problem.labels, ClassWeight::balanced);
  const std::vector<double> at_zero =
      naive_gradient(problem.X, problem.labels, std::vector<double>(4, 0.0), 0.0, 1.0, cost);
  const std::vector<double> at_solution =
      naive_gradient(problem.X, problem.labels, to_std(model.weights), model.intercept, 1.0, cost);
  EXPECT_LE(norm(at_solution), 1e-9 * norm(at_zero));
  EXPECT_GT(norm(at_zero), 1.0);
  // The library's own gradient agrees with the independent one.
  const Eigen::VectorXd library = logistic_gradient(problem.X, problem.labels, model, options);
  EXPECT_NEAR(library.norm(), model.gradient_norm, 1e-12);
  EXPECT_NEAR(model.initial_gradient_norm, norm(at_zero), 1e-9 * norm(at_zero));
}

TEST(LogisticRegression, LibraryGradientMatchesNaiveAwayFromTheSolution) {
  const RandomProblem problem = random_problem(50, 3, 7);
  const LogisticRegressionOptions options{.C = 2.0, .intercept_scaling = 1.5};
  const auto weights = class_weights(problem.labels, ClassWeight::balanced);
  const std::array<double, 2> cost = {2.0 * weights[0], 2.0 * weights[1]};  // C·class weight
  LogisticRegressionModel model;
  model.weights = Eigen::Vector3d(0.3, -1.2, 0.7);
  model.intercept = -0.9;
  model.intercept_scaling = 1.5;
  const std::vector<double> naive = naive_gradient(problem.X, problem.labels, to_std(model.weights),
                                                   model.intercept / 1.5, 1.5, cost);
  const Eigen::VectorXd library = logistic_gradient(problem.X, problem.labels, model, options);
  ASSERT_EQ(library.size(), 4);
  for (std::size_t j = 0; j < naive.size(); ++j) {
    EXPECT_NEAR(library[static_cast<Eigen::Index>(j)], naive[j], 1e-11) << j;
  }
}

TEST(LogisticRegression, StrongConvexityBoundsDistanceToOptimum) {
  // For every v: ‖v − v*‖ ≤ ‖∇f(v)‖ and f(v) ≥ f(v*) + ½‖v − v*‖² (the facts that bound
  // how far liblinear's stopping point can be from the optimum).
  const RandomProblem problem = random_problem(300, 3, 11);
  const LogisticRegressionOptions options;
  const LogisticRegressionModel best = fit_logistic_regression(problem.X, problem.labels, options);
  ASSERT_TRUE(best.converged);
  std::mt19937_64 rng(42);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const double scale = std::pow(10.0, -3.0 + 0.2 * trial);
    LogisticRegressionModel moved = best;
    Eigen::Vector4d delta(normal(rng), normal(rng), normal(rng), normal(rng));
    delta *= scale;
    moved.weights += delta.head(3);
    moved.intercept += delta[3];
    const double gradient = logistic_gradient(problem.X, problem.labels, moved, options).norm();
    EXPECT_LE(delta.norm(), gradient * (1.0 + 1e-9)) << trial;
    const double rise = logistic_objective(problem.X, problem.labels, moved, options) -
                        logistic_objective(problem.X, problem.labels, best, options);
    EXPECT_GE(rise, 0.5 * delta.squaredNorm() * (1.0 - 1e-6) - 1e-10) << trial;
  }
}

TEST(LogisticRegression, RunningOutOfIterationsIsReportedNotThrown) {
  const RandomProblem problem = random_problem(500, 4, 42);
  LogisticRegressionOptions options;
  options.max_iterations = 1;
  const LogisticRegressionModel model = fit_logistic_regression(problem.X, problem.labels, options);
  EXPECT_FALSE(model.converged);
  EXPECT_EQ(model.iterations, 1);
  EXPECT_GT(model.gradient_norm, options.tolerance * model.initial_gradient_norm);
  EXPECT_LT(model.gradient_norm, model.initial_gradient_norm);
}

TEST(LogisticRegression, PredictProbabilityIsSigmoidOfTheDecision) {
  LogisticRegressionModel model;
  model.weights = Eigen::Vector2d(1.0, -2.0);
  model.intercept = 0.5;
  const Eigen::Vector2d x(3.0, 1.0);  // 3 − 2 + 0.5 = 1.5
  EXPECT_DOUBLE_EQ(model.decision_function(x), 1.5);
  EXPECT_DOUBLE_EQ(model.predict_probability(x), 1.0 / (1.0 + std::exp(-1.5)));
  RowMatrixXd X(2, 2);
  X << 3.0, 1.0, 0.0, 350.0;  // the second decision is −699.5: σ = e^−699.5 ≈ 1e-304, no overflow
  const Eigen::VectorXd p = model.predict_probabilities(X);
  EXPECT_DOUBLE_EQ(p[0], model.predict_probability(x));
  EXPECT_GT(p[1], 0.0);
  EXPECT_LT(p[1], 1e-300);
}

TEST(LogisticRegression, SameInputsGiveIdenticalBitsWhateverTheThreadCount) {
  const RandomProblem problem = random_problem(2000, 5, 42);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const LogisticRegressionModel one = fit_logistic_regression(problem.X, problem.labels);
  omp_set_num_threads(2);
  const LogisticRegressionModel two = fit_logistic_regression(problem.X, problem.labels);
  const LogisticRegressionModel again = fit_logistic_regression(problem.X, problem.labels);
  omp_set_num_threads(threads);
  for (const LogisticRegressionModel* other : {&two, &again}) {
    EXPECT_EQ(std::memcmp(one.weights.data(), other->weights.data(), 5 * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&one.intercept, &other->intercept, sizeof(double)), 0);
    EXPECT_EQ(one.iterations, other->iterations);
  }
}

TEST(LogisticRegression, RejectsBadInput) {
  const RowMatrixXd X = column({0.5, -0.5});
  EXPECT_THROW(fit_logistic_regression(X, std::vector<int>{1}), UsageError);
  EXPECT_THROW(fit_logistic_regression(X, std::vector<int>{1, 1}, {.class_weight = ClassWeight::none}),
               UsageError);
  EXPECT_THROW(fit_logistic_regression(X, std::vector<int>{1, 3}), UsageError);
  EXPECT_THROW(fit_logistic_regression(X, std::vector<int>{1, 0}, {.C = 0.0}), UsageError);
  EXPECT_THROW(fit_logistic_regression(X, std::vector<int>{1, 0}, {.max_iterations = 0}),
               UsageError);
  RowMatrixXd bad = X;
  bad(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(fit_logistic_regression(bad, std::vector<int>{1, 0}), DataError);
}
