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
// Written by: duel tune gardner --records sp-501.jsonl --records sp-502.jsonl --iterations 3000 --rate 1 --l2 1e-08 --skip-plies 4 --validation 10 --start tuned
// Data: 12000 games, 189289 positions (170206 to fit, 19083 held out); left out: 47700 opening, 46906 in check, 78175 captures or promotions; players: engine:depth=8, engine:depth=9
// Fit: K = 0.003812; MSE fitted 0.040689 -> 0.038235, held out 0.039123 -> 0.038198 (3000 iterations)
template <>
inline constexpr Weights kWeights<Gardner> = {
    // material: P N B R Q
      157.52,   392.83,   323.26,   520.75,   870.00,
    // piece-square P: files a|e, b|d, c; ranks from its own side
        0.00,     0.00,     0.00,  // rank 1
       -3.07,     6.29,     7.04,  // rank 2
       11.60,    40.61,    39.09,  // rank 3
       57.37,   110.69,   117.91,  // rank 4
        0.00,     0.00,     0.00,  // rank 5
    // piece-square N: files a|e, b|d, c; ranks from its own side
      -17.44,     2.84,   -11.59,  // rank 1
       23.34,    18.44,   -13.57,  // rank 2
       18.79,    17.17,    37.26,  // rank 3
        6.77,    18.01,    25.96,  // rank 4
      -18.61,   -30.46,   -20.08,  // rank 5
    // piece-square B: files a|e, b|d, c; ranks from its own side
       -9.46,     0.59,     0.77,  // rank 1
        1.63,    26.60,     6.00,  // rank 2
       20.19,     6.09,     6.21,  // rank 3
        0.00,    13.96,     6.15,  // rank 4
      -26.25,     6.23,    -3.44,  // rank 5
    // piece-square R: files a|e, b|d, c; ranks from its own side
      -23.25,   -25.05,   -28.37,  // rank 1
      -27.40,   -10.16,   -31.48,  // rank 2
      -14.65,    18.90,    10.75,  // rank 3
       29.21,    29.91,    45.00,  // rank 4
       16.17,    23.86,     7.33,  // rank 5
    // piece-square Q: files a|e, b|d, c; ranks from its own side
      -31.13,   -31.92,   -27.23,  // rank 1
       10.52,   -21.78,    -1.50,  // rank 2
       26.18,    20.21,    11.59,  // rank 3
        9.37,    10.38,    20.04,  // rank 4
       -3.36,    -0.50,     7.12,  // rank 5
    // piece-square K: files a|e, b|d, c; ranks from its own side
      -23.60,   -17.36,   -33.66,  // rank 1
      -14.17,   -24.79,   -43.30,  // rank 2
       -9.26,   -24.43,   -42.89,  // rank 3
        9.47,   -14.39,   -35.83,  // rank 4
      -18.70,     6.26,   -13.35,  // rank 5
        1.68,  // mobility N
       11.85,  // mobility B
       14.69,  // mobility R
       11.99,  // mobility Q
       -1.25,  // mobility K
        2.64,  // king zone attacked
       -1.08,  // king zone attackers
      -21.59,  // pawn shield
      -50.53,  // doubled pawns
      -20.48,  // isolated pawns
      -24.43,  // protected pawns
        0.00,  // passed rank 1
       -7.43,  // passed rank 2
       23.77,  // passed rank 3
       15.97,  // passed rank 4
        0.00,  // passed rank 5
       25.54,  // rook on open file
       18.45,  // best capture
        6.31,  // threat
       11.70,  // tempo
        0.00,  // king en prise
       45.53,  // hanging (mover)
       37.56,  // pawn threat (mover)
       18.19,  // minor threat (mover)
        5.88,  // rook threat (mover)
       42.83,  // push threat (mover)
       30.41,  // hanging (other)
       25.88,  // pawn threat (other)
       34.11,  // minor threat (other)
        9.27,  // rook threat (other)
       17.45,  // push threat (other)
       -3.32,  // king danger
       33.40,  // passed free
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
// Written by: duel tune minichess-comp472 --records /tmp/tune/minichess-comp472.jsonl --iterations 3000 --rate 1 --l2 1e-08 --skip-plies 4 --validation 10
// Data: 1001 games, 10062 positions (9045 to fit, 1017 held out); left out: 3174 opening, 3127 in check, 2434 captures or promotions; players: engine:depth=7, engine:depth=7,eval=e1
// Fit: K = 0.002504; MSE fitted 0.036492 -> 0.032392, held out 0.038132 -> 0.033686 (3000 iterations)
template <>
inline constexpr Weights kWeights<Comp472> = {
    // material: P N B R Q
      160.25,   283.05,   314.86,   500.00,   882.66,
    // piece-square P: files a|e, b|d, c; ranks from its own side
        0.00,     0.00,     0.00,  // rank 1
        0.00,    32.21,     3.66,  // rank 2
       27.76,    32.45,     0.60,  // rank 3
      101.22,   108.63,    83.72,  // rank 4
        0.00,     0.00,     0.00,  // rank 5
    // piece-square N: files a|e, b|d, c; ranks from its own side
      -11.30,    -8.73,   -12.94,  // rank 1
        6.02,    30.22,   -26.90,  // rank 2
        0.84,    10.25,    26.34,  // rank 3
       12.49,   -56.96,   -10.62,  // rank 4
        9.99,   -21.02,    -0.63,  // rank 5
    // piece-square B: files a|e, b|d, c; ranks from its own side
      -48.10,     0.00,    11.98,  // rank 1
        0.00,    14.02,     6.00,  // rank 2
       -8.03,     6.00,    21.90,  // rank 3
        0.00,     6.67,     6.00,  // rank 4
       -0.46,     0.00,    30.89,  // rank 5
    // piece-square R: files a|e, b|d, c; ranks from its own side
        0.00,     0.00,     0.00,  // rank 1
        0.00,     0.00,     0.00,  // rank 2
        0.00,     0.00,     0.00,  // rank 3
        0.00,     0.00,     0.00,  // rank 4
        0.00,     0.00,     0.00,  // rank 5
    // piece-square Q: files a|e, b|d, c; ranks from its own side
      -23.43,    16.67,   -11.62,  // rank 1
      -14.62,   -11.15,    29.68,  // rank 2
       18.37,    -3.30,   -10.68,  // rank 3
      -11.54,   -28.24,    33.34,  // rank 4
      -22.30,    28.41,    21.08,  // rank 5
    // piece-square K: files a|e, b|d, c; ranks from its own side
       -7.77,   -35.23,   -17.57,  // rank 1
       -2.33,   -44.15,   -32.08,  // rank 2
       -8.99,   -20.92,    -3.25,  // rank 3
        2.97,    15.66,   -31.63,  // rank 4
      -82.41,     2.69,   -35.00,  // rank 5
        4.88,  // mobility N
       -5.34,  // mobility B
        3.00,  // mobility R
       11.25,  // mobility Q
       28.62,  // mobility K
        7.61,  // king zone attacked
      -15.79,  // king zone attackers
        5.89,  // pawn shield
       -5.43,  // doubled pawns
       17.14,  // isolated pawns
      -14.59,  // protected pawns
        0.00,  // passed rank 1
       21.27,  // passed rank 2
       52.10,  // passed rank 3
       23.57,  // passed rank 4
        0.00,  // passed rank 5
        0.00,  // rook on open file
       41.32,  // best capture
        4.46,  // threat
      -10.83,  // tempo
     5000.00,  // king en prise
};
// clang-format on
// END minichess-comp472

}  // namespace duel::games::minichess::e3
