#pragma once
// The engine's on/off switches by spec key (`nmp`, `lmr`, `chist`, ...):
// the one table that `engine:` agent specs and `duel search --set` read, so
// both accept the same keys with the same errors (docs/engine.md lists what
// each switch does and what it measured).
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "duel/core/result.hpp"
#include "duel/core/spec.hpp"
#include "duel/search/options.hpp"

namespace duel::registry {

struct EngineSwitch {
  std::string_view key;
  bool search::EngineOptions::*field;
};

inline constexpr std::array<EngineSwitch, 28> kEngineSwitches = {{
    {"nmp", &search::EngineOptions::null_move},
    {"lmr", &search::EngineOptions::reductions},
    {"rfp", &search::EngineOptions::futility},
    {"ext", &search::EngineOptions::extensions},
    {"asp", &search::EngineOptions::aspiration},
    {"lmp", &search::EngineOptions::late_pruning},
    {"qtt", &search::EngineOptions::quiesce_table},
    {"qsee", &search::EngineOptions::quiesce_see},
    {"osee", &search::EngineOptions::order_see},
    {"oseq", &search::EngineOptions::order_see_quiet},
    {"fso", &search::EngineOptions::frontier_order},
    {"cm", &search::EngineOptions::countermove},
    {"hg", &search::EngineOptions::history_gravity},
    {"iir", &search::EngineOptions::iir},
    {"fp", &search::EngineOptions::move_futility},
    {"sp", &search::EngineOptions::exchange_pruning},
    {"qchk", &search::EngineOptions::quiesce_checks},
    {"se", &search::EngineOptions::singular},
    {"thr", &search::EngineOptions::threats},
    {"esc", &search::EngineOptions::escapes},
    {"chist", &search::EngineOptions::capture_history},
    {"conth", &search::EngineOptions::continuation_history},
    {"fuh", &search::EngineOptions::follow_up_history},
    {"corr", &search::EngineOptions::correction},
    {"corrq", &search::EngineOptions::correction_leaves},
    {"pc", &search::EngineOptions::probcut},
    {"tte", &search::EngineOptions::table_estimate},
    {"dd", &search::EngineOptions::dead_draws},
}};

// The switches' keys alone, for the lists of keys a spec may name.
inline constexpr auto kEngineSwitchKeys = [] {
  std::array<std::string_view, kEngineSwitches.size()> keys{};
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = kEngineSwitches[i].key;
  return keys;
}();

// Sets each switch `spec` names (0 or 1) in `options`; the others keep
// their value. Keys that are not switches are left to the caller.
[[nodiscard]] inline std::optional<Error> apply_switches(const Spec& spec,
                                                         search::EngineOptions& options) {
  for (const auto& sw : kEngineSwitches) {
    const auto on = spec.integer(sw.key, options.*sw.field ? 1 : 0, 0, 1);
    if (!on) return fail(on.error());
    options.*sw.field = *on != 0;
  }
  return std::nullopt;
}

}  // namespace duel::registry
