#pragma once
// The page's files (web/), embedded into the binary at build time by
// cmake/embed_web.cmake, so an installed `duel` needs nothing beside it.
#include <cstddef>
#include <string_view>
#include <vector>

namespace duel::serve {

struct StaticFile {
  std::string_view path;  // relative to web/, with '/' separators: "index.html"
  std::string_view data;
};

// Every file of web/ at build time (the generated web_files.cpp).
[[nodiscard]] const std::vector<StaticFile>& embedded_files();

// The Content-Type for a file name, by its extension.
[[nodiscard]] std::string_view content_type_of(std::string_view path);

}  // namespace duel::serve
