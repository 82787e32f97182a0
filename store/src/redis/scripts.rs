//! The Lua scripts behind the Redis store's conditional writes. Redis runs
//! a script atomically; each checks everything before it writes anything,
//! so a refusal writes nothing. Every key a script touches is passed in
//! `KEYS` (as Redis requires for Cluster, and for clarity). The scripts
//! answer a short status string (`ok`, or why not) rather than an error,
//! so that a refusal is told apart from a failure of Redis itself.

use std::sync::LazyLock;

use redis::Script;

/// Creates a live table. KEYS: meta, log, game, finishing, lease. ARGV:
/// meta. Answers `ok` (created; `leased` if its lease is held), `live`,
/// `finished` or `finishing` (a finish of that id is staged).
pub(super) static CREATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 'live' end
if redis.call('EXISTS', KEYS[3]) == 1 then return 'finished' end
if redis.call('EXISTS', KEYS[4]) == 1 then return 'finishing' end
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[5]) == 1 then return 'leased' end
return 'ok'
",
    )
});

/// Replaces a value only if it is unchanged. KEYS: the key. ARGV: the
/// value read, the new value. Answers `ok` or `changed`.
pub(super) static SWAP: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'changed' end
redis.call('SET', KEYS[1], ARGV[2])
return 'ok'
",
    )
});

/// Appends to a live table's log at the expected length. KEYS: meta, log.
/// ARGV: the expected length (decimal), then the entries. Answers `ok`,
/// `missing` (not live) or `len:N` (the log has N entries).
pub(super) static APPEND: LazyLock<Script> =
    LazyLock::new(|| Script::new(&format!("local first = 2\n{APPEND_BODY}")));

/// The body of an append (plain, or leased in `super::lease`): KEYS[1] the
/// meta, KEYS[2] the log, ARGV[1] the expected length, the entries from
/// ARGV[first] (a local the caller's prelude sets).
pub(super) const APPEND_BODY: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 then return 'missing' end
local len = redis.call('LLEN', KEYS[2])
if tostring(len) ~= ARGV[1] then return 'len:' .. len end
local n = #ARGV
local i = first
while i <= n do
  local j = math.min(i + 999, n)
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, j))
  i = j + 1
end
return 'ok'
";

/// Reads a live table: its metadata and whole log, or nil if it is not
/// live. KEYS: meta, log.
pub(super) static READ_TABLE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local meta = redis.call('GET', KEYS[1])
if not meta then return false end
return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}
",
    )
});

/// Reads a candidate of the live index: whether a finish of it is
/// staged, its metadata (nil if it is not live) and its log. KEYS: meta,
/// log, finishing.
pub(super) static READ_CANDIDATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local staged = redis.call('EXISTS', KEYS[3])
local meta = redis.call('GET', KEYS[1])
if not meta then return {staged, false, {}} end
return {staged, meta, redis.call('LRANGE', KEYS[2], 0, -1)}
",
    )
});

/// Replaces a live table and its log (import). KEYS: meta, log. ARGV:
/// meta, then the entries.
pub(super) static PUT_TABLE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SET', KEYS[1], ARGV[1])
local n = #ARGV
local i = 2
while i <= n do
  local j = math.min(i + 999, n)
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, j))
  i = j + 1
end
return 'ok'
",
    )
});

// --- finishing a game (see `finish`): each script on ONE hash tag ------

/// Stages a finish. KEYS: game, finishing. ARGV: nonce, finished_ms,
/// players, record, heads, then a rating and a history point per update.
/// Answers `ok`, `staged` (a finish is staged already) or `exists`.
pub(super) static STAGE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('EXISTS', KEYS[2]) == 1 then return 'staged' end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
redis.call('HSET', KEYS[2], 'nonce', ARGV[1], 'state', 'staged', 'finished_ms', ARGV[2],
  'players', ARGV[3], 'record', ARGV[4], 'heads', ARGV[5])
local u = 0
for i = 6, #ARGV, 2 do
  redis.call('HSET', KEYS[2], 'r:' .. u, ARGV[i], 'h:' .. u, ARGV[i + 1])
  u = u + 1
end
return 'ok'
",
    )
});

/// Moves a staged finish on: `prepared` (decided: it commits) or
/// `aborted` (deleted: it never happens). KEYS: finishing. ARGV: nonce,
/// the state wanted. Answers the state it is in now (`prepared`,
/// `committed`, `aborted`), or `gone` if no finish with this nonce is
/// staged. Only a `staged` finish moves; a prepared one is never aborted.
pub(super) static DECIDE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'nonce') ~= ARGV[1] then return 'gone' end
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'staged' then return state end
if ARGV[2] == 'aborted' then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'state', ARGV[2])
end
return ARGV[2]
",
    )
});

/// A family's side of a staged finish. KEYS: ratings, counts, pending,
/// applied. ARGV: mode, nonce, tag (`NONCE ID`), then per update: name
/// key, expected count, new count, rating.
///
/// - `reserve`: `done` if the family applied this finish already;
///   `busy:TAG` if another finish holds one of the names; `conflict:I:N`
///   if update I expected another count (the stored one is N); else holds
///   every name for this finish and answers `ok`.
/// - `apply`: `done` as above; `lost` if the names are not held for this
///   finish; else writes the ratings and counts, lets the names go,
///   records the nonce as applied and answers `ok`.
/// - `release`: lets go of the names held under the tag.
/// - `forget`: drops the nonce from the applied ones.
pub(super) static FAMILY: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local mode, nonce, tag = ARGV[1], ARGV[2], ARGV[3]
local n = (#ARGV - 3) / 4
if mode == 'forget' then
  redis.call('HDEL', KEYS[4], nonce)
  return 'ok'
end
if mode == 'release' then
  for i = 0, n - 1 do
    local name = ARGV[4 + 4 * i]
    if redis.call('HGET', KEYS[3], name) == tag then redis.call('HDEL', KEYS[3], name) end
  end
  return 'ok'
end
if redis.call('HEXISTS', KEYS[4], nonce) == 1 then return 'done' end
if mode == 'reserve' then
  for i = 0, n - 1 do
    local held = redis.call('HGET', KEYS[3], ARGV[4 + 4 * i])
    if held and held ~= tag then return 'busy:' .. held end
  end
  for i = 0, n - 1 do
    local a = 4 + 4 * i
    local stored = redis.call('HGET', KEYS[2], ARGV[a]) or '0'
    if stored ~= ARGV[a + 1] then return 'conflict:' .. i .. ':' .. stored end
  end
  for i = 0, n - 1 do
    redis.call('HSET', KEYS[3], ARGV[4 + 4 * i], tag)
  end
  return 'ok'
end
for i = 0, n - 1 do
  if redis.call('HGET', KEYS[3], ARGV[4 + 4 * i]) ~= tag then return 'lost' end
end
for i = 0, n - 1 do
  local a = 4 + 4 * i
  redis.call('HSET', KEYS[1], ARGV[a], ARGV[a + 3])
  redis.call('HSET', KEYS[2], ARGV[a], ARGV[a + 2])
  redis.call('HDEL', KEYS[3], ARGV[a])
end
redis.call('HSET', KEYS[4], nonce, tag)
return 'ok'
",
    )
});

/// Appends a history point unless the list holds it already (the same
/// bytes: each point names its game). KEYS: history. ARGV: point.
/// Answers `ok` or `done`. `LPOS` (Redis 6.0.6) from the tail, else a
/// scan in Lua.
pub(super) static HISTORY: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local pos = redis.pcall('LPOS', KEYS[1], ARGV[1], 'RANK', -1)
if type(pos) == 'table' and pos.err then
  local hi = redis.call('LLEN', KEYS[1]) - 1
  while hi >= 0 do
    local lo = math.max(0, hi - 99)
    for _, v in ipairs(redis.call('LRANGE', KEYS[1], lo, hi)) do
      if v == ARGV[1] then return 'done' end
    end
    hi = lo - 1
  end
elseif pos then
  return 'done'
end
redis.call('RPUSH', KEYS[1], ARGV[1])
return 'ok'
",
    )
});

/// Commits a prepared finish: the game's record (with the nonce), the
/// live table removed, the stage marked `committed`. KEYS: finishing,
/// game, meta, log. ARGV: nonce. Answers `committed` (now or before),
/// `gone` (no such finish, none committed under this nonce) or the state
/// if it is not prepared.
pub(super) static COMMIT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'nonce') ~= ARGV[1] then
  if redis.call('HGET', KEYS[2], 'nonce') == ARGV[1] then return 'committed' end
  return 'gone'
end
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'prepared' then return state end
local f = redis.call('HMGET', KEYS[1], 'finished_ms', 'players', 'record')
redis.call('HSET', KEYS[2], 'finished_ms', f[1], 'players', f[2], 'record', f[3], 'nonce', ARGV[1])
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'state', 'committed')
return 'committed'
",
    )
});

/// Drops a committed stage. KEYS: finishing. ARGV: nonce. Answers `ok`.
pub(super) static DROP: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'nonce') == ARGV[1]
  and redis.call('HGET', KEYS[1], 'state') == 'committed' then
  redis.call('DEL', KEYS[1])
end
return 'ok'
",
    )
});
