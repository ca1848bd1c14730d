// duel serve's error text: a request's bytes are quoted, cut short and
// never raw (valid UTF-8 whatever was sent), overlong moves and specs are
// refused before they are parsed, and "unknown agent" names only the
// agents the server runs.
#include <gtest/gtest.h>

#include <string>

#include "duel/serve/http_types.hpp"
#include "serve_support.hpp"

namespace duel::serve::test {
namespace {

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlongs, no surrogates).
bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80                 ? 1
                    : c >= 0xc2 && c <= 0xdf ? 2
                    : c >= 0xe0 && c <= 0xef ? 3
                    : c >= 0xf0 && c <= 0xf4 ? 4
                                             : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

TEST(ServeErrors, QuotedTextIsEscapedAndCut) {
  EXPECT_EQ(quote_input("g12"), "'g12'");
  EXPECT_EQ(quote_input(std::string("\x00\xff", 2)), R"('\x00\xff')");
  EXPECT_EQ(quote_input("caf\xc3\xa9"), "'caf\xc3\xa9'");       // é stays
  EXPECT_EQ(quote_input("\xc0\xaf"), R"('\xc0\xaf')");          // an overlong '/'
  EXPECT_EQ(quote_input("\xed\xa0\x80"), R"('\xed\xa0\x80')");  // a surrogate
  EXPECT_EQ(quote_input("it's"), R"('it\x27s')");
  EXPECT_EQ(quote_input(std::string(100, 'a'), 60), "'" + std::string(60, 'a') + "...'");
}

TEST(ServeErrors, RequestBytesNeverReachAnAnswerRaw) {
  Server server;
  const Response missing = call(server, "GET", std::string("/api/games/\x00\xff", 13));
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(json_of(missing)["error"], R"(no such game: '\x00\xff')");
  const Response file = call(server, "GET", "/" + std::string(5000, 'x') + "\xff");
  EXPECT_EQ(file.status, 404);
  EXPECT_LT(file.body.size(), 200U);
  const Response method = call(server, "BREW\x01", "/api/games");
  EXPECT_EQ(method.status, 405);
  EXPECT_NE(json_of(method)["error"].get<std::string>().find(R"('BREW\x01')"), std::string::npos);

  const std::string id = new_game(server, "gardner");
  const std::string path = "/api/games/" + id;
  const Response huge =
      call(server, "POST", path + "/move", Json{{"move", std::string(50'000, 'e')}}.dump());
  EXPECT_EQ(huge.status, 400);
  EXPECT_LT(huge.body.size(), 200U);
  EXPECT_NE(huge.body.find("50000 bytes, over the 64 a move may have"), std::string::npos)
      << huge.body;
  const Response control = call(server, "POST", path + "/move",
                                Json{{"move", std::string("e2\x01"
                                                          "e4")}}
                                    .dump());
  EXPECT_EQ(control.status, 400);
  EXPECT_EQ(json_of(control)["error"], R"(move 'e2\x01e4': only printable ASCII is allowed)");
  const Response spec =
      call(server, "POST", "/api/games", Json{{"game", "gardner" + std::string(300, 'x')}}.dump());
  EXPECT_EQ(spec.status, 400);
  EXPECT_LT(spec.body.size(), 200U);
  const Response format = call(server, "GET", path + "/record", "", {{"format", "\xff\xfe"}});
  EXPECT_EQ(format.status, 400);
  EXPECT_EQ(json_of(format)["error"], R"(format: '\xff\xfe' is not one of pgn, pdn, trace, json)");
  for (const Response* r : {&missing, &file, &method, &huge, &control, &spec, &format}) {
    EXPECT_TRUE(valid_utf8(r->body)) << r->body;
  }
}

TEST(ServeErrors, ALongMessageIsCutToFiveHundredBytes) {
  const Response r = error_response(400, std::string(2000, 'x'));
  const std::string message = json_of(r)["error"];
  EXPECT_EQ(message, std::string(500, 'x') + "...");
}

TEST(ServeErrors, AnUnknownAgentNamesOnlyTheAgentsTheServerRuns) {
  Server server;
  const std::string id = new_game(server, "checkers");
  const Response r =
      call(server, "POST", "/api/games/" + id + "/agent", Json{{"agent", "stockfish"}}.dump());
  EXPECT_EQ(r.status, 400);
  const std::string message = json_of(r)["error"];
  EXPECT_EQ(message.rfind("unknown agent 'stockfish' (duel serve runs for checkers: ", 0), 0U)
      << message;
  EXPECT_NE(message.find("engine"), std::string::npos) << message;
  for (const char* kind : {"human", "uci", "exec"}) {
    EXPECT_EQ(message.find(kind), std::string::npos) << kind << " in " << message;
  }
  EXPECT_NE(message.find("random"), std::string::npos) << message;
}

}  // namespace
}  // namespace duel::serve::test
