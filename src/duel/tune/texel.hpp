#pragma once
// Texel-style tuning of a linear evaluation: positions labelled with the
// game's result (1 White won, 0.5 draw, 0 Black won) and a linear eval
// e = w · f(position) in centipawns; the weights minimise the mean squared
// error between the result and sigmoid(K e).
//
// Why this shape: the evaluation is linear in its weights, so the gradient
// of the error is exact and cheap (one pass over the nonzero features), and
// no game code is needed here: a game turns its positions into feature rows
// (games/minichess/linear_eval.hpp) and this file fits any such rows. K is
// fitted first with the starting weights and then held, so the weights keep
// the starting weights' scale (centipawns) instead of drifting with K.
// Everything is single-threaded and summed in row order: the same data and
// options give the same weights, bit for bit.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace duel::tune {

// One nonzero feature of a position.
struct Entry {
  std::uint32_t index = 0;
  double value = 0.0;
};

// Positions as sparse rows (compressed row storage) with their results.
class Dataset {
 public:
  explicit Dataset(std::size_t features) : m_features(features) { m_start.push_back(0); }

  // Adds a position from its dense feature vector (zeros are dropped) and its
  // result from White's view (1, 0.5 or 0; any value in [0, 1] works).
  void add(std::span<const double> features, double result);
  // Adds a position from its nonzero features.
  void add_sparse(std::span<const Entry> entries, double result);

  [[nodiscard]] std::size_t size() const noexcept { return m_result.size(); }
  [[nodiscard]] std::size_t features() const noexcept { return m_features; }
  [[nodiscard]] double result(std::size_t row) const noexcept { return m_result[row]; }
  // Replaces a row's result (a blend of the game's result and a score, say).
  void set_result(std::size_t row, double result) noexcept { m_result[row] = result; }
  [[nodiscard]] std::span<const Entry> row(std::size_t r) const noexcept {
    return {m_entries.data() + m_start[r], m_start[r + 1] - m_start[r]};
  }
  // How many rows have feature `i` nonzero (a weight no row uses cannot be fitted).
  [[nodiscard]] std::vector<std::size_t> feature_counts() const;

 private:
  std::size_t m_features;
  std::vector<std::size_t> m_start;  // row r is m_entries[m_start[r], m_start[r + 1])
  std::vector<Entry> m_entries;
  std::vector<double> m_result;
};

// The linear evaluation of one row.
[[nodiscard]] double evaluate(std::span<const Entry> row, std::span<const double> weights) noexcept;

[[nodiscard]] inline double sigmoid(double x) noexcept {
  return 1.0 / (1.0 + std::exp(-x));
}

// Mean of (result - sigmoid(k * w · f))^2 over the rows (0 for no rows).
[[nodiscard]] double mean_squared_error(const Dataset& data, std::span<const double> weights,
                                        double k);

// The K > 0 that minimises the error with `weights` (golden-section search
// on log K; the error is unimodal in K for any data with both results).
[[nodiscard]] double fit_scale(const Dataset& data, std::span<const double> weights);

struct TexelOptions {
  int iterations = 2000;       // full-batch Adam steps
  double learning_rate = 1.0;  // the largest step of a weight, in its own unit (centipawns)
  double final_rate = 0.05;    // the step size decays linearly to this fraction of the rate
  double l2 = 0.0;             // penalty l2 * sum (w - w_start)^2 added to the error
  double k = 0.0;              // the scale; 0 = fit it to the starting weights
  // Called every `report_every` steps with the step and the error (0 = never).
  int report_every = 0;
  std::function<void(int step, double error)> report;
};

struct TexelReport {
  double k = 0.0;
  double error_before = 0.0;  // with the starting weights
  double error_after = 0.0;   // with the fitted weights
  int iterations = 0;
};

// Fits `weights` (the starting weights on entry, the fitted ones on return)
// to `data`; weights of features no row uses stay as they were.
TexelReport fit(const Dataset& data, std::vector<double>& weights, const TexelOptions& options);

}  // namespace duel::tune
