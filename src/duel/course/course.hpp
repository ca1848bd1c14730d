#pragma once
// A course as the server keeps it: its folder, its configuration
// (course.json), its roster, and what a submission must look like.
//
// Why a folder and a file: the teacher makes a course with one command and
// can read, copy and back up everything it holds; the server only adds to
// it (course.db, submissions/, jobs/, runs/). course.json says which hand-out
// the course follows and with which options its tournaments run; what
// changes while the course runs (the deadline) lives in the database.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duel/core/result.hpp"

namespace duel::course {

enum class Kind : std::uint8_t { Csci561, Cs3243, Game };

struct Config {
  std::string course;  // "csci561", "cs3243" or a game spec ("checkers:draw-plies=80")
  std::string title;   // shown on the pages
  std::string url;     // the server's address as students reach it (sign-in links)
  // Arguments `duel tournament` gets beyond the course, folder and --out:
  std::vector<std::string> practice;     // judging one submission (the student's feedback)
  std::vector<std::string> grading;      // the teacher's grading run
  std::vector<std::string> competition;  // the teacher's competition (csci561)
  // A judging's feedback run at most this long, wall seconds (0: no limit);
  // CS3243: the platform's 30 s ("within CodePost's time limit of 30s").
  double feedback_seconds = 0;
  // The ladder: rated games between the students' latest programs.
  bool ladder = true;
  std::vector<std::string> ladder_args;  // csci561: `duel tournament checkers` arguments
  int ladder_games = 2;                  // games a match (colours swapped)
  int ladder_pair_cap = 4;               // games between the same two submissions at most
  // Uploads.
  std::int64_t max_file_bytes = 1 << 20;    // one file
  std::int64_t max_upload_bytes = 8 << 20;  // a whole upload (a zip's contents too)
  int uploads_per_hour = 30;                // a student's submissions in any hour

  [[nodiscard]] Kind kind() const;
  [[nodiscard]] nlohmann::json to_json() const;
  [[nodiscard]] static Result<Config> from_json(const nlohmann::json& j);
  // The defaults for a course name (practice at short clocks, grading on the
  // hand-out's terms), or why the name is not a course.
  [[nodiscard]] static Result<Config> defaults(const std::string& course);
};

struct RosterEntry {
  std::string id;  // a folder name: letters, digits, '.', '_', '-'
  std::string name;
  std::string email;
};

// Reads a roster: CSV (RFC 4180 quoting), one student a line as id, name,
// e-mail; a first line "id,name,email" (any case) is a header. Every error
// names the line.
[[nodiscard]] Result<std::vector<RosterEntry>> read_roster(const std::string& text);

// A student id or file name usable as one path component.
[[nodiscard]] bool safe_name(const std::string& name);

// One file of a submission as uploaded (or taken out of a zip).
struct UploadFile {
  std::string name;
  std::string data;
};

// The files a submission keeps and its language, or why the upload is not
// one: names as the hand-out gives them, sizes, text. A zip is opened
// (libarchive) and its files checked the same way.
struct CheckedUpload {
  std::vector<UploadFile> files;
  std::string language;  // "Python 3", "C++17", "C++11", "Java"
};
[[nodiscard]] Result<CheckedUpload> check_upload(const Config& config,
                                                 std::vector<UploadFile> files);

// What the hand-out asks for, in one line (the page and errors quote it).
[[nodiscard]] std::string expected_files(const Config& config);

// Random secrets (libsodium): 128-bit tokens as 32 hex digits, and their
// stored form (BLAKE2b-256, hex). Equal hashes are compared in constant time.
[[nodiscard]] std::string new_token();
[[nodiscard]] std::string token_hash(const std::string& token);
[[nodiscard]] bool same_hash(const std::string& a, const std::string& b);

// Writes a file whole or not at all (a temporary beside it, then rename).
[[nodiscard]] Result<bool> write_file_atomic(const std::filesystem::path& path,
                                             const std::string& data, bool secret = false);

}  // namespace duel::course
