-- wrk script for `duel serve` (docs/BENCHMARKS.md): each thread (one
-- connection each: run with -t N -c N) plays games of AGENT against itself
-- through the API: new game, ask the agent, poll /search until it has
-- moved, ask again, until the game ends, then delete it and start anew.
--   wrk -t2 -c2 -d10s -s scripts/bench/serve-agent-moves.lua http://127.0.0.1:8080
local game = os.getenv("DUEL_GAME") or "gardner"
local agent = os.getenv("DUEL_AGENT") or "engine:depth=3"
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  id = nil
  step = "new"
  moves = 0
  games = 0
  bad = 0
end

function request()
  if step == "new" then
    return wrk.format("POST", "/api/games", {["Content-Type"] = "application/json"},
                      '{"game":"' .. game .. '"}')
  elseif step == "ask" then
    return wrk.format("POST", "/api/games/" .. id .. "/agent",
                      {["Content-Type"] = "application/json"}, '{"agent":"' .. agent .. '"}')
  elseif step == "delete" then
    return wrk.format("DELETE", "/api/games/" .. id)
  else
    return wrk.format("GET", "/api/games/" .. id)
  end
end

function response(status, headers, body)
  if status >= 400 then
    bad = bad + 1
    step = "new"
    return
  end
  if step == "new" then
    id = body:match('"id":"([^"]+)"')
    games = games + 1
    step = "ask"
  elseif step == "ask" then
    moves = moves + 1
    step = "poll"
  elseif step == "delete" then
    step = "new"
  else
    if body:find('"thinking":false', 1, true) then
      if body:find('"terminal":true', 1, true) then
        step = "delete"  -- free the server's slot for the next game
      else
        step = "ask"
      end
    end
  end
end

function done(summary, latency, requests)
  local m, g, b = 0, 0, 0
  for _, t in ipairs(threads) do
    m = m + t:get("moves")
    g = g + t:get("games")
    b = b + t:get("bad")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("agent moves: %d in %.1f s = %.1f moves/s (%s, %s); games started: %d; 4xx/5xx: %d\n",
                         m, seconds, m / seconds, game, agent, g, b))
end
