#pragma once
// The fitted weights of checkers heuristic `tuned`, written by `duel tune
// checkers` (docs/tuning.md, "Checkers", has the command and the data that
// produced them). Do not edit by hand: rerun the command. Only
// linear_eval.cpp includes this file, so retuning recompiles one file.
#include "duel/games/checkers/linear_eval.hpp"

namespace duel::games::checkers::linear {

// BEGIN checkers
// clang-format off
// Written by: duel tune checkers --records checkers-selfplay.jsonl --iterations 3000 --rate 1 --l2 1e-08 --skip-plies 4 --validation 10 --score-weight 0.5
// Data: 5000 games, 530524 positions (477829 to fit, 52695 held out); left out: 20000 opening, 78047 with a capture to make; players: engine:nodes=5000,hash=8, engine:nodes=6000,hash=8
// Fit: K = 0.007504; MSE fitted 0.017628 -> 0.016116, held out 0.053098 -> 0.049226 (3000 iterations); targets: 0.5 result + 0.5 reported score for 477829 of 477829 fitted
inline constexpr Weights kWeights = {
      168.96,  // men
      211.70,  // kings
        0.41,  // men on row 1
       -9.99,  // men on row 2
      -11.32,  // men on row 3
      -13.12,  // men on row 4
       -6.19,  // men on row 5
       -0.77,  // men on row 6
        2.69,  // men in the centre
        1.58,  // kings in the centre
        5.78,  // men's steps
       -1.28,  // kings' steps
       -3.85,  // runaway men
        4.07,  // runaway men's rows
       20.57,  // bridge
       -0.10,  // side to move
       -2.95,  // trade when ahead
};
// clang-format on
// END checkers

}  // namespace duel::games::checkers::linear
