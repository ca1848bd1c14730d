#pragma once
// The course server's HTTP side (docs/course-server.md): sign-in, uploads,
// each student's submissions and results, the ladder, and the teacher's
// pages; the board viewer and its game API are the game server's
// (serve/server.hpp), open to signed-in users only.
//
// Why one handler over the store: every answer is a read of the database
// (or a file a job wrote) checked against who asks, so a student reaches
// only their own submissions, logs and games, whatever URL they type.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "duel/course/course.hpp"
#include "duel/course/judge.hpp"
#include "duel/course/store.hpp"
#include "duel/serve/http_types.hpp"
#include "duel/serve/server.hpp"

namespace duel::course {

// Makes a course folder: course.json, course.db with the roster and a
// token a student (hashed), and sign-in.csv (id,name,email,token,link;
// readable by its owner only). Returns the CSV text and the teacher's link.
struct Created {
  std::string csv;
  std::string teacher_link;
};
[[nodiscard]] Result<Created> create_course(const std::filesystem::path& dir, const Config& config,
                                            const std::vector<RosterEntry>& roster);

// A new token for one student (or "teacher"): the old one stops working.
[[nodiscard]] Result<std::string> reissue_token(const std::filesystem::path& dir,
                                                const std::string& student);

class CourseServer : public serve::Handler {
 public:
  CourseServer(std::filesystem::path dir, Config config, Store& store, Judges& judges,
               serve::ServerOptions board = {});
  [[nodiscard]] serve::Response handle(const serve::Request& request) override;
  void shutdown() { m_board.shutdown(); }

 private:
  serve::Response api(const serve::Request& r, const std::vector<std::string>& parts,
                      const Student& who);
  serve::Response sign_in(const serve::Request& r);
  serve::Response upload(const serve::Request& r, const Student& who);
  serve::Response submission_api(const serve::Request& r, const std::vector<std::string>& parts,
                                 const Student& who);
  serve::Response teacher_api(const serve::Request& r, const std::vector<std::string>& parts);
  serve::Response ladder(const Student& who);
  // The name the ladder shows for a student (the nickname, else the name),
  // and a ladder game's text with its players' ids put as those names.
  std::string shown_name(const std::string& id);
  std::string with_names(std::string text, const LadderGame& g);
  serve::Response board_api(const serve::Request& r, const std::vector<std::string>& parts,
                            const Student& me);
  std::optional<Student> who(const serve::Request& r);
  nlohmann::json submission_json(const Submission& s, bool detail);

  std::filesystem::path m_dir;
  Config m_config;
  Store& m_store;
  Judges& m_judges;
  serve::Server m_board;
  std::mutex m_games_mutex;                         // guards m_game_owner
  std::map<std::string, std::string> m_game_owner;  // board game id -> who opened it
};

}  // namespace duel::course
