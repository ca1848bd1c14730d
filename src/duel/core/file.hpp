#pragma once
// A whole text file, read once: agent files (input.txt, playdata.txt,
// calibration.txt) and boards given by path.
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace duel {

// The file's bytes, or nothing when it cannot be opened.
[[nodiscard]] inline std::optional<std::string> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace duel
