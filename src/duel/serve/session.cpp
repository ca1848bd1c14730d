#include "duel/serve/session.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "duel/core/spec.hpp"
#include "duel/search/options.hpp"

namespace duel::serve {

namespace {

// Agents that would start a program or wait on a terminal on the server.
[[nodiscard]] bool served(std::string_view kind) {
  return kind != "human" && kind != "uci" && kind != "exec";
}

}  // namespace

std::string refuse_text(std::string_view what, std::string_view text, std::size_t max) {
  if (text.size() > max) {
    return fmt::format("{} {}: {} bytes, over the {} a {} may have", what, quote_input(text, 20),
                       text.size(), max, what);
  }
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c > 0x7e) {
      return fmt::format("{} {}: only printable ASCII is allowed", what, quote_input(text, 40));
    }
  }
  return {};
}

std::string unknown_agent(std::string_view spec_text, std::string_view game,
                          const std::vector<registry::AgentKind>& kinds) {
  auto spec = Spec::parse(spec_text);
  if (!spec) return {};  // refuse_agent has said why
  std::string runs;
  for (const auto& k : kinds) {
    if (!served(k.kind)) continue;
    if (k.kind == spec->name()) return {};
    runs += fmt::format("{}{}", runs.empty() ? "" : ", ", k.kind);
  }
  return fmt::format("unknown agent {} (duel serve runs for {}: {})", quote_input(spec->name(), 30),
                     game, runs);
}

std::string refuse_agent(std::string_view spec_text) {
  auto spec = Spec::parse(spec_text);
  if (!spec) return spec.error();
  const std::string& kind = spec->name();
  if (!served(kind)) {
    return fmt::format("agent '{}' is not available in duel serve", kind);
  }
  if (const auto time = spec->get("time")) {
    const auto seconds = parse_number(*time);
    if (seconds && *seconds > kMaxAgentSeconds) {
      return fmt::format("agent '{}': time={} is over duel serve's {} s a move", kind, *time,
                         kMaxAgentSeconds);
    }
  }
  // A whole-number key over the server's cap (make_agent checks the rest).
  const auto over = [&](std::string_view key, long long max,
                        std::string_view unit) -> std::optional<std::string> {
    const auto text = spec->get(key);
    if (!text) return std::nullopt;
    const auto n = parse_integer(*text);
    if (!n || *n <= max) return std::nullopt;
    return fmt::format("agent '{}': {}={} is over duel serve's {} {}", kind, key, *text, max, unit);
  };
  if (auto e = over("hash", kMaxHashMb, "MB")) return *e;
  if (auto e = over("threads", kMaxAgentThreads, "threads")) return *e;
  return {};
}

long long table_mb(std::string_view spec_text) {
  auto spec = Spec::parse(spec_text);
  if (!spec || spec->name() != "engine") return 0;
  const auto mb = spec->get("hash");
  if (!mb) return static_cast<long long>(search::kAgentHashMb);
  // A bad value is make_agent's to refuse; it holds nothing meanwhile.
  return parse_integer(*mb).value_or(0);
}

std::string with_table(std::string_view spec_text, long long mb) {
  auto spec = Spec::parse(spec_text);
  if (!spec) return std::string(spec_text);
  std::string out = spec->name() + ":";
  bool set = false;
  for (const auto& [key, value] : spec->entries()) {
    const bool hash = key == "hash";
    set = set || hash;
    out += fmt::format("{}={},", key, hash ? std::to_string(mb) : value);
  }
  if (!set) out += fmt::format("hash={},", mb);
  out.pop_back();
  return out;
}

Json agent_kinds(const registry::AnyGame& start) {
  Json out = Json::array();
  std::visit(
      [&](const auto& s) {
        for (const auto& k : registry::agent_kinds<std::decay_t<decltype(s)>>()) {
          if (served(k.kind)) {
            out.push_back({{"kind", k.kind}, {"example", k.example}, {"about", k.about}});
          }
        }
      },
      start);
  return out;
}

}  // namespace duel::serve
