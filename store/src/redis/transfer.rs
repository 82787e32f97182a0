//! Export and import for the Redis store (see [`crate::Store::export`]).
//!
//! An export walks one kind of key after the other with `SCAN MATCH`
//! (accounts, tokens, rating families, finished games, live tables) on
//! every node that holds keys (each primary of a Redis Cluster, one after
//! the other), and each family's ratings with `HSCAN`; the cursor holds
//! where each scan stands. `SCAN` promises every key present for the whole scan and may
//! return one twice, so an item may come twice; imports replace, so that
//! is harmless. Memory is bounded by a page, not the store.

use futures_util::{StreamExt, TryStreamExt, stream};
use serde::{Deserialize, Serialize};

use super::handle::RedisStore;
use super::reads::READ_AHEAD;
use super::{keys, scripts};
use crate::codec::{decode, encode};
use crate::{AuthToken, ExportCursor, ExportPage, Item, Result, StoreError, name_key};

const ACCOUNTS: u8 = 0;
const TOKENS: u8 = 1;
const RATINGS: u8 = 2;
const GAMES: u8 = 3;
const DONE: u8 = 5;

/// Where an export stands.
#[derive(Default, Serialize, Deserialize)]
struct Cursor {
    section: u8,
    /// Where the section's `SCAN` stands.
    scan: Scan,
    /// Ratings: families found and not yet read, and where the `HSCAN` of
    /// the first one stands.
    families: Vec<String>,
    hscan: u64,
}

impl Cursor {
    fn next_section(&mut self) {
        *self = Cursor {
            section: self.section + 1,
            ..Cursor::default()
        };
    }
}

/// Where a `SCAN` of one kind of key stands: the nodes it visits (found
/// at its first step: [`super::conn::Conn::scan_nodes`]), the one it is
/// on, and the cursor there.
#[derive(Clone, Default, Serialize, Deserialize)]
pub(super) struct Scan {
    nodes: Option<Vec<Option<u16>>>,
    node: usize,
    cursor: u64,
}

impl Scan {
    /// Whether every node's `SCAN` has come back to 0.
    pub fn done(&self) -> bool {
        self.nodes.as_ref().is_some_and(|n| self.node >= n.len())
    }
}

impl RedisStore {
    /// One `SCAN` step over one kind of key (on every node in turn):
    /// the keys found, `at` moved on.
    pub(super) async fn scan(
        &self,
        at: &mut Scan,
        kind: (&str, &str),
        count: usize,
    ) -> Result<Vec<String>> {
        if at.nodes.is_none() {
            let mut conn = self.conn.clone();
            at.nodes = Some(
                self.call("finding the Redis primaries", async move {
                    conn.scan_nodes().await
                })
                .await?,
            );
        }
        let Some(&node) = at.nodes.as_ref().and_then(|n| n.get(at.node)) else {
            return Ok(Vec::new());
        };
        let mut scan = redis::cmd("SCAN");
        scan.arg(at.cursor)
            .arg("MATCH")
            .arg(self.keys.pattern(kind))
            .arg("COUNT")
            .arg(count);
        let mut conn = self.conn.clone();
        let (next, found): (u64, Vec<String>) = self
            .call(
                "scanning keys",
                async move { conn.on_node(node, scan).await },
            )
            .await?;
        at.cursor = next;
        if next == 0 {
            at.node += 1;
        }
        Ok(found)
    }

    pub(super) async fn export_impl(
        &self,
        from: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage> {
        let limit = limit.max(1);
        let count = limit.max(100);
        let mut cursor: Cursor = match from {
            Some(c) => crate::codec::uncursor(c)?,
            None => Cursor::default(),
        };
        let mut items = Vec::new();
        while cursor.section < DONE && items.len() < limit {
            if cursor.section == RATINGS {
                if let Some(family) = cursor.families.first().cloned() {
                    let (next, ratings) = self.rating_page(&family, cursor.hscan, count).await?;
                    items.extend(ratings);
                    cursor.hscan = next;
                    if next == 0 {
                        cursor.families.remove(0);
                    }
                } else if cursor.scan.done() {
                    cursor.next_section();
                } else {
                    let found = self.scan(&mut cursor.scan, keys::RATINGS, count).await?;
                    cursor.families.extend(
                        found
                            .iter()
                            .filter_map(|k| self.keys.parse(k, keys::RATINGS))
                            .map(str::to_owned),
                    );
                }
                continue;
            }
            let kind = match cursor.section {
                ACCOUNTS => keys::ACCOUNTS,
                TOKENS => keys::TOKENS,
                GAMES => keys::GAMES,
                // The live tables.
                _ => keys::LIVE,
            };
            let found = self.scan(&mut cursor.scan, kind, count).await?;
            let ids: Vec<String> = found
                .iter()
                .filter_map(|k| self.keys.parse(k, kind))
                .map(str::to_owned)
                .collect();
            let section = cursor.section;
            let got: Vec<Option<Item>> = stream::iter(ids)
                .map(|id| async move { self.export_item(section, &id).await })
                .buffered(READ_AHEAD)
                .try_collect()
                .await?;
            items.extend(got.into_iter().flatten());
            if cursor.scan.done() {
                cursor.next_section();
            }
        }
        let next = if cursor.section < DONE {
            Some(crate::codec::cursor(&cursor)?)
        } else {
            None
        };
        Ok(ExportPage { items, next })
    }

    /// The item under one scanned key, if it is still there.
    async fn export_item(&self, section: u8, id: &str) -> Result<Option<Item>> {
        Ok(match section {
            // The key holds the name key; any case finds the account.
            ACCOUNTS => self.account_impl(id).await?.map(Item::Account),
            TOKENS => self.stored_token(id).await?.map(Item::Token),
            GAMES => self.game_impl(id).await?.map(Item::Game),
            _ => self.live_table_impl(id).await?.map(Item::Live),
        })
    }

    /// One `HSCAN` step over a family's ratings, each with its history.
    async fn rating_page(&self, family: &str, at: u64, count: usize) -> Result<(u64, Vec<Item>)> {
        let mut scan = redis::cmd("HSCAN");
        scan.arg(self.keys.ratings(family))
            .arg(at)
            .arg("COUNT")
            .arg(count);
        let (next, pairs): (u64, Vec<(String, Vec<u8>)>) =
            self.query("scanning ratings", scan).await?;
        let items = stream::iter(pairs)
            .map(|(_, value)| async move {
                let rating: crate::Rating = decode(&value, "a rating")?;
                let history = self.rating_history_impl(&rating.player, family).await?;
                Ok::<_, StoreError>(Item::Rating { rating, history })
            })
            .buffered(READ_AHEAD)
            .try_collect()
            .await?;
        Ok((next, items))
    }

    pub(super) async fn import_impl(&self, items: &[Item]) -> Result<()> {
        // Refuse before writing anything: a live table whose id is a
        // finished game's.
        for item in items {
            if let Item::Live(table) = item {
                let mut exists = redis::cmd("EXISTS");
                exists.arg(self.keys.game(&table.id));
                let finished: u64 = self.query("checking an imported table", exists).await?;
                if finished > 0 {
                    return Err(StoreError::Exists(format!(
                        "game {} is finished; it cannot be imported as live",
                        table.id
                    )));
                }
            }
        }
        let mut pipe = redis::pipe();
        for item in items {
            match item {
                Item::Account(account) => {
                    pipe.add_command(self.index_name(&account.name)).ignore();
                    pipe.cmd("SET")
                        .arg(self.keys.account(&account.name))
                        .arg(encode(account)?)
                        .ignore();
                }
                Item::Token(token) => {
                    let stored = AuthToken {
                        token: crate::tokens::at_rest(&token.token),
                        ..token.clone()
                    };
                    pipe.cmd("SET")
                        .arg(self.keys.token(&stored.token))
                        .arg(encode(&stored)?)
                        .ignore();
                }
                Item::Rating { rating, history } => {
                    let player = name_key(&rating.player);
                    let family = rating.family.as_str();
                    pipe.cmd("HSET")
                        .arg(self.keys.ratings(family))
                        .arg(&player)
                        .arg(encode(rating)?)
                        .ignore();
                    pipe.cmd("HSET")
                        .arg(self.keys.rating_games(family))
                        .arg(&player)
                        .arg(rating.games)
                        .ignore();
                    let key = self.keys.history(&rating.player, family);
                    pipe.cmd("DEL").arg(&key).ignore();
                    for point in history {
                        pipe.cmd("RPUSH").arg(&key).arg(encode(point)?).ignore();
                    }
                }
                Item::Game(game) => {
                    pipe.cmd("HSET")
                        .arg(self.keys.game(&game.id))
                        .arg("finished_ms")
                        .arg(game.finished_ms)
                        .arg("players")
                        .arg(encode(&game.players)?)
                        .arg("record")
                        .arg(game.record.as_slice())
                        .ignore();
                    for player in &game.players {
                        pipe.cmd("ZADD")
                            .arg(self.keys.player_games(player))
                            .arg(game.finished_ms)
                            .arg(&game.id)
                            .ignore();
                    }
                }
                Item::Live(_) => {}
            }
        }
        let mut conn = self.conn.clone();
        self.call("importing", async move {
            pipe.query_async::<()>(&mut conn).await
        })
        .await?;
        for item in items {
            if let Item::Live(table) = item {
                // Indexed before and after, as a create does.
                let mut add = redis::cmd("SADD");
                add.arg(self.keys.live_index()).arg(&table.id);
                self.exec("indexing an imported table", add.clone()).await?;
                let mut put = scripts::PUT_TABLE.prepare_invoke();
                put.key(self.keys.meta(&table.id))
                    .key(self.keys.log(&table.id))
                    .arg(table.meta.as_slice());
                for entry in &table.entries {
                    put.arg(entry.as_slice());
                }
                let _: String = self.invoke("importing a live table", put).await?;
                self.exec("indexing an imported table", add).await?;
                self.index_created(&table.id).await?;
            }
        }
        Ok(())
    }
}
