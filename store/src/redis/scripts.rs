//! The Lua scripts behind the Redis store's conditional writes. Redis runs
//! a script atomically; each checks everything before it writes anything,
//! so a refusal writes nothing. Every key a script touches is passed in
//! `KEYS` (as Redis requires for Cluster, and for clarity). The scripts
//! answer a short status string (`ok`, or why not) rather than an error,
//! so that a refusal is told apart from a failure of Redis itself.

use std::sync::LazyLock;

use redis::Script;

/// Creates a live table. KEYS: meta, log, game. ARGV: meta.
/// Answers `ok`, `live` or `finished`.
pub(super) static CREATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 'live' end
if redis.call('EXISTS', KEYS[3]) == 1 then return 'finished' end
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1])
return 'ok'
",
    )
});

/// Appends to a live table's log at the expected length. KEYS: meta, log.
/// ARGV: the expected length (decimal), then the entries. Answers `ok`,
/// `missing` (not live) or `len:N` (the log has N entries).
pub(super) static APPEND: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('EXISTS', KEYS[1]) == 0 then return 'missing' end
local len = redis.call('LLEN', KEYS[2])
if tostring(len) ~= ARGV[1] then return 'len:' .. len end
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

/// Ends a game: the record, its players' indexes and its rating updates,
/// all or nothing (see *Atomicity* in the [module documentation](super)).
///
/// KEYS: game, meta, log, the live index; then for each rating update its
/// family's ratings hash, counts hash and the player's history list; then
/// each player's games sorted set.
///
/// ARGV: id, finished_ms, players (encoded), record, the number of rating
/// updates; then for each: the player's name key, the expected game count,
/// the new count, the rating (encoded), the history point (encoded).
///
/// Answers `ok`, `exists`, or `conflict:I:N` (update I expected another
/// count; the stored one is N).
pub(super) static FINISH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
local n = tonumber(ARGV[5])
for i = 0, n - 1 do
  local k = 5 + 3 * i
  local a = 6 + 5 * i
  local stored = redis.call('HGET', KEYS[k + 1], ARGV[a]) or '0'
  if stored ~= ARGV[a + 1] then return 'conflict:' .. i .. ':' .. stored end
end
redis.call('HSET', KEYS[1], 'finished_ms', ARGV[2], 'players', ARGV[3], 'record', ARGV[4])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('SREM', KEYS[4], ARGV[1])
for i = 0, n - 1 do
  local k = 5 + 3 * i
  local a = 6 + 5 * i
  redis.call('HSET', KEYS[k], ARGV[a], ARGV[a + 3])
  redis.call('HSET', KEYS[k + 1], ARGV[a], ARGV[a + 2])
  redis.call('RPUSH', KEYS[k + 2], ARGV[a + 4])
end
for k = 5 + 3 * n, #KEYS do
  redis.call('ZADD', KEYS[k], ARGV[2], ARGV[1])
end
return 'ok'
",
    )
});
