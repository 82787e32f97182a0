//! The Redis store's tallies and documents (`crate::study`). Every key of
//! a space shares the hash tag `{study:SPACE}`, so a tally or a batch of
//! documents is one script on one slot, atomic (under Redis Cluster a
//! space lives on one shard):
//!
//! | key | type | holds |
//! |---|---|---|
//! | `P:{study:SPACE}:c:HEX` | hash | a tally key's counters: field (decimal) → values, comma-separated integers |
//! | `P:{study:SPACE}:l:HEX` | list | a tally key's items, newest first |
//! | `P:{study:SPACE}:applied` | set | the tokens of the tallies applied |
//! | `P:{study:SPACE}:d` | hash | document key → value |
//! | `P:{study:SPACE}:v` | hash | document key → version |
//! | `P:{study:SPACE}:z:INDEX` | sorted set | a scored index: member → score |
//!
//! `HEX` is a tally key in hex. Counters are Lua numbers inside the
//! script, exact up to 2^53.

use std::collections::HashSet;
use std::sync::LazyLock;

use redis::Script;
use serde::{Deserialize, Serialize};

use super::handle::{RedisStore, unexpected};
use super::keys;
use super::transfer::Scan;
use crate::StudyPage;
use crate::codec::{hex, unhex};
use crate::study::{DocPut, ScorePut, StudyItem, Tally, valid_space};
use crate::{Doc, ExportCursor, Result, StoreError};

/// Applies a tally once. KEYS: the applied set, the counter hashes (one
/// per addition), the lists (one per push). ARGV: the token, keep, the
/// number of additions, then per addition its field and values, then per
/// push its item. Answers `ok` or `applied`.
static TALLY: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 'applied' end
local keep = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
for i = 1, n do
  local key, field, add = KEYS[1 + i], ARGV[2 + 2 * i], ARGV[3 + 2 * i]
  local a, c = {}, {}
  for v in string.gmatch(add, '[^,]+') do a[#a + 1] = tonumber(v) end
  local cur = redis.call('HGET', key, field)
  if cur then for v in string.gmatch(cur, '[^,]+') do c[#c + 1] = tonumber(v) end end
  local out = {}
  for j = 1, math.max(#a, #c) do out[j] = string.format('%d', (c[j] or 0) + (a[j] or 0)) end
  redis.call('HSET', key, field, table.concat(out, ','))
end
local lists = {}
for i = 2 + n, #KEYS do
  redis.call('LPUSH', KEYS[i], ARGV[4 + 2 * n + (i - 2 - n)])
  lists[KEYS[i]] = true
end
for k, _ in pairs(lists) do
  if keep == 0 then redis.call('DEL', k) else redis.call('LTRIM', k, 0, keep - 1) end
end
return 'ok'
",
    )
});

/// Writes documents if their versions are as expected, and scores.
/// KEYS: the documents hash, the versions hash, then one sorted set per
/// score. ARGV: the number of documents, per document its key, expected
/// version and value, then per score its member and score (empty:
/// remove). Answers `ok` or `conflict:KEY:VERSION`.
static PUT_DOCS: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local n = tonumber(ARGV[1])
for i = 0, n - 1 do
  local key, expect = ARGV[2 + 3 * i], ARGV[3 + 3 * i]
  local v = redis.call('HGET', KEYS[2], key) or '0'
  if v ~= expect then return 'conflict:' .. key .. ':' .. v end
end
for i = 0, n - 1 do
  local key = ARGV[2 + 3 * i]
  redis.call('HSET', KEYS[1], key, ARGV[4 + 3 * i])
  redis.call('HINCRBY', KEYS[2], key, 1)
end
local base = 2 + 3 * n
for i = 3, #KEYS do
  local member, score = ARGV[base + 2 * (i - 3)], ARGV[base + 2 * (i - 3) + 1]
  if score == '' then redis.call('ZREM', KEYS[i], member)
  else redis.call('ZADD', KEYS[i], score, member) end
end
return 'ok'
",
    )
});

fn check_space(space: &str) -> Result<()> {
    if valid_space(space) {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "'{space}' is not a space name (lower-case letters)"
        )))
    }
}

fn csv(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn uncsv(text: &str) -> Result<Vec<i64>> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .map(|v| {
            v.parse()
                .map_err(|_| StoreError::Corrupt(format!("a tally's counters read {text:?}")))
        })
        .collect()
}

fn fields(rows: Vec<(String, String)>) -> Result<crate::study::Fields> {
    let mut out = rows
        .into_iter()
        .map(|(f, v)| {
            let f = f
                .parse()
                .map_err(|_| StoreError::Corrupt(format!("a tally field reads {f:?}")))?;
            Ok((f, uncsv(&v)?))
        })
        .collect::<Result<Vec<_>>>()?;
    out.sort_by_key(|(f, _)| *f);
    Ok(out)
}

/// Where an export of the tallies and documents stands.
#[derive(Default, Serialize, Deserialize)]
struct Cursor {
    /// The `SCAN` over every study key (on every primary of a cluster).
    scan: Scan,
    /// Keys found and not yet given.
    pending: Vec<String>,
    /// A large key being read in pages (a set, the documents, a sorted
    /// set), and its own scan's cursor.
    sub: Option<(String, u64)>,
}

impl RedisStore {
    fn counts_key(&self, space: &str, key: &[u8]) -> String {
        self.keys.study(space, &format!("c:{}", hex(key)))
    }

    fn list_key(&self, space: &str, key: &[u8]) -> String {
        self.keys.study(space, &format!("l:{}", hex(key)))
    }

    pub(super) async fn tally_impl(&self, space: &str, tally: &Tally) -> Result<bool> {
        check_space(space)?;
        let mut call = TALLY.prepare_invoke();
        call.key(self.keys.study(space, "applied"));
        for add in &tally.counts {
            call.key(self.counts_key(space, &add.key));
        }
        for push in &tally.pushes {
            call.key(self.list_key(space, &push.key));
        }
        call.arg(&tally.token)
            .arg(tally.keep)
            .arg(tally.counts.len());
        for add in &tally.counts {
            call.arg(add.field).arg(csv(&add.values));
        }
        for push in &tally.pushes {
            call.arg(push.item.as_slice());
        }
        let status: String = self.invoke("applying a tally", call).await?;
        match status.as_str() {
            "ok" => Ok(true),
            "applied" => Ok(false),
            other => Err(unexpected("applying a tally", other)),
        }
    }

    pub(super) async fn tallies_impl(
        &self,
        space: &str,
        keys: &[Vec<u8>],
    ) -> Result<Vec<crate::study::Fields>> {
        check_space(space)?;
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for k in keys {
            pipe.cmd("HGETALL").arg(self.counts_key(space, k));
        }
        let rows: Vec<Vec<(String, String)>> = self.pipeline("reading tallies", pipe).await?;
        rows.into_iter().map(fields).collect()
    }

    pub(super) async fn lists_impl(
        &self,
        space: &str,
        keys: &[Vec<u8>],
    ) -> Result<Vec<Vec<Vec<u8>>>> {
        check_space(space)?;
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for k in keys {
            pipe.cmd("LRANGE")
                .arg(self.list_key(space, k))
                .arg(0)
                .arg(-1);
        }
        self.pipeline("reading lists", pipe).await
    }

    pub(super) async fn put_docs_impl(
        &self,
        space: &str,
        docs: &[DocPut],
        scores: &[ScorePut],
    ) -> Result<()> {
        check_space(space)?;
        let mut seen = HashSet::new();
        if let Some(d) = docs.iter().find(|d| !seen.insert(d.key.as_str())) {
            return Err(StoreError::Invalid(format!(
                "document {} is written twice in one batch",
                d.key
            )));
        }
        let mut call = PUT_DOCS.prepare_invoke();
        call.key(self.keys.study(space, "d"))
            .key(self.keys.study(space, "v"));
        for s in scores {
            call.key(self.keys.study(space, &format!("z:{}", s.index)));
        }
        call.arg(docs.len());
        for d in docs {
            call.arg(&d.key).arg(d.expect).arg(d.value.as_slice());
        }
        for s in scores {
            call.arg(&s.member)
                .arg(s.score.map_or_else(String::new, |v| v.to_string()));
        }
        let status: String = self.invoke("writing documents", call).await?;
        match status.as_str() {
            "ok" => Ok(()),
            s if s.starts_with("conflict:") => Err(StoreError::Conflict(format!(
                "document {} changed (version {})",
                s.trim_start_matches("conflict:")
                    .rsplit_once(':')
                    .map_or(s, |(k, _)| k),
                s.rsplit(':').next().unwrap_or("?")
            ))),
            other => Err(unexpected("writing documents", other)),
        }
    }

    pub(super) async fn docs_impl(&self, space: &str, keys: &[String]) -> Result<Vec<Option<Doc>>> {
        check_space(space)?;
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        pipe.cmd("HMGET").arg(self.keys.study(space, "d")).arg(keys);
        pipe.cmd("HMGET").arg(self.keys.study(space, "v")).arg(keys);
        let (values, versions): (Vec<Option<Vec<u8>>>, Vec<Option<u64>>) =
            self.pipeline("reading documents", pipe).await?;
        Ok(values
            .into_iter()
            .zip(versions)
            .map(|(value, version)| match (value, version) {
                (Some(value), Some(version)) => Some(Doc { version, value }),
                _ => None,
            })
            .collect())
    }

    pub(super) async fn scored_impl(
        &self,
        space: &str,
        index: &str,
        min: i64,
        max: i64,
        limit: usize,
    ) -> Result<Vec<(String, i64)>> {
        check_space(space)?;
        let mut range = redis::cmd("ZRANGEBYSCORE");
        range
            .arg(self.keys.study(space, &format!("z:{index}")))
            .arg(min)
            .arg(max)
            .arg("WITHSCORES")
            .arg("LIMIT")
            .arg(0)
            .arg(limit);
        let rows: Vec<(String, f64)> = self.query("reading a scored index", range).await?;
        Ok(rows.into_iter().map(|(m, s)| (m, s as i64)).collect())
    }

    /// A pipeline within the timeout.
    async fn pipeline<T: redis::FromRedisValue>(
        &self,
        what: &str,
        pipe: redis::Pipeline,
    ) -> Result<T> {
        let mut conn = self.conn.clone();
        self.call(what, async move { pipe.query_async(&mut conn).await })
            .await
    }

    pub(super) async fn import_study_impl(&self, items: &[StudyItem]) -> Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for item in items {
            match item {
                StudyItem::Counts { space, key, fields } => {
                    check_space(space)?;
                    let k = self.counts_key(space, key);
                    pipe.cmd("DEL").arg(&k).ignore();
                    for (f, v) in fields {
                        pipe.cmd("HSET").arg(&k).arg(f).arg(csv(v)).ignore();
                    }
                }
                StudyItem::List { space, key, items } => {
                    check_space(space)?;
                    let k = self.list_key(space, key);
                    pipe.cmd("DEL").arg(&k).ignore();
                    if !items.is_empty() {
                        pipe.cmd("RPUSH").arg(&k).arg(items).ignore();
                    }
                }
                StudyItem::Applied { space, token } => {
                    check_space(space)?;
                    pipe.cmd("SADD")
                        .arg(self.keys.study(space, "applied"))
                        .arg(token)
                        .ignore();
                }
                StudyItem::Doc {
                    space,
                    key,
                    version,
                    value,
                } => {
                    check_space(space)?;
                    pipe.cmd("HSET")
                        .arg(self.keys.study(space, "d"))
                        .arg(key)
                        .arg(value.as_slice())
                        .ignore();
                    pipe.cmd("HSET")
                        .arg(self.keys.study(space, "v"))
                        .arg(key)
                        .arg(version)
                        .ignore();
                }
                StudyItem::Score {
                    space,
                    index,
                    member,
                    score,
                } => {
                    check_space(space)?;
                    pipe.cmd("ZADD")
                        .arg(self.keys.study(space, &format!("z:{index}")))
                        .arg(score)
                        .arg(member)
                        .ignore();
                }
            }
        }
        let () = self
            .pipeline("importing tallies and documents", pipe)
            .await?;
        Ok(())
    }

    pub(super) async fn export_study_impl(
        &self,
        from: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<StudyPage> {
        let limit = limit.max(1);
        let count = limit.max(100);
        let mut cursor: Cursor = match from {
            Some(c) => crate::codec::uncursor(c)?,
            None => Cursor::default(),
        };
        let mut items = Vec::new();
        while items.len() < limit {
            if let Some((key, at)) = cursor.sub.take() {
                let (next, got) = self.export_big(&key, at, count).await?;
                items.extend(got);
                if next != 0 {
                    cursor.sub = Some((key, next));
                }
            } else if let Some(key) = cursor.pending.pop() {
                let Some((space, rest)) = self.keys.parse_study(&key) else {
                    continue;
                };
                let space = space.to_owned();
                if let Some(h) = rest.strip_prefix("c:") {
                    let Some(k) = unhex(h) else { continue };
                    let mut all = redis::cmd("HGETALL");
                    all.arg(&key);
                    let rows: Vec<(String, String)> = self.query("exporting a tally", all).await?;
                    items.push(StudyItem::Counts {
                        space,
                        key: k,
                        fields: fields(rows)?,
                    });
                } else if let Some(h) = rest.strip_prefix("l:") {
                    let Some(k) = unhex(h) else { continue };
                    let mut all = redis::cmd("LRANGE");
                    all.arg(&key).arg(0).arg(-1);
                    let list: Vec<Vec<u8>> = self.query("exporting a list", all).await?;
                    items.push(StudyItem::List {
                        space,
                        key: k,
                        items: list,
                    });
                } else if rest == "applied" || rest == "d" || rest.starts_with("z:") {
                    cursor.sub = Some((key, 0));
                    let (k, at) = cursor.sub.take().expect("just set");
                    let (next, got) = self.export_big(&k, at, count).await?;
                    items.extend(got);
                    if next != 0 {
                        cursor.sub = Some((k, next));
                    }
                }
            } else if !cursor.scan.done() {
                let keys = self.scan(&mut cursor.scan, keys::STUDY, count).await?;
                cursor.pending.extend(keys);
            } else {
                return Ok(StudyPage { items, next: None });
            }
        }
        Ok(StudyPage {
            items,
            next: Some(crate::codec::cursor(&cursor)?),
        })
    }

    /// One page of a large key: the applied set (`SSCAN`), the documents
    /// (`HSCAN`, with their versions) or a scored index (`ZSCAN`).
    async fn export_big(&self, key: &str, at: u64, count: usize) -> Result<(u64, Vec<StudyItem>)> {
        let Some((space, rest)) = self.keys.parse_study(key) else {
            return Ok((0, Vec::new()));
        };
        let space = space.to_owned();
        let scan = |name: &str| {
            let mut c = redis::cmd(name);
            c.arg(key).arg(at).arg("COUNT").arg(count);
            c
        };
        if rest == "applied" {
            let (next, tokens): (u64, Vec<String>) =
                self.query("exporting tokens", scan("SSCAN")).await?;
            let items = tokens
                .into_iter()
                .map(|token| StudyItem::Applied {
                    space: space.clone(),
                    token,
                })
                .collect();
            Ok((next, items))
        } else if rest == "d" {
            let (next, rows): (u64, Vec<(String, Vec<u8>)>) =
                self.query("exporting documents", scan("HSCAN")).await?;
            if rows.is_empty() {
                return Ok((next, Vec::new()));
            }
            let names: Vec<&String> = rows.iter().map(|(k, _)| k).collect();
            let mut versions = redis::cmd("HMGET");
            versions.arg(self.keys.study(&space, "v")).arg(names);
            let versions: Vec<Option<u64>> = self.query("exporting versions", versions).await?;
            let items = rows
                .into_iter()
                .zip(versions)
                .map(|((key, value), version)| StudyItem::Doc {
                    space: space.clone(),
                    key,
                    version: version.unwrap_or(1),
                    value,
                })
                .collect();
            Ok((next, items))
        } else if let Some(index) = rest.strip_prefix("z:") {
            let (next, rows): (u64, Vec<(String, f64)>) =
                self.query("exporting scores", scan("ZSCAN")).await?;
            let items = rows
                .into_iter()
                .map(|(member, score)| StudyItem::Score {
                    space: space.clone(),
                    index: index.to_owned(),
                    member,
                    score: score as i64,
                })
                .collect();
            Ok((next, items))
        } else {
            Ok((0, Vec::new()))
        }
    }
}
