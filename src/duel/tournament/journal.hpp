#pragma once
// The tournament's journal, `journal.jsonl`: a first line naming the
// tournament (course, format, clocks, seed, positions), then one JSON line
// per finished task, written and flushed as the task ends.
//
// Why a file of lines: a runner killed at any moment leaves every finished
// task's line whole and at most the last one cut short, which reading skips;
// the same command then reads the file back and runs only the tasks it
// lacks. A journal of another tournament (other options) is refused rather
// than mixed in.
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "duel/core/result.hpp"

namespace duel::tournament {

class Journal {
 public:
  // Opens `file` for `header`'s tournament: a new file gets the header; an
  // existing one must have been written for the same header.
  [[nodiscard]] static Result<Journal> open(const std::filesystem::path& file,
                                            const nlohmann::json& header) {
    Journal j;
    std::ifstream in(file);
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
      auto entry = nlohmann::json::parse(line, nullptr, false);
      if (first) {
        first = false;
        if (entry.is_discarded() || !entry.contains("tournament")) {
          return fail(fmt::format("tournament: {} is not a tournament journal", file.string()));
        }
        if (entry["tournament"] != header) {
          return fail(fmt::format(
              "tournament: {} is the journal of another tournament ({}); give the same options "
              "to resume it, or another --out",
              file.string(), entry["tournament"].dump()));
        }
        continue;
      }
      // A line cut short by an interrupted write is not a finished task.
      if (entry.is_discarded() || !entry.contains("key")) continue;
      std::string key = entry["key"].get<std::string>();
      j.m_entries[key] = std::move(entry);
    }
    const bool fresh = first;
    j.m_out.open(file, std::ios::app);
    if (!j.m_out) return fail(fmt::format("tournament: cannot write {}", file.string()));
    if (fresh) j.m_out << nlohmann::json{{"tournament", header}}.dump() << '\n' << std::flush;
    return j;
  }

  [[nodiscard]] bool has(const std::string& key) const { return m_entries.count(key) != 0; }
  [[nodiscard]] const std::map<std::string, nlohmann::json>& entries() const { return m_entries; }

  // Records a finished task (one whole line, flushed at once).
  void append(const nlohmann::json& entry) {
    m_out << entry.dump() << '\n' << std::flush;
    m_entries[entry["key"].get<std::string>()] = entry;
  }

 private:
  std::ofstream m_out;
  std::map<std::string, nlohmann::json> m_entries;
};

}  // namespace duel::tournament
