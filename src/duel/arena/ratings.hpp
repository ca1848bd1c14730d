#pragma once
// Ratings for a whole field from every game played in it, as Ordo and
// BayesElo compute them: the ratings that make the observed results most
// likely under the logistic Elo model, P(i beats j) = 1 / (1 + 10^((r_j -
// r_i) / 400)), a draw counting as half a win for each side.
//
// Why not each player's own score against "the field" (arena/elo.hpp's
// estimate, what cutechess prints for a round-robin): in a knockout or a
// Swiss tournament players meet different opponents and play different
// numbers of games, so a score says little until the opponents' strength
// is counted in; the joint fit does that.
//
// Perfect scores would have infinite ratings, so every player also gets one
// virtual draw against a virtual player rated 0 (BayesElo's prior, made as
// small as it can be while keeping every rating finite). The ratings are
// then shifted so that the rated players average 0; each one's 95% margin
// comes from the inverse of the fit's information matrix (the normal
// approximation).
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace duel::arena {

struct Rating {
  std::optional<double> elo;     // none: the player has no game
  std::optional<double> margin;  // 95%, Elo points either side
};

// One game's result: players i and j (indices below the field's size) and
// i's score (1, 1/2 or 0).
struct GameScore {
  std::size_t i = 0;
  std::size_t j = 0;
  double score = 0.5;
};

namespace ratings_detail {

// Solves a x = b for a symmetric positive definite `a` (n x n, row-major) by
// Cholesky; returns the inverse's diagonal too when `diagonal` is given.
inline bool cholesky_solve(std::vector<double> a, std::size_t n, std::vector<double>& b,
                           std::vector<double>* diagonal) {
  for (std::size_t k = 0; k < n; ++k) {
    double d = a[k * n + k];
    for (std::size_t p = 0; p < k; ++p) d -= a[k * n + p] * a[k * n + p];
    if (!(d > 0.0)) return false;
    d = std::sqrt(d);
    a[k * n + k] = d;
    for (std::size_t i = k + 1; i < n; ++i) {
      double s = a[i * n + k];
      for (std::size_t p = 0; p < k; ++p) s -= a[i * n + p] * a[k * n + p];
      a[i * n + k] = s / d;
    }
  }
  const auto solve = [&](std::vector<double>& x) {
    for (std::size_t i = 0; i < n; ++i) {  // L y = x
      double s = x[i];
      for (std::size_t p = 0; p < i; ++p) s -= a[i * n + p] * x[p];
      x[i] = s / a[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {  // L^T z = y
      double s = x[i];
      for (std::size_t p = i + 1; p < n; ++p) s -= a[p * n + i] * x[p];
      x[i] = s / a[i * n + i];
    }
  };
  solve(b);
  if (diagonal != nullptr) {
    diagonal->assign(n, 0.0);
    std::vector<double> e(n);
    for (std::size_t k = 0; k < n; ++k) {
      std::fill(e.begin(), e.end(), 0.0);
      e[k] = 1.0;
      solve(e);
      (*diagonal)[k] = e[k];
    }
  }
  return true;
}

}  // namespace ratings_detail

// The ratings of players 0..players-1 from `games` (Newton's method on the
// log-likelihood; a few iterations for any real field).
[[nodiscard]] inline std::vector<Rating> fit_ratings(std::size_t players,
                                                     const std::vector<GameScore>& games) {
  // Step 1. Games summed by pair; who played at all.
  std::map<std::pair<std::size_t, std::size_t>, std::pair<double, double>> pairs;  // (score, n)
  std::vector<bool> rated(players, false);
  for (const auto& g : games) {
    if (g.i == g.j || g.i >= players || g.j >= players) continue;
    const bool swap = g.i > g.j;
    auto& [score, n] = pairs[swap ? std::pair{g.j, g.i} : std::pair{g.i, g.j}];
    score += swap ? 1.0 - g.score : g.score;
    n += 1.0;
    rated[g.i] = rated[g.j] = true;
  }
  std::vector<std::size_t> index(players, 0);  // player -> row among the rated
  std::vector<std::size_t> who;
  for (std::size_t p = 0; p < players; ++p) {
    if (rated[p]) {
      index[p] = who.size();
      who.push_back(p);
    }
  }
  std::vector<Rating> out(players);
  const std::size_t n = who.size();
  if (n == 0) return out;

  // Step 2. Newton's method on theta = r ln(10) / 400, the prior's draw
  // against theta = 0 included; steps bounded so a start far from the
  // answer cannot overshoot.
  const auto sigmoid = [](double t) { return 1.0 / (1.0 + std::exp(-t)); };
  std::vector<double> theta(n, 0.0);
  std::vector<double> info(n * n);
  std::vector<double> grad(n);
  for (int iteration = 0; iteration < 200; ++iteration) {
    std::fill(info.begin(), info.end(), 0.0);
    for (std::size_t k = 0; k < n; ++k) {
      const double p = sigmoid(theta[k]);
      grad[k] = 0.5 - p;
      info[k * n + k] = p * (1.0 - p);
    }
    for (const auto& [ij, sn] : pairs) {
      const std::size_t a = index[ij.first];
      const std::size_t b = index[ij.second];
      const double p = sigmoid(theta[a] - theta[b]);
      const double w = sn.second * p * (1.0 - p);
      grad[a] += sn.first - sn.second * p;
      grad[b] -= sn.first - sn.second * p;
      info[a * n + a] += w;
      info[b * n + b] += w;
      info[a * n + b] -= w;
      info[b * n + a] -= w;
    }
    std::vector<double> step = grad;
    if (!ratings_detail::cholesky_solve(info, n, step, nullptr)) break;
    double largest = 0.0;
    for (const double s : step) largest = std::max(largest, std::abs(s));
    const double scale = largest > 2.0 ? 2.0 / largest : 1.0;
    for (std::size_t k = 0; k < n; ++k) theta[k] += scale * step[k];
    if (largest < 1e-10) break;
  }

  // Step 3. Elo points, shifted to average 0, with margins from the
  // information matrix at the answer.
  constexpr double kElo = 400.0 / 2.302585092994045684;  // 400 / ln 10
  std::vector<double> rhs(n, 0.0);
  std::vector<double> variance;
  const bool inverted = ratings_detail::cholesky_solve(info, n, rhs, &variance);
  double mean = 0.0;
  for (const double t : theta) mean += t / static_cast<double>(n);
  for (std::size_t k = 0; k < n; ++k) {
    out[who[k]].elo = kElo * (theta[k] - mean);
    if (inverted) out[who[k]].margin = 1.959963984540054 * kElo * std::sqrt(variance[k]);
  }
  return out;
}

}  // namespace duel::arena
