#pragma once
// Match statistics as the chess tournament managers print them, so that
// numbers from `duel arena` read the same as cutechess-cli's "Elo
// difference: 41.6 +/- 14.2, LOS: 100.0 %, DrawRatio: 19.1 %":
//   - Elo difference from the score s: -400 log10(1/s - 1);
//   - its 95% margin: the score's standard error from the per-game
//     variance of the results (1, 1/2, 0), mapped through the same curve,
//     half the width of the interval;
//   - LOS (likelihood of superiority): 1/2 + 1/2 erf((W - L) / sqrt(2 (W + L)));
//   - draw ratio: D / N.
// The normal quantile uses Winitzki's closed-form approximation of the
// inverse error function, as cutechess does, so the printed digits agree
// (the exact quantile, 1.95996 instead of 1.95720, moves a margin by up to
// 0.1 Elo).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace duel::arena {

struct EloEstimate {
  std::optional<double> elo;     // none when the score is 0 or 1 (infinite)
  std::optional<double> margin;  // 95%, none when the interval is unbounded
  double los = 0.5;              // likelihood of superiority, 0..1
  double draw_ratio = 0.0;
  double score = 0.5;
};

namespace elo_detail {

inline constexpr double kPi = 3.14159265358979323846;

// Winitzki (2008): erf^-1(x) ~ sgn(x) sqrt(sqrt(t^2 - ln(1-x^2)/a) - t),
// t = 2/(pi a) + ln(1-x^2)/2, a = 8(pi-3)/(3pi(4-pi)).
[[nodiscard]] inline double inverse_erf(double x) noexcept {
  const double a = 8.0 * (kPi - 3.0) / (3.0 * kPi * (4.0 - kPi));
  const double y = std::log(1.0 - x * x);
  const double t = 2.0 / (kPi * a) + y / 2.0;
  const double r = std::sqrt(std::sqrt(t * t - y / a) - t);
  return x < 0 ? -r : r;
}

// The standard normal quantile.
[[nodiscard]] inline double phi_inverse(double p) noexcept {
  return std::sqrt(2.0) * inverse_erf(2.0 * p - 1.0);
}

[[nodiscard]] inline std::optional<double> elo_of(double score) noexcept {
  if (!(score > 0.0 && score < 1.0)) return std::nullopt;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

}  // namespace elo_detail

// The statistics of `wins`, `draws`, `losses` from one player's view.
[[nodiscard]] inline EloEstimate estimate(int wins, int draws, int losses) noexcept {
  EloEstimate e;
  const double n = wins + draws + losses;
  if (n <= 0) return e;
  const double w = wins / n;
  const double d = draws / n;
  const double l = losses / n;
  e.score = w + d / 2.0;
  e.draw_ratio = d;
  e.elo = elo_detail::elo_of(e.score);
  const double mu = e.score;
  const double variance = w * (1.0 - mu) * (1.0 - mu) + d * (0.5 - mu) * (0.5 - mu) + l * mu * mu;
  const double deviation = std::sqrt(variance / n);
  const double z = elo_detail::phi_inverse(0.975);
  const auto hi = elo_detail::elo_of(mu + z * deviation);
  const auto lo = elo_detail::elo_of(mu - z * deviation);
  if (hi && lo) e.margin = (*hi - *lo) / 2.0;
  if (wins + losses > 0) {
    e.los = 0.5 + 0.5 * std::erf((wins - losses) / std::sqrt(2.0 * (wins + losses)));
  }
  return e;
}

// The sequential probability ratio test as cutechess-cli runs it (`-sprt
// elo0=0 elo1=10 alpha=0.05 beta=0.05`): under the BayesElo model a rating
// difference x and a draw margin y give P(win) = f(x - y), P(loss) =
// f(-x - y), f(t) = 1 / (1 + 10^(-t/400)). y is estimated from the games so
// far; the log-likelihood ratio of H1 (elo1) against H0 (elo0) over the
// observed W/D/L is compared with ln(beta / (1 - alpha)) and
// ln((1 - beta) / alpha). cutechess also divides the hypotheses by the
// draw-dependent scale 4z / (1 + z)^2, z = 10^(-y/400), so that they read as
// ordinary Elo; `scaled = false` leaves that out (OpenBench's older form).
struct SprtSettings {
  double elo0 = 0.0;
  double elo1 = 10.0;
  double alpha = 0.05;
  double beta = 0.05;
  [[nodiscard]] double lower() const noexcept { return std::log(beta / (1.0 - alpha)); }
  [[nodiscard]] double upper() const noexcept { return std::log((1.0 - beta) / alpha); }
};

enum class SprtVerdict : std::uint8_t { Continue, AcceptH0, AcceptH1 };

// The LLR so far; 0 until there is at least one win, one draw and one loss
// (the draw margin cannot be estimated before).
[[nodiscard]] inline double sprt_llr(int wins, int draws, int losses, double elo0, double elo1,
                                     bool scaled = true) noexcept {
  if (wins <= 0 || draws <= 0 || losses <= 0) return 0.0;
  const double n = wins + draws + losses;
  const double pw = wins / n;
  const double pl = losses / n;
  const double draw_elo = 200.0 * std::log10((1.0 / pw - 1.0) * (1.0 / pl - 1.0));
  const double z = std::pow(10.0, -draw_elo / 400.0);
  const double scale = scaled ? 4.0 * z / ((1.0 + z) * (1.0 + z)) : 1.0;
  const auto f = [](double t) { return 1.0 / (1.0 + std::pow(10.0, -t / 400.0)); };
  const auto probs = [&](double elo) {
    const double x = elo / scale;
    const double win = f(x - draw_elo);
    const double loss = f(-x - draw_elo);
    return std::array<double, 3>{win, loss, 1.0 - win - loss};
  };
  const auto p0 = probs(elo0);
  const auto p1 = probs(elo1);
  return wins * std::log(p1[0] / p0[0]) + losses * std::log(p1[1] / p0[1]) +
         draws * std::log(p1[2] / p0[2]);
}

[[nodiscard]] inline SprtVerdict sprt_verdict(double llr, const SprtSettings& s) noexcept {
  if (llr >= s.upper()) return SprtVerdict::AcceptH1;
  if (llr <= s.lower()) return SprtVerdict::AcceptH0;
  return SprtVerdict::Continue;
}

// Pentanomial counts of paired games (fastchess's "Ptnml(0-2)"): games 2k
// and 2k+1 are one opening with colours swapped, and a pair scores 0, 1/2,
// 1, 3/2 or 2 for the player; counts[i] is the number of pairs scoring i/2.
// Pairs say more than single games when openings favour one colour. An odd
// last game has no partner and is left out.
[[nodiscard]] inline std::array<int, 5> pentanomial(const std::vector<double>& scores) {
  std::array<int, 5> counts{};
  for (std::size_t i = 0; i + 1 < scores.size(); i += 2) {
    const int halves = static_cast<int>(std::lround(2.0 * (scores[i] + scores[i + 1])));
    counts[static_cast<std::size_t>(std::clamp(halves, 0, 4))] += 1;
  }
  return counts;
}

}  // namespace duel::arena
