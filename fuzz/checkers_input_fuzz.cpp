// Seed 003's agent files (RULES.md §5, docs/rules/checkers.md): input.txt
// as `duel homework` reads it, then optionally, after a line `--`, an
// output.txt for that position (what the referee reads), and after another
// `--` a playdata.txt (the game so far, `duel homework`'s memory).
//
// Checks: a parsed input.txt is written back by input_text and read again
// to the same mode, board, side and (to the printed milliseconds) time, and
// the text is then a fixed point; every legal move's output.txt reads back
// to that move; an output.txt the referee accepts is a legal move; a parsed
// playdata.txt is written and read back unchanged; and the state homework
// rebuilds from it has the input's board, with a record that replays to it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "duel/games/checkers/protocol.hpp"
#include "duel/play/homework.hpp"
#include "fuzz_support.hpp"

namespace ck = duel::games::checkers;
namespace pr = duel::games::checkers::protocol;

namespace {

void check_output_text(const ck::State& s, const ck::Move& m) {
  const std::string text = pr::output_text(s, m);
  const auto back = pr::parse_output(s, text);
  DUEL_FUZZ_CHECK(back.ok() && *back == m, s.to_text() + " output.txt " + text);
}

void check_input_round_trip(const pr::Input& in, const std::string& source) {
  const std::string text = pr::input_text(in.mode, in.seconds, in.state);
  const auto back = pr::parse_input(text);
  DUEL_FUZZ_CHECK(back.ok(), source + " -> " + text + (back.ok() ? "" : back.error()));
  DUEL_FUZZ_CHECK(back->mode == in.mode && back->state.to_move() == in.state.to_move() &&
                      back->state.board_lines() == in.state.board_lines(),
                  source + " -> " + text);
  // Milliseconds are printed (or 4 significant digits below one): 0.05%.
  DUEL_FUZZ_CHECK(std::abs(back->seconds - in.seconds) <= 0.0005 + 5e-4 * in.seconds,
                  source + " -> " + text);
  DUEL_FUZZ_CHECK(pr::input_text(back->mode, back->seconds, back->state) == text, text);
}

void check_playdata(const ck::State& board, std::string_view text) {
  auto data = duel::play::parse_playdata(text);
  if (!data) return;
  const std::string written = duel::play::playdata_text(*data);
  const auto back = duel::play::parse_playdata(written);
  DUEL_FUZZ_CHECK(back.has_value() && back->start == data->start && back->moves == data->moves &&
                      back->own_moves == data->own_moves,
                  written);
  // The state homework plays from: the input's board, and the record it
  // leaves replays from its start to that state.
  const ck::State s = duel::play::rebuild(board, *data);
  DUEL_FUZZ_CHECK(s.board_lines() == board.board_lines() && s.to_move() == board.to_move(),
                  written + " rebuilt " + s.to_text());
  auto replay = ck::State::parse(data->start, board.draw_limit_plies());
  DUEL_FUZZ_CHECK(replay.ok(), data->start);
  ck::State r = *replay;
  for (const auto& move : data->moves) {
    const auto m = r.parse_move(move);
    DUEL_FUZZ_CHECK(m.ok(), r.to_text() + " record move " + move);
    r = r.result(*m);
  }
  DUEL_FUZZ_CHECK(r.position() == s.position(), r.to_text() + " vs " + s.to_text());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;
  const auto [input, after] = duel::fuzz::split_at_dashes(duel::fuzz::as_text(data, size));
  const auto [output, playdata] = duel::fuzz::split_at_dashes(after);
  const auto in = pr::parse_input(input);
  if (!in) return 0;
  check_input_round_trip(*in, std::string(input));
  duel::fuzz::check_state(in->state, check_output_text);
  if (!output.empty()) {
    const auto m = pr::parse_output(in->state, output);
    if (m) duel::fuzz::check_legal(in->state, *m, output);
  }
  if (!playdata.empty()) check_playdata(in->state, playdata);
  return 0;
}
