// Texel tuning: the error, its exact gradient, the scale K and Adam.
#include "duel/tune/texel.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace duel::tune {

void Dataset::add(std::span<const double> features, double result) {
  assert(features.size() == m_features);
  for (std::size_t i = 0; i < features.size(); ++i) {
    if (features[i] != 0.0) m_entries.push_back({static_cast<std::uint32_t>(i), features[i]});
  }
  m_start.push_back(m_entries.size());
  m_result.push_back(result);
}

void Dataset::add_sparse(std::span<const Entry> entries, double result) {
  for (const Entry& e : entries) {
    assert(e.index < m_features);
    if (e.value != 0.0) m_entries.push_back(e);
  }
  m_start.push_back(m_entries.size());
  m_result.push_back(result);
}

std::vector<std::size_t> Dataset::feature_counts() const {
  std::vector<std::size_t> counts(m_features, 0);
  for (const Entry& e : m_entries) ++counts[e.index];
  return counts;
}

double evaluate(std::span<const Entry> row, std::span<const double> weights) noexcept {
  double e = 0.0;
  for (const Entry& x : row) e += weights[x.index] * x.value;
  return e;
}

double mean_squared_error(const Dataset& data, std::span<const double> weights, double k) {
  if (data.size() == 0) return 0.0;
  double sum = 0.0;
  for (std::size_t r = 0; r < data.size(); ++r) {
    const double d = data.result(r) - sigmoid(k * evaluate(data.row(r), weights));
    sum += d * d;
  }
  return sum / static_cast<double>(data.size());
}

double fit_scale(const Dataset& data, std::span<const double> weights) {
  // Golden-section search for the minimum over log K in [1e-6, 10]: K is
  // per centipawn in chess-like games (about 0.004 to 0.02), but nothing
  // here knows the unit, so the bracket is wide and the search is in log K.
  const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
  const auto error = [&](double log_k) {
    return mean_squared_error(data, weights, std::exp(log_k));
  };
  double lo = std::log(1e-6);
  double hi = std::log(10.0);
  double a = hi - phi * (hi - lo);
  double b = lo + phi * (hi - lo);
  double fa = error(a);
  double fb = error(b);
  for (int i = 0; i < 80 && hi - lo > 1e-7; ++i) {
    if (fa <= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - phi * (hi - lo);
      fa = error(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + phi * (hi - lo);
      fb = error(b);
    }
  }
  return std::exp((lo + hi) / 2.0);
}

TexelReport fit(const Dataset& data, std::vector<double>& weights, const TexelOptions& options) {
  assert(weights.size() == data.features());
  TexelReport report;
  report.k = options.k > 0.0 ? options.k : fit_scale(data, weights);
  report.error_before = mean_squared_error(data, weights, report.k);
  if (data.size() == 0) {
    report.error_after = report.error_before;
    return report;
  }
  const std::vector<double> start = weights;
  const std::size_t n = weights.size();
  const double k = report.k;
  const double scale = 1.0 / static_cast<double>(data.size());
  std::vector<double> gradient(n);
  std::vector<double> m(n, 0.0);  // Adam's first moment
  std::vector<double> v(n, 0.0);  // Adam's second moment
  constexpr double kBeta1 = 0.9;
  constexpr double kBeta2 = 0.999;
  double beta1_t = 1.0;
  double beta2_t = 1.0;
  for (int step = 0; step < options.iterations; ++step) {
    // Step 1. The exact gradient of the mean squared error (plus the penalty):
    // d/dw (r - s)^2 = -2 (r - s) s (1 - s) k f, with s = sigmoid(k w · f).
    std::fill(gradient.begin(), gradient.end(), 0.0);
    for (std::size_t r = 0; r < data.size(); ++r) {
      const auto row = data.row(r);
      const double s = sigmoid(k * evaluate(row, weights));
      const double g = -2.0 * (data.result(r) - s) * s * (1.0 - s) * k * scale;
      for (const Entry& x : row) gradient[x.index] += g * x.value;
    }
    if (options.l2 > 0.0) {
      for (std::size_t i = 0; i < n; ++i) gradient[i] += 2.0 * options.l2 * (weights[i] - start[i]);
    }
    // Step 2. Adam, with a step size decaying linearly to `final_rate` of
    // the rate so the last steps settle instead of circling the minimum.
    // A weight whose gradient is exactly zero (its feature never occurs)
    // keeps its value: its moments stay 0.
    beta1_t *= kBeta1;
    beta2_t *= kBeta2;
    const double progress =
        options.iterations > 1 ? static_cast<double>(step) / (options.iterations - 1) : 1.0;
    const double rate = options.learning_rate * (1.0 - (1.0 - options.final_rate) * progress);
    for (std::size_t i = 0; i < n; ++i) {
      m[i] = kBeta1 * m[i] + (1.0 - kBeta1) * gradient[i];
      v[i] = kBeta2 * v[i] + (1.0 - kBeta2) * gradient[i] * gradient[i];
      if (v[i] == 0.0) continue;
      const double m_hat = m[i] / (1.0 - beta1_t);
      const double v_hat = v[i] / (1.0 - beta2_t);
      weights[i] -= rate * m_hat / (std::sqrt(v_hat) + 1e-15);
    }
    report.iterations = step + 1;
    if (options.report && options.report_every > 0 && (step + 1) % options.report_every == 0) {
      options.report(step + 1, mean_squared_error(data, weights, k));
    }
  }
  report.error_after = mean_squared_error(data, weights, k);
  return report;
}

}  // namespace duel::tune
