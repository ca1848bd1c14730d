#pragma once
// Glicko-2 ratings (M. E. Glickman, "Example of the Glicko-2 system",
// glicko.net/glicko/glicko2.pdf): a rating, its deviation (how uncertain it
// is) and a volatility, updated from the games of one rating period. The
// course ladder (docs/tournament.md § A ladder's ratings) updates a player
// after each game, as lichess does with Glicko-2, and shows the rating with
// its interval (r ± 2 RD).
//
// Why Glicko-2 and not the joint Elo fit of ratings.hpp: a ladder rates
// while its games come in, one at a time, and says how sure it is of each
// player; the joint fit rates a finished field at once.
#include <cmath>
#include <numbers>
#include <vector>

namespace duel::arena::glicko2 {

struct Rating {
  double rating = 1500.0;    // Glickman's default start
  double deviation = 350.0;  // RD
  double volatility = 0.06;  // sigma
};

// One game of the period: the opponent's rating before it, and the score
// (1 win, 0.5 draw, 0 loss).
struct Game {
  Rating opponent;
  double score = 0.0;
};

// The system constant tau (Glickman: 0.3 to 1.2; smaller keeps the
// volatility from changing much) and the convergence tolerance of step 5.
struct Options {
  double tau = 0.5;
  double epsilon = 0.000001;
};

inline constexpr double kScale = 173.7178;  // Glickman's step 2

// `player` after the period's `games` (none: only the deviation grows).
[[nodiscard]] inline Rating update(const Rating& player, const std::vector<Game>& games,
                                   const Options& options = {}) {
  using std::exp;
  using std::log;
  using std::sqrt;
  // Step 2. The Glicko-2 scale.
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  if (games.empty()) {
    return {player.rating, kScale * sqrt(phi * phi + sigma * sigma), sigma};
  }
  const auto g = [](double p) {
    return 1.0 / sqrt(1.0 + 3.0 * p * p / (std::numbers::pi * std::numbers::pi));
  };
  // Steps 3 and 4. The estimated variance and the improvement.
  double inverse_v = 0.0;
  double sum = 0.0;
  for (const Game& game : games) {
    const double mu_j = (game.opponent.rating - 1500.0) / kScale;
    const double g_j = g(game.opponent.deviation / kScale);
    const double e_j = 1.0 / (1.0 + exp(-g_j * (mu - mu_j)));
    inverse_v += g_j * g_j * e_j * (1.0 - e_j);
    sum += g_j * (game.score - e_j);
  }
  const double v = 1.0 / inverse_v;
  const double delta = v * sum;
  // Step 5. The new volatility: the root of f by the Illinois algorithm.
  const double a = log(sigma * sigma);
  const double tau = options.tau;
  const auto f = [&](double x) {
    const double ex = exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double lo = a;
  double hi = 0.0;
  if (delta * delta > phi * phi + v) {
    hi = log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    hi = a - k * tau;
  }
  double f_lo = f(lo);
  double f_hi = f(hi);
  while (std::abs(hi - lo) > options.epsilon) {
    const double c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
    const double f_c = f(c);
    if (f_c * f_hi <= 0) {
      lo = hi;
      f_lo = f_hi;
    } else {
      f_lo /= 2.0;
    }
    hi = c;
    f_hi = f_c;
  }
  const double new_sigma = exp(lo / 2.0);
  // Steps 6 to 8. The new deviation and rating, back on the Glicko scale.
  const double phi_star = sqrt(phi * phi + new_sigma * new_sigma);
  const double new_phi = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double new_mu = mu + new_phi * new_phi * sum;
  return {kScale * new_mu + 1500.0, kScale * new_phi, new_sigma};
}

// The rating's interval as a ladder shows it: about 95% (r ± 2 RD).
struct Interval {
  double low = 0.0;
  double high = 0.0;
};
[[nodiscard]] inline Interval interval(const Rating& r) {
  return {r.rating - 2.0 * r.deviation, r.rating + 2.0 * r.deviation};
}

}  // namespace duel::arena::glicko2
