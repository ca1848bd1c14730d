// `duel uci` (uci/server.hpp): the input's lines as UCI commands, handled
// in-process with the output captured. Every search is kept tiny: each `go`
// is followed at once by `stop` (a `go infinite` answers then too), the
// Hash option is held at 1-2 MB and `go perft` at depth 3, so that one input
// runs in milliseconds; the parsing of those commands is still fuzzed.
//
// Checks: each `go` answers with at most one `bestmove`, and that move is
// `(none)` or a legal move of the position `d` showed just before; at the
// end, the position `d` shows goes back through `position fen` to the same
// FEN. A sanitizer report or a hang is a finding too.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "duel/core/spec.hpp"
#include "duel/core/text.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/uci/server.hpp"
#include "fuzz_support.hpp"

namespace mc = duel::games::minichess;

namespace {

constexpr std::size_t kMaxLines = 64;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The output lines, appended by the server (its search thread among them).
class Capture {
 public:
  void add(const std::string& line) {
    const std::lock_guard lock(m_mutex);
    m_lines.push_back(line);
  }
  std::vector<std::string> since(std::size_t from) {
    const std::lock_guard lock(m_mutex);
    return {m_lines.begin() + static_cast<std::ptrdiff_t>(std::min(from, m_lines.size())),
            m_lines.end()};
  }
  std::size_t size() {
    const std::lock_guard lock(m_mutex);
    return m_lines.size();
  }

 private:
  std::mutex m_mutex;
  std::vector<std::string> m_lines;
};

// Commands that would make one input slow or big: a larger table, a deep perft.
bool refused(const std::vector<std::string_view>& words) {
  if (words.empty()) return false;
  const std::string cmd = lower(words[0]);
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    const std::string w = lower(words[i]);
    if (cmd == "setoption" && w == "hash") {
      for (std::size_t v = i + 1; v + 1 < words.size(); ++v) {
        if (lower(words[v]) != "value") continue;
        const auto mb = duel::parse_integer(words[v + 1]);
        if (mb && *mb > 2) return true;
      }
    }
    if (cmd == "go" && w == "perft") {
      const auto depth = duel::parse_integer(words[i + 1]);
      if (depth && *depth > 3) return true;
    }
  }
  return false;
}

// The FEN `d` prints now.
std::string shown_fen(duel::uci::Server& server, Capture& out) {
  const std::size_t from = out.size();
  server.handle("d");
  for (const auto& line : out.since(from)) {
    if (line.rfind("Fen: ", 0) == 0) return line.substr(5);
  }
  DUEL_FUZZ_CHECK(false, "d printed no Fen line");
  return {};
}

// Which rule set the server plays: it confirms UCI_Variant with
// `info string variant <value> files 5 ranks 5`.
void follow_variant(const std::vector<std::string>& lines, std::size_t& variant) {
  static constexpr std::string_view kPrefix = "info string variant ";
  static constexpr std::string_view kSuffix = " files 5 ranks 5";
  for (const auto& line : lines) {
    if (line.rfind(kPrefix, 0) != 0 || line.size() < kPrefix.size() + kSuffix.size()) continue;
    const std::string value = lower(std::string_view(line).substr(
        kPrefix.size(), line.size() - kPrefix.size() - kSuffix.size()));
    if (value == mc::Gardner::kName || value == "gardner") variant = 0;
    if (value == mc::Cs3243::kName || value == "cs3243") variant = 1;
    if (value == mc::Comp472::kName || value == "comp472") variant = 2;
  }
}

template <class S>
void check_bestmove(const std::string& fen, std::string_view move) {
  const auto s = S::from_fen(fen);
  DUEL_FUZZ_CHECK(s.ok(), "d printed " + fen);
  const auto m = s->parse_move(move);
  DUEL_FUZZ_CHECK(m.ok(), fen + " bestmove " + std::string(move));
}

void check_answer(const std::vector<std::string>& lines, const std::string& fen,
                  std::size_t variant) {
  int answers = 0;
  for (const auto& line : lines) {
    const auto words = duel::split(line);
    if (words.empty() || words[0] != "bestmove") continue;
    ++answers;
    DUEL_FUZZ_CHECK(words.size() >= 2, line);
    if (words[1] == "(none)") continue;
    // The engine's position may carry a repetition history the FEN does
    // not; that only removes moves, so a legal move is legal from the FEN.
    if (variant == 0) check_bestmove<mc::GardnerState>(fen, words[1]);
    if (variant == 1) check_bestmove<mc::Cs3243State>(fen, words[1]);
    if (variant == 2) check_bestmove<mc::Comp472State>(fen, words[1]);
  }
  DUEL_FUZZ_CHECK(answers <= 1, fen + ": more than one bestmove for one go");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;
  Capture out;
  duel::uci::Server server([&out](const std::string& line) { out.add(line); });
  server.handle("setoption name Hash value 1");
  std::size_t variant = 0;
  std::string_view rest = duel::fuzz::as_text(data, size);
  for (std::size_t n = 0; n < kMaxLines && !rest.empty(); ++n) {
    const auto [line, after] = duel::fuzz::split_first_line(rest);
    rest = after;
    const auto words = duel::split(line);
    if (refused(words)) continue;
    const bool go = !words.empty() && words[0] == "go";
    const std::string fen = go ? shown_fen(server, out) : std::string();
    const std::size_t from = out.size();
    if (!server.handle(line)) return 0;  // quit
    if (go) {
      server.handle("stop");
      check_answer(out.since(from), fen, variant);
    }
    follow_variant(out.since(from), variant);
  }
  // The position's FEN through the server and back.
  const std::string fen = shown_fen(server, out);
  server.handle("position fen " + fen);
  const std::string again = shown_fen(server, out);
  DUEL_FUZZ_CHECK(again == fen, fen + " -> " + again);
  return 0;
}
