//! Every table of the store, open in one write transaction, and how each
//! write is applied to them (with its precondition checked first, so that a
//! refused write writes nothing): what the writer thread's transactions,
//! a checkpoint's replay of the journal and an import all go through.

use redb::{ReadableTable, ReadableTableMetadata, Table, WriteTransaction};

use super::lazy::Lazy;
use super::ops::Op;
use super::schema::{
    ACCOUNTS, COUNTERS, GAME_INFO, GAME_RECORD, GAMES_BY_PLAYER, GC_CURSOR, GameInfo, LIVE,
    LIVE_LOG, LIVE_META, NEXT_SEQ, ORPHANS, RATING_HISTORY, RATINGS, TOKENS, after, db_error,
    decode, encode,
};
use super::schema::{Applied, Failure, fatal};
use crate::{Account, FinishedGame, Rating, Result, StoreError, name_key};

/// Orphaned log entries (of finished or discarded tables) are collected
/// once there are at least this many and at least a quarter of the log...
const GC_MIN_ORPHANS: u64 = 4096;
/// ... by steps that each scan this many entries, one step per commit at
/// most every 20 ms (the writer's `GC_EVERY`): a step deletes hundreds of pages' worth of
/// entries, and every write waiting meanwhile waits for it, so steps are
/// kept small and spread out (up to 100k entries a second, far above the
/// rate at which moves are made).
const GC_STEP: usize = 2 * 1024;
/// Every table, open in one write transaction, and the counters as this
/// transaction has them.
pub(super) struct Tables<'txn> {
    pub(super) counters: Table<'txn, &'static str, u64>,
    pub(super) next_seq: u64,
    pub(super) orphans: u64,
    pub(super) live: Table<'txn, &'static str, (u64, u64)>,
    pub(super) live_meta: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) live_log: Table<'txn, u64, (u64, u64, &'static [u8])>,
    pub(super) game_info: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) game_record: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) games_by_player: Lazy<'txn, (&'static str, u64, &'static str), &'static [u8]>,
    pub(super) accounts: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) tokens: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) ratings: Lazy<'txn, (&'static str, &'static str), &'static [u8]>,
    pub(super) history: Lazy<'txn, (&'static str, &'static str, u64), &'static [u8]>,
    pub(super) moderation: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) tournaments: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) skeletons: Lazy<'txn, (&'static str, &'static str), ()>,
    pub(super) study: super::study::StudyTables<'txn>,
}

impl<'txn> Tables<'txn> {
    pub(super) fn open(txn: &'txn WriteTransaction) -> Result<Self> {
        let counters = txn.open_table(COUNTERS).map_err(db_error)?;
        let counter = |name| -> Result<u64> {
            Ok(counters
                .get(name)
                .map_err(db_error)?
                .map_or(0, |v| v.value()))
        };
        let (next_seq, orphans) = (counter(NEXT_SEQ)?, counter(ORPHANS)?);
        Ok(Tables {
            counters,
            next_seq,
            orphans,
            live: txn.open_table(LIVE).map_err(db_error)?,
            live_meta: Lazy::new(txn, LIVE_META),
            live_log: txn.open_table(LIVE_LOG).map_err(db_error)?,
            game_info: Lazy::new(txn, GAME_INFO),
            game_record: Lazy::new(txn, GAME_RECORD),
            games_by_player: Lazy::new(txn, GAMES_BY_PLAYER),
            accounts: Lazy::new(txn, ACCOUNTS),
            tokens: Lazy::new(txn, TOKENS),
            ratings: Lazy::new(txn, RATINGS),
            history: Lazy::new(txn, RATING_HISTORY),
            moderation: Lazy::new(txn, super::schema::MODERATION),
            tournaments: Lazy::new(txn, super::tournaments::TOURNAMENTS),
            skeletons: Lazy::new(txn, super::schema::NAME_SKELETONS),
            study: super::study::StudyTables::new(txn),
        })
    }

    pub(super) fn apply(&mut self, op: &Op) -> Applied {
        match op {
            Op::Ping | Op::Flush => Ok(()),
            Op::CreateTable { id, meta } => self.create_table(id, meta),
            Op::Append { id, at, entries } => self.append(id, *at, entries),
            Op::Discard { id } => self.remove_live(id),
            Op::Finish(game) => self.finish_game(game),
            Op::CreateAccount(account) => self.create_account(account),
            Op::MakeBot(name) => self.make_bot(name),
            Op::SetBotFilters { name, filters } => self.set_bot_filters(name, filters),
            Op::Moderation(write) => self.moderate(write),
            Op::PutToken(token) => {
                let value = encode(token).map_err(Failure::Refused)?;
                self.tokens
                    .open()?
                    .insert(token.token.as_str(), value.as_slice())
                    .map_err(fatal)?;
                Ok(())
            }
            Op::Import(items) => {
                for item in items {
                    if let crate::Item::Live(table) = item
                        && self.is_finished(&table.id)?
                    {
                        return Err(Failure::Refused(StoreError::Exists(format!(
                            "game {} is finished; it cannot be imported as live",
                            table.id
                        ))));
                    }
                }
                self.import(items)
            }
            Op::PutTournament { id, state } => {
                self.tournaments
                    .open()?
                    .insert(id.as_str(), state.as_slice())
                    .map_err(fatal)?;
                Ok(())
            }
            Op::Study(write) => self.study.apply(write),
            Op::RevokeToken(token) => {
                self.tokens.open()?.remove(token.as_str()).map_err(fatal)?;
                Ok(())
            }
        }
    }

    fn is_live(&self, id: &str) -> std::result::Result<bool, Failure> {
        Ok(self.live.get(id).map_err(fatal)?.is_some())
    }

    /// Writes back the counters and takes a step of garbage collection if
    /// one is due and `gc` allows it.
    pub(super) fn finish(&mut self, gc: bool) -> Result<()> {
        if gc
            && self.orphans >= GC_MIN_ORPHANS
            && self.orphans >= self.live_log.len().map_err(db_error)? / 4
        {
            self.collect_garbage()?;
        }
        self.counters
            .insert(NEXT_SEQ, self.next_seq)
            .map_err(db_error)?;
        self.counters
            .insert(ORPHANS, self.orphans)
            .map_err(db_error)?;
        Ok(())
    }

    /// Deletes the orphaned entries among the next [`GC_STEP`] of the log
    /// from the cursor on, wrapping around at the end.
    fn collect_garbage(&mut self) -> Result<()> {
        let mut live = std::collections::HashSet::new();
        for row in self.live.iter().map_err(db_error)? {
            live.insert(row.map_err(db_error)?.1.value().0);
        }
        let start = self
            .counters
            .get(GC_CURSOR)
            .map_err(db_error)?
            .map_or(0, |v| v.value());
        let end = match self.live_log.range(start..).map_err(db_error)?.nth(GC_STEP) {
            Some(row) => Some(row.map_err(db_error)?.0.value()),
            None => None,
        };
        let mut deleted = 0;
        let keep = |_, (generation, _, _): (u64, u64, &[u8])| {
            let keep = live.contains(&generation);
            deleted += u64::from(!keep);
            keep
        };
        match end {
            Some(end) => self.live_log.retain_in(start..end, keep),
            None => self.live_log.retain_in(start.., keep),
        }
        .map_err(db_error)?;
        self.orphans = self.orphans.saturating_sub(deleted);
        self.counters
            .insert(GC_CURSOR, end.unwrap_or(0))
            .map_err(db_error)?;
        Ok(())
    }

    fn is_finished(&mut self, id: &str) -> std::result::Result<bool, Failure> {
        Ok(self.game_info.open()?.get(id).map_err(fatal)?.is_some())
    }

    pub(super) fn create_table(&mut self, id: &str, meta: &[u8]) -> Applied {
        if self.is_live(id)? {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "table {id} is live"
            ))));
        }
        if self.is_finished(id)? {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "game {id} is finished"
            ))));
        }
        let generation = self.next_seq;
        self.next_seq += 1;
        self.live_meta.open()?.insert(id, meta).map_err(fatal)?;
        self.live.insert(id, (generation, 0)).map_err(fatal)?;
        Ok(())
    }

    pub(super) fn append(&mut self, id: &str, at: u64, entries: &[Vec<u8>]) -> Applied {
        let (generation, len) = match self.live.get(id).map_err(fatal)? {
            Some(row) => row.value(),
            None => {
                return Err(Failure::Refused(StoreError::NotFound(format!(
                    "no live table {id}"
                ))));
            }
        };
        if len != at {
            return Err(Failure::Refused(StoreError::Conflict(format!(
                "table {id}'s log has {len} entries, not {at}"
            ))));
        }
        for (index, entry) in (at..).zip(entries) {
            self.live_log
                .insert(self.next_seq, (generation, index, entry.as_slice()))
                .map_err(fatal)?;
            self.next_seq += 1;
        }
        self.live
            .insert(id, (generation, at + entries.len() as u64))
            .map_err(fatal)?;
        Ok(())
    }

    /// Removes a live table and its metadata, if it is there. Its log
    /// entries are orphans from now on, left to the garbage collection
    /// (they are spread through the log).
    pub(super) fn remove_live(&mut self, id: &str) -> Applied {
        let Some(len) = self.live.remove(id).map_err(fatal)?.map(|r| r.value().1) else {
            return Ok(());
        };
        self.live_meta.open()?.remove(id).map_err(fatal)?;
        self.orphans += len;
        Ok(())
    }

    fn finish_game(&mut self, game: &FinishedGame) -> Applied {
        let id = game.id.as_str();
        // Every check and every encoding first: a refusal writes nothing.
        if self.is_finished(id)? {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "game {id} is finished"
            ))));
        }
        let mut ratings = Vec::with_capacity(game.ratings.len());
        for update in &game.ratings {
            let rating = &update.rating;
            let player = name_key(&rating.player);
            let stored = match self
                .ratings
                .open()?
                .get((rating.family.as_str(), player.as_str()))
                .map_err(fatal)?
            {
                Some(value) => {
                    let stored: Rating =
                        decode(value.value(), "a rating").map_err(Failure::Refused)?;
                    stored.games
                }
                None => 0,
            };
            if stored != update.expected_games {
                return Err(Failure::Refused(StoreError::Conflict(format!(
                    "{}'s {} rating has {stored} games, not {}",
                    rating.player, rating.family, update.expected_games
                ))));
            }
            let value = encode(rating).map_err(Failure::Refused)?;
            let point = encode(&update.history).map_err(Failure::Refused)?;
            ratings.push((player, rating.family.as_str(), value, point));
        }
        self.put_game(game)?;
        for (player, family, value, point) in &ratings {
            self.ratings
                .open()?
                .insert((*family, player.as_str()), value.as_slice())
                .map_err(fatal)?;
            let seq = match self
                .history
                .open()?
                .range((player.as_str(), *family, 0)..=(player.as_str(), *family, u64::MAX))
                .map_err(fatal)?
                .next_back()
            {
                Some(last) => last.map_err(fatal)?.0.value().2 + 1,
                None => 0,
            };
            self.history
                .open()?
                .insert((player.as_str(), *family, seq), point.as_slice())
                .map_err(fatal)?;
        }
        self.remove_live(id)
    }

    /// Writes a finished game's header and record and indexes it for its
    /// players (no checks).
    pub(super) fn put_game(&mut self, game: &FinishedGame) -> Applied {
        let id = game.id.as_str();
        let info = encode(&GameInfo {
            finished_ms: game.finished_ms,
            players: game.players.clone(),
        })
        .map_err(Failure::Refused)?;
        let players = encode(&game.players).map_err(Failure::Refused)?;
        self.game_info
            .open()?
            .insert(id, info.as_slice())
            .map_err(fatal)?;
        self.game_record
            .open()?
            .insert(id, game.record.as_slice())
            .map_err(fatal)?;
        for player in &game.players {
            let key = name_key(player);
            self.games_by_player
                .open()?
                .insert((key.as_str(), game.finished_ms, id), players.as_slice())
                .map_err(fatal)?;
        }
        Ok(())
    }

    fn create_account(&mut self, account: &Account) -> Applied {
        let key = name_key(&account.name);
        if self
            .accounts
            .open()?
            .get(key.as_str())
            .map_err(fatal)?
            .is_some()
        {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "the name {} is taken",
                account.name
            ))));
        }
        let value = encode(account).map_err(Failure::Refused)?;
        self.accounts
            .open()?
            .insert(key.as_str(), value.as_slice())
            .map_err(fatal)?;
        self.index_name(&account.name)
    }

    /// The stored account under `name` (any case), or `not_found`.
    fn stored_account(&mut self, name: &str) -> std::result::Result<Account, Failure> {
        match self
            .accounts
            .open()?
            .get(name_key(name).as_str())
            .map_err(fatal)?
        {
            Some(value) => decode(value.value(), "an account").map_err(Failure::Refused),
            None => Err(Failure::Refused(StoreError::NotFound(format!(
                "no account {name}"
            )))),
        }
    }

    /// A bot's filters kept (see [`crate::Store::set_bot_filters`]).
    fn set_bot_filters(&mut self, name: &str, filters: &str) -> Applied {
        let mut account = self.stored_account(name)?;
        if !account.bot {
            return Err(Failure::Refused(StoreError::Conflict(format!(
                "{name} is not a bot"
            ))));
        }
        account.bot_filters = Some(filters.to_owned());
        let value = encode(&account).map_err(Failure::Refused)?;
        self.accounts
            .open()?
            .insert(name_key(name).as_str(), value.as_slice())
            .map_err(fatal)?;
        Ok(())
    }

    /// The account made a bot, checked against its games in the same
    /// transaction (see [`crate::Store::make_bot`]).
    fn make_bot(&mut self, name: &str) -> Applied {
        let key = name_key(name);
        let mut account = self.stored_account(name)?;
        if account.bot {
            return Ok(());
        }
        let played = self
            .games_by_player
            .open()?
            .range((key.as_str(), 0, "")..(after(&key).as_str(), 0, ""))
            .map_err(fatal)?
            .next()
            .is_some();
        if played {
            return Err(Failure::Refused(StoreError::Conflict(format!(
                "{name} has played a game"
            ))));
        }
        account.bot = true;
        let value = encode(&account).map_err(Failure::Refused)?;
        self.accounts
            .open()?
            .insert(key.as_str(), value.as_slice())
            .map_err(fatal)?;
        Ok(())
    }
}
