#pragma once
// The tuned weights of heuristic `e3`, one block per rule set, written by
// `duel tune` (docs/tuning.md has the commands and the data that produced
// each block). Do not edit by hand: rerun the command. Only
// linear_eval.cpp includes this file, so retuning recompiles one file.
#include "duel/games/minichess/linear_eval.hpp"

namespace duel::games::minichess::e3 {

// A rule set without a block below plays the starting weights (e2's terms).
template <class Rules>
inline constexpr Weights kWeights = start_weights<Rules>();

// BEGIN gardner
// clang-format off
// Written by: duel tune gardner --records sp-501.jsonl --records sp-502.jsonl --iterations 3000 --rate 1 --l2 1e-08 --skip-plies 4 --validation 10 --start tuned --select quiet
// Data: 12000 games, 177906 positions (159976 to fit, 17930 held out); left out: 47700 opening, 46906 in check, 89558 with a capture quiescence would play; players: engine:depth=8, engine:depth=9
// Fit: K = 0.003907; MSE fitted 0.038582 -> 0.038079, held out 0.038921 -> 0.038664 (3000 iterations)
template <>
inline constexpr Weights kWeights<Gardner> = {
    // material: P N B R Q
      160.76,   414.08,   327.85,   526.74,   866.26,
    // piece-square P: files a|e, b|d, c; ranks from its own side
        0.00,     0.00,     0.00,  // rank 1
       -1.93,     6.79,     6.00,  // rank 2
       12.75,    45.77,    39.51,  // rank 3
       61.58,   100.57,   119.72,  // rank 4
        0.00,     0.00,     0.00,  // rank 5
    // piece-square N: files a|e, b|d, c; ranks from its own side
      -16.10,    -6.58,   -10.57,  // rank 1
       19.78,    25.09,    -0.67,  // rank 2
       24.35,    22.60,    60.52,  // rank 3
       -0.27,    20.54,    26.76,  // rank 4
      -25.56,   -36.50,   -25.30,  // rank 5
    // piece-square B: files a|e, b|d, c; ranks from its own side
       -4.87,     0.59,    -1.48,  // rank 1
        1.44,    27.59,     6.00,  // rank 2
       22.10,     6.05,    11.38,  // rank 3
       -0.06,    16.10,     6.10,  // rank 4
      -27.98,     4.22,    -7.32,  // rank 5
    // piece-square R: files a|e, b|d, c; ranks from its own side
      -21.09,   -24.38,   -25.69,  // rank 1
      -30.96,   -17.43,   -46.21,  // rank 2
      -14.50,    12.35,    11.71,  // rank 3
       27.53,    21.89,    53.07,  // rank 4
       34.22,    37.34,     8.89,  // rank 5
    // piece-square Q: files a|e, b|d, c; ranks from its own side
      -37.59,   -32.57,   -27.14,  // rank 1
        3.82,   -25.19,   -11.32,  // rank 2
       31.79,    16.92,    13.40,  // rank 3
       13.07,    16.50,    19.06,  // rank 4
        3.91,     0.54,     9.06,  // rank 5
    // piece-square K: files a|e, b|d, c; ranks from its own side
      -29.86,   -18.22,   -25.96,  // rank 1
      -18.74,   -21.59,   -49.91,  // rank 2
      -17.50,   -37.70,   -63.00,  // rank 3
       15.32,   -15.01,   -48.47,  // rank 4
       -8.19,    35.23,     3.59,  // rank 5
       -4.38,  // mobility N
       10.08,  // mobility B
       14.20,  // mobility R
       13.27,  // mobility Q
       -2.78,  // mobility K
        3.22,  // king zone attacked
       -1.88,  // king zone attackers
      -23.81,  // pawn shield
      -54.68,  // doubled pawns
      -19.47,  // isolated pawns
      -25.08,  // protected pawns
        0.00,  // passed rank 1
      -10.75,  // passed rank 2
       14.81,  // passed rank 3
       11.87,  // passed rank 4
        0.00,  // passed rank 5
       24.10,  // rook on open file
        5.68,  // best capture
        7.17,  // threat
        6.38,  // tempo
        0.00,  // king en prise
       27.30,  // hanging (mover)
       36.99,  // pawn threat (mover)
       17.28,  // minor threat (mover)
        4.73,  // rook threat (mover)
       49.23,  // push threat (mover)
       40.32,  // hanging (other)
       46.46,  // pawn threat (other)
       56.82,  // minor threat (other)
       18.83,  // rook threat (other)
       34.15,  // push threat (other)
       -4.33,  // king danger
       33.83,  // passed free
};
// clang-format on
// END gardner

// BEGIN gardner-cs3243
// clang-format off
// Written by: duel tune gardner-cs3243 --records /tmp/s25/cs-521.jsonl --iterations 3000 --rate 1 --l2 1e-08 --skip-plies 4 --validation 10 --start tuned
// Data: 6000 games, 184730 positions (166336 to fit, 18394 held out); left out: 23876 opening, 32426 in check, 34865 captures or promotions; players: engine:depth=8, engine:depth=9
// Fit: K = 0.002368; MSE fitted 0.030541 -> 0.029398, held out 0.030775 -> 0.030009 (3000 iterations)
template <>
inline constexpr Weights kWeights<Cs3243> = {
    // material: P N B R Q
       98.39,   347.02,   328.56,   475.94,   904.00,
    // piece-square P: files a|e, b|d, c; ranks from its own side
        0.00,     0.00,     0.00,  // rank 1
       -3.89,    -6.92,    17.99,  // rank 2
        7.42,    30.86,    14.91,  // rank 3
      -13.75,   -15.10,    38.35,  // rank 4
      -60.38,   -83.59,  -107.50,  // rank 5
    // piece-square N: files a|e, b|d, c; ranks from its own side
        2.13,   -31.45,    -9.12,  // rank 1
       -9.92,    24.10,     6.51,  // rank 2
       29.75,    -9.38,    -6.85,  // rank 3
       19.04,    -5.05,    24.02,  // rank 4
      -15.18,    -4.78,    -2.78,  // rank 5
    // piece-square B: files a|e, b|d, c; ranks from its own side
       -1.62,     0.00,     6.59,  // rank 1
        0.00,    30.14,     6.00,  // rank 2
       -9.18,     6.00,    -0.72,  // rank 3
        0.00,     8.72,     6.00,  // rank 4
        2.96,     0.00,     5.69,  // rank 5
    // piece-square R: files a|e, b|d, c; ranks from its own side
      -10.86,   -30.30,   -15.92,  // rank 1
        8.38,   -26.92,    -2.65,  // rank 2
       12.76,    20.01,    17.20,  // rank 3
      -27.54,    -4.39,    20.78,  // rank 4
        4.61,    17.49,    -6.71,  // rank 5
    // piece-square Q: files a|e, b|d, c; ranks from its own side
      -23.96,    -6.09,   -30.45,  // rank 1
        0.56,     0.50,    11.35,  // rank 2
        4.88,    16.99,    17.57,  // rank 3
        7.02,    -2.68,    23.44,  // rank 4
        3.04,     7.16,     2.68,  // rank 5
    // piece-square K: files a|e, b|d, c; ranks from its own side
      -48.34,   -66.77,   -26.32,  // rank 1
       -1.57,   -26.72,    -7.41,  // rank 2
        4.86,     8.95,    -0.19,  // rank 3
      -23.64,   -10.02,   -13.62,  // rank 4
      -39.92,   -20.30,   -28.96,  // rank 5
        4.21,  // mobility N
        7.22,  // mobility B
       11.07,  // mobility R
        6.38,  // mobility Q
       20.94,  // mobility K
        3.38,  // king zone attacked
       38.59,  // king zone attackers
       17.45,  // pawn shield
        1.62,  // doubled pawns
      -33.38,  // isolated pawns
       -9.12,  // protected pawns
        0.00,  // passed rank 1
        7.60,  // passed rank 2
        3.15,  // passed rank 3
      -20.50,  // passed rank 4
      -11.47,  // passed rank 5
       38.29,  // rook on open file
       19.82,  // best capture
        6.96,  // threat
        4.64,  // tempo
        0.00,  // king en prise
       18.37,  // hanging (mover)
       27.73,  // pawn threat (mover)
       12.31,  // minor threat (mover)
        3.49,  // rook threat (mover)
       35.93,  // push threat (mover)
       15.89,  // hanging (other)
       33.99,  // pawn threat (other)
       16.80,  // minor threat (other)
        3.88,  // rook threat (other)
       22.36,  // push threat (other)
       -2.33,  // king danger
      -18.65,  // passed free
};
// clang-format on
// END gardner-cs3243

// BEGIN minichess-comp472
// clang-format off
// Written by: duel tune minichess-comp472 --records c472-531.jsonl --iterations 3000 --rate 1 --l2 1e-08 --skip-plies 4 --validation 10 --start tuned
// Data: 6000 games, 56039 positions (50587 to fit, 5452 held out); left out: 18950 opening, 17436 in check, 14301 captures or promotions; players: engine:depth=8, engine:depth=9
// Fit: K = 0.002789; MSE fitted 0.033520 -> 0.031495, held out 0.035873 -> 0.034151 (3000 iterations)
template <>
inline constexpr Weights kWeights<Comp472> = {
    // material: P N B R Q
      150.54,   294.89,   342.16,   500.00,   887.49,
    // piece-square P: files a|e, b|d, c; ranks from its own side
        0.00,     0.00,     0.00,  // rank 1
        0.00,    19.18,    31.25,  // rank 2
        8.23,     8.56,    22.44,  // rank 3
       83.28,   112.93,    94.67,  // rank 4
        0.00,     0.00,     0.00,  // rank 5
    // piece-square N: files a|e, b|d, c; ranks from its own side
       -8.67,    12.42,    -7.44,  // rank 1
       18.49,     0.35,   -36.26,  // rank 2
       21.93,     1.69,    44.19,  // rank 3
       17.35,   -68.78,    -7.92,  // rank 4
        2.31,   -24.12,    -6.67,  // rank 5
    // piece-square B: files a|e, b|d, c; ranks from its own side
      -31.93,     0.00,     7.04,  // rank 1
        0.00,    41.75,     6.00,  // rank 2
       -1.13,     6.00,    -8.63,  // rank 3
        0.00,    27.96,     6.00,  // rank 4
      -13.11,     0.00,    34.20,  // rank 5
    // piece-square R: files a|e, b|d, c; ranks from its own side
        0.00,     0.00,     0.00,  // rank 1
        0.00,     0.00,     0.00,  // rank 2
        0.00,     0.00,     0.00,  // rank 3
        0.00,     0.00,     0.00,  // rank 4
        0.00,     0.00,     0.00,  // rank 5
    // piece-square Q: files a|e, b|d, c; ranks from its own side
      -16.79,     1.83,   -14.83,  // rank 1
      -18.41,   -27.90,    18.25,  // rank 2
       18.71,     8.90,    -1.58,  // rank 3
       11.77,   -10.29,    28.56,  // rank 4
      -16.41,    23.38,    10.31,  // rank 5
    // piece-square K: files a|e, b|d, c; ranks from its own side
      -31.83,   -47.30,   -26.90,  // rank 1
      -34.04,   -75.20,   -52.59,  // rank 2
       -4.65,     9.62,     8.87,  // rank 3
        6.68,     4.85,    13.11,  // rank 4
      -73.14,    19.59,   -17.07,  // rank 5
        0.47,  // mobility N
       -9.61,  // mobility B
        3.00,  // mobility R
       12.73,  // mobility Q
       22.51,  // mobility K
      -19.28,  // king zone attacked
       -4.55,  // king zone attackers
        4.07,  // pawn shield
        1.13,  // doubled pawns
      -56.13,  // isolated pawns
       -3.80,  // protected pawns
        0.00,  // passed rank 1
       -6.44,  // passed rank 2
       29.96,  // passed rank 3
       20.88,  // passed rank 4
        0.00,  // passed rank 5
        0.00,  // rook on open file
       25.52,  // best capture
        4.99,  // threat
       -3.21,  // tempo
     5000.00,  // king en prise
       27.10,  // hanging (mover)
       12.52,  // pawn threat (mover)
       10.45,  // minor threat (mover)
        0.00,  // rook threat (mover)
       25.45,  // push threat (mover)
        9.86,  // hanging (other)
       -0.57,  // pawn threat (other)
        3.43,  // minor threat (other)
        0.00,  // rook threat (other)
       12.85,  // push threat (other)
        9.44,  // king danger
       22.83,  // passed free
};
// clang-format on
// END minichess-comp472

}  // namespace duel::games::minichess::e3
