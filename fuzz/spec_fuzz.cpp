// Spec strings, the one grammar of games and agents (`name:key=value,...`,
// core/spec.hpp): the input's first line as a spec, a game spec
// (registry::make_game) and an agent spec for every game
// (registry::make_agent, which also reads the `uci:` and `exec:` options
// without starting a program).
//
// Checks: a parsed spec written back as name:key=value,... is the input
// text and parses to the same entries; a game made from a spec has a
// canonical spec that makes the same game (same spec, same start text);
// agent specs only must not crash (an agent has no printed spec).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <variant>

#include "duel/registry/agents.hpp"
#include "duel/registry/any_game.hpp"
#include "duel/registry/games.hpp"
#include "fuzz_support.hpp"

namespace {

std::string written(const duel::Spec& spec) {
  std::string out = spec.name();
  for (std::size_t i = 0; i < spec.entries().size(); ++i) {
    const auto& [key, value] = spec.entries()[i];
    out += (i == 0 ? ":" : ",") + key + "=" + value;
  }
  return out;
}

void check_spec(std::string_view text) {
  const auto spec = duel::Spec::parse(text);
  if (!spec) return;
  const std::string again = written(*spec);
  DUEL_FUZZ_CHECK(again == text, std::string(text) + " -> " + again);
  const auto reparsed = duel::Spec::parse(again);
  DUEL_FUZZ_CHECK(
      reparsed.ok() && reparsed->name() == spec->name() && reparsed->entries() == spec->entries(),
      again);
}

void check_game(std::string_view text) {
  const auto game = duel::registry::make_game(text);
  if (!game) return;
  const std::string canonical = duel::registry::spec_of(*game);
  const auto again = duel::registry::make_game(canonical);
  DUEL_FUZZ_CHECK(again.ok(), std::string(text) + " -> " + canonical);
  DUEL_FUZZ_CHECK(duel::registry::spec_of(*again) == canonical &&
                      duel::registry::text_of(*again) == duel::registry::text_of(*game),
                  std::string(text) + " -> " + canonical);
}

// Engines allocate (and touch) their table when made: 64 MB by default, up
// to 16 GB by `hash=`. Refuse big tables and give a spec without one 1 MB,
// so that one input stays a few milliseconds and within memory limits.
bool small_agent(std::string& text) {
  const auto spec = duel::Spec::parse(text);
  if (!spec) return true;  // the parse error is what is fuzzed
  if (spec->name() != "engine") return true;
  if (const auto hash = spec->get("hash")) {
    const auto mb = duel::parse_integer(*hash);
    return !mb || *mb <= 2;
  }
  text += spec->entries().empty() ? ":hash=1" : ",hash=1";
  return true;
}

void check_agents(std::string text) {
  if (!small_agent(text)) return;
  std::istringstream in;
  std::ostringstream out;
  const duel::registry::AgentContext context{0, &in, &out};
  [&]<class... Games>(std::variant<Games...>*) {
    (
        [&] {
          const auto agent = duel::registry::make_agent<Games>(text, context);
          if (agent) DUEL_FUZZ_CHECK(!(*agent)->name().empty(), text);
        }(),
        ...);
  }(static_cast<duel::registry::AnyGame*>(nullptr));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1024) return -1;
  const std::string_view text = duel::fuzz::split_first_line(duel::fuzz::as_text(data, size)).first;
  check_spec(text);
  check_game(text);
  check_agents(std::string(text));
  return 0;
}
