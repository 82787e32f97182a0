//! While the store cannot confirm a write, a table refuses actions with
//! `unavailable`, changes nothing and stops its clocks; when the store is
//! back the game goes on with the clocks where they stopped.
//!
//! And a slow store charges nobody's clock: the time a player is charged
//! starts when the event giving them the move goes out.
//!
//! The store is the real embedded store behind a switch that makes every
//! call fail as an unreachable store would (and a knob that slows appends) (the embedded store itself
//! cannot be made to fail on demand; `tests/it/redis.rs` kills and restarts a
//! real Redis instead).

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use common::proc::DataDir;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, PauseReason, ServerMsg};
use tengen_rules::game::{ClockSnapshot, GameConfig, RuleSet, TimeControl};
use tengen_server::{Server, Settings};
use tengen_store::{
    Account, Acquired, AuthToken, EmbeddedStore, ExportCursor, ExportPage, FinishedGame, GameRef,
    HistoryPoint, Item, Lease, LiveTable, Rating, Result, Store, StoreError,
};

/// The embedded store with an off switch.
struct Switched {
    inner: EmbeddedStore,
    down: AtomicBool,
    /// Milliseconds every append takes before it reaches the store.
    slow_ms: std::sync::atomic::AtomicU64,
}

impl Switched {
    fn check(&self) -> Result<()> {
        if self.down.load(Ordering::SeqCst) {
            Err(StoreError::Unavailable("switched off by the test".into()))
        } else {
            Ok(())
        }
    }

    async fn slow(&self) {
        let ms = self.slow_ms.load(Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
}

#[async_trait]
impl Store for Switched {
    fn describe(&self) -> String {
        format!("switched {}", self.inner.describe())
    }
    async fn ping(&self) -> Result<()> {
        self.check()?;
        self.inner.ping().await
    }
    fn last_progress(&self) -> Option<std::time::Instant> {
        // Switched off, it completes nothing; on, it is the real store.
        match self.down.load(Ordering::SeqCst) {
            true => None,
            false => self.inner.last_progress(),
        }
    }
    async fn create_table(&self, id: &str, meta: &[u8]) -> Result<()> {
        self.check()?;
        self.inner.create_table(id, meta).await
    }
    async fn append(&self, id: &str, at: u64, entries: &[Vec<u8>]) -> Result<()> {
        self.check()?;
        self.slow().await;
        self.inner.append(id, at, entries).await
    }
    async fn acquire_lease(&self, id: &str, node: &str, ttl: Duration) -> Result<Acquired> {
        self.check()?;
        self.inner.acquire_lease(id, node, ttl).await
    }
    async fn renew_lease(&self, id: &str, lease: &Lease, ttl: Duration) -> Result<()> {
        self.check()?;
        self.inner.renew_lease(id, lease, ttl).await
    }
    async fn release_lease(&self, id: &str, lease: &Lease) -> Result<()> {
        self.check()?;
        self.inner.release_lease(id, lease).await
    }
    async fn lease(&self, id: &str) -> Result<Option<Lease>> {
        self.check()?;
        self.inner.lease(id).await
    }
    async fn append_leased(&self, id: &str, lease: &Lease, at: u64, e: &[Vec<u8>]) -> Result<()> {
        self.check()?;
        self.slow().await;
        self.inner.append_leased(id, lease, at, e).await
    }
    async fn unleased_tables(&self) -> Result<Vec<String>> {
        self.check()?;
        self.inner.unleased_tables().await
    }
    async fn index_seat(&self, token: &str, id: &str) -> Result<()> {
        self.check()?;
        self.inner.index_seat(token, id).await
    }
    async fn seat_tables(&self, token: &str) -> Result<Vec<String>> {
        self.check()?;
        self.inner.seat_tables(token).await
    }
    async fn live_tables(&self) -> Result<Vec<LiveTable>> {
        self.check()?;
        self.inner.live_tables().await
    }
    async fn live_table(&self, id: &str) -> Result<Option<LiveTable>> {
        self.check()?;
        self.inner.live_table(id).await
    }
    async fn discard_table(&self, id: &str) -> Result<()> {
        self.check()?;
        self.inner.discard_table(id).await
    }
    async fn finish_game(&self, game: &FinishedGame) -> Result<()> {
        self.check()?;
        self.inner.finish_game(game).await
    }
    async fn game(&self, id: &str) -> Result<Option<FinishedGame>> {
        self.check()?;
        self.inner.game(id).await
    }
    async fn games_of(&self, p: &str, before: Option<u64>, limit: usize) -> Result<Vec<GameRef>> {
        self.check()?;
        self.inner.games_of(p, before, limit).await
    }
    async fn create_account(&self, account: &Account) -> Result<()> {
        self.check()?;
        self.inner.create_account(account).await
    }
    async fn account(&self, name: &str) -> Result<Option<Account>> {
        self.check()?;
        self.inner.account(name).await
    }
    async fn accounts_like(&self, name: &str) -> Result<Vec<String>> {
        self.check()?;
        self.inner.accounts_like(name).await
    }
    async fn lookalike_accounts(&self, limit: usize) -> Result<Vec<Vec<String>>> {
        self.check()?;
        self.inner.lookalike_accounts(limit).await
    }
    async fn make_bot(&self, name: &str) -> Result<()> {
        self.check()?;
        self.inner.make_bot(name).await
    }
    async fn set_bot_filters(&self, name: &str, filters: &str) -> Result<()> {
        self.check()?;
        self.inner.set_bot_filters(name, filters).await
    }
    async fn put_token(&self, token: &AuthToken) -> Result<()> {
        self.check()?;
        self.inner.put_token(token).await
    }
    async fn token(&self, token: &str) -> Result<Option<AuthToken>> {
        self.check()?;
        self.inner.token(token).await
    }
    async fn revoke_token(&self, token: &str) -> Result<()> {
        self.check()?;
        self.inner.revoke_token(token).await
    }
    async fn rating(&self, player: &str, family: &str) -> Result<Option<Rating>> {
        self.check()?;
        self.inner.rating(player, family).await
    }
    async fn ratings(&self, family: &str) -> Result<Vec<Rating>> {
        self.check()?;
        self.inner.ratings(family).await
    }
    async fn rating_history(&self, player: &str, family: &str) -> Result<Vec<HistoryPoint>> {
        self.check()?;
        self.inner.rating_history(player, family).await
    }
    async fn export(&self, from: Option<&ExportCursor>, limit: usize) -> Result<ExportPage> {
        self.check()?;
        self.inner.export(from, limit).await
    }
    async fn import(&self, items: &[Item]) -> Result<()> {
        self.check()?;
        self.inner.import(items).await
    }
    async fn standing(&self, name: &str) -> Result<Option<tengen_store::Standing>> {
        self.check()?;
        self.inner.standing(name).await
    }
    async fn put_standing(&self, s: &tengen_store::Standing) -> Result<()> {
        self.check()?;
        self.inner.put_standing(s).await
    }
    async fn append_audit(&self, e: &tengen_store::AuditEntry) -> Result<()> {
        self.check()?;
        self.inner.append_audit(e).await
    }
    async fn audit_log(&self, limit: usize) -> Result<Vec<tengen_store::AuditEntry>> {
        self.check()?;
        self.inner.audit_log(limit).await
    }
    async fn put_report(&self, r: &tengen_store::Report) -> Result<()> {
        self.check()?;
        self.inner.put_report(r).await
    }
    async fn reports(&self) -> Result<Vec<tengen_store::Report>> {
        self.check()?;
        self.inner.reports().await
    }
    async fn put_address_ban(&self, b: &tengen_store::AddressBan) -> Result<()> {
        self.check()?;
        self.inner.put_address_ban(b).await
    }
    async fn remove_address_ban(&self, range: &str) -> Result<()> {
        self.check()?;
        self.inner.remove_address_ban(range).await
    }
    async fn address_bans(&self) -> Result<Vec<tengen_store::AddressBan>> {
        self.check()?;
        self.inner.address_bans().await
    }
    async fn put_tournament(&self, id: &str, state: &[u8]) -> Result<()> {
        self.check()?;
        self.inner.put_tournament(id, state).await
    }
    async fn tournament(&self, id: &str) -> Result<Option<Vec<u8>>> {
        self.check()?;
        self.inner.tournament(id).await
    }
    async fn tournaments(&self) -> Result<Vec<(String, Vec<u8>)>> {
        self.check()?;
        self.inner.tournaments().await
    }
    async fn tally(&self, space: &str, tally: &tengen_store::Tally) -> Result<bool> {
        self.check()?;
        self.inner.tally(space, tally).await
    }
    async fn tallies(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<tengen_store::Fields>> {
        self.check()?;
        self.inner.tallies(space, keys).await
    }
    async fn lists(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<Vec<Vec<u8>>>> {
        self.check()?;
        self.inner.lists(space, keys).await
    }
    async fn put_docs(
        &self,
        space: &str,
        docs: &[tengen_store::DocPut],
        scores: &[tengen_store::ScorePut],
    ) -> Result<()> {
        self.check()?;
        self.inner.put_docs(space, docs, scores).await
    }
    async fn docs(&self, space: &str, keys: &[String]) -> Result<Vec<Option<tengen_store::Doc>>> {
        self.check()?;
        self.inner.docs(space, keys).await
    }
    async fn scored(
        &self,
        space: &str,
        index: &str,
        min: i64,
        max: i64,
        limit: usize,
    ) -> Result<Vec<(String, i64)>> {
        self.check()?;
        self.inner.scored(space, index, min, max, limit).await
    }
    async fn export_study(
        &self,
        from: Option<&tengen_store::ExportCursor>,
        limit: usize,
    ) -> Result<tengen_store::StudyPage> {
        self.check()?;
        self.inner.export_study(from, limit).await
    }
    async fn import_study(&self, items: &[tengen_store::StudyItem]) -> Result<()> {
        self.check()?;
        self.inner.import_study(items).await
    }
}

async fn paused_push(c: &mut Connection) -> (Option<PauseReason>, Option<ClockSnapshot>) {
    let f = c
        .next_matching(|m| matches!(m, ServerMsg::TablePaused { .. }))
        .await
        .unwrap();
    match f.msg {
        ServerMsg::TablePaused { paused, clocks, .. } => (paused, clocks),
        _ => unreachable!(),
    }
}

/// A server on the switched embedded store in a fresh data directory
/// (kept alive by the returned guard).
async fn switched_server(tag: &str) -> (DataDir, Arc<Switched>, Server) {
    switched_server_with(tag, Settings::default()).await
}

async fn switched_server_with(tag: &str, base: Settings) -> (DataDir, Arc<Switched>, Server) {
    let dir = DataDir::new(tag);
    let store = Arc::new(Switched {
        inner: EmbeddedStore::open(&dir.0).unwrap(),
        down: AtomicBool::new(false),
        slow_ms: Default::default(),
    });
    let settings = Settings {
        listen: "127.0.0.1:0".parse().unwrap(),
        coalesce_interval: Duration::from_millis(50),
        ..base
    };
    let server = Server::start_with_store(settings, store.clone())
        .await
        .unwrap();
    (dir, store, server)
}

fn sudden_death() -> GameConfig {
    GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 120_000 })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_freezes_while_the_store_is_down_and_goes_on_after() {
    let (_dir, store, server) = switched_server("switched").await;
    let mut t = common::table(&server, sudden_death(), Encoding::Json).await;
    let black = t.opener();
    let white = black.other();
    t.act_as(black, common::place("H8")).await;
    let seq = t.act_as(white, common::place("J9")).await;

    store.down.store(true, Ordering::SeqCst);
    let table = t.table.clone();
    let refused = t
        .conn(black)
        .request(ClientMsg::Act {
            table: table.clone(),
            action: common::place("H9"),
        })
        .await;
    match refused {
        Err(tengen_client::ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::Unavailable),
        other => panic!("{other:?}"),
    }
    // Everyone hears that the clocks stopped, and at what figures.
    let (reason, stopped) = paused_push(t.conn(black)).await;
    assert_eq!(reason, Some(PauseReason::Store));
    assert_eq!(paused_push(t.conn(white)).await, (reason, stopped));
    // Nothing changed, and the clocks stand still.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let snap = common::snapshot_of(t.conn(white), &table).await;
    assert_eq!(snap.seq, seq, "no event was sent");
    assert_eq!(
        snap.snapshot.moves.len(),
        2,
        "the refused move did not happen"
    );
    assert_eq!(snap.paused, Some(PauseReason::Store));
    assert_eq!(snap.snapshot.clocks, stopped, "the clocks stood still");
    // Still down: still refused.
    let again = t
        .conn(black)
        .request(ClientMsg::Act {
            table: table.clone(),
            action: common::place("H9"),
        })
        .await;
    assert!(
        matches!(again, Err(tengen_client::ClientError::Refused(ref e)) if e.code == ErrorCode::Unavailable),
        "{again:?}"
    );

    store.down.store(false, Ordering::SeqCst);
    // Within the probe interval the table thaws, from the same figures.
    let (reason, clocks) = paused_push(t.conn(black)).await;
    assert_eq!(reason, None);
    assert_eq!(clocks, stopped);
    let stopped_black = stopped.unwrap().seat(black).main_ms;
    let seq2 = t.act_as(black, common::place("H9")).await;
    assert_eq!(seq2, seq + 1);
    let snap = common::snapshot_of(t.conn(white), &table).await;
    assert_eq!(snap.snapshot.moves.len(), 3);
    assert_eq!(snap.paused, None);
    let black_left = snap.snapshot.clocks.unwrap().seat(black).main_ms;
    // The outage lasted well over 700 ms; black is charged only the moment
    // between the thaw and the move (a lag credit may even give a little
    // back, from before the freeze).
    let charged = stopped_black.saturating_sub(black_left);
    assert!(
        charged < 500,
        "black was charged {charged} ms for the outage"
    );
    // And the move is in the store.
    let live = store
        .inner
        .live_table(table.as_str())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(live.entries.len(), 3);
}

/// The clocks in the event numbered `seq`, as `c` receives it.
async fn clocks_at(c: &mut Connection, seq: u64) -> ClockSnapshot {
    let f = c
        .next_matching(|m| matches!(m, ServerMsg::TableEvent(e) if e.seq == seq))
        .await
        .unwrap();
    match f.msg {
        ServerMsg::TableEvent(e) => match e.event {
            tengen_rules::game::Event::Moved { clocks, .. } => clocks.expect("a timed game"),
            other => panic!("{other:?}"),
        },
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_store_write_is_charged_to_nobody() {
    let (_dir, store, server) = switched_server("slowed").await;
    let mut t = common::table(&server, sudden_death(), Encoding::Json).await;
    let black = t.opener();
    let white = black.other();
    store.slow_ms.store(150, Ordering::SeqCst);
    let mut charged = Vec::new();
    for (b, w) in [("H8", "J9"), ("H9", "J10"), ("H10", "J11"), ("G11", "K12")] {
        // Black moves; the write takes 150 ms. White answers the moment
        // the event arrives, and is charged only the time it took.
        let seq = t.act_as(black, common::place(b)).await;
        let shown = clocks_at(t.conn(white), seq).await.seat(white).main_ms;
        let seq = t.act_as(white, common::place(w)).await;
        let after = clocks_at(t.conn(black), seq).await.seat(white).main_ms;
        charged.push(shown - after);
    }
    // A reply over loopback takes a few ms; the write (150 ms) is not in it.
    assert!(
        charged.iter().all(|&ms| ms < 100),
        "white was charged {charged:?} ms for replies sent at once"
    );
}

/// Overload: a store that is behind (its writes take longer than the store
/// timeout, while it keeps completing others') slows the game down and
/// refuses no move; meanwhile new work is shed with a time to retry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_is_behind_slows_the_game_and_refuses_nothing() {
    let settings = Settings {
        // Long enough that the other writes' commits come well inside it
        // on a loaded machine.
        store_timeout: Duration::from_millis(1000),
        ..Settings::default()
    };
    let (_dir, store, server) = switched_server_with("behind", settings).await;
    let mut t = common::table(&server, sudden_death(), Encoding::Json).await;
    let black = t.opener();
    let white = black.other();
    t.act_as(black, common::place("H8")).await;

    // Other writes keep completing (as other tables' would) while this
    // table's appends take two and a half store timeouts each.
    let busy = {
        let store = store.clone();
        tokio::spawn(async move {
            loop {
                let _ = store.inner.ping().await;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    store.slow_ms.store(2500, Ordering::SeqCst);
    let started = std::time::Instant::now();
    let seq = t.act_as(white, common::place("J9")).await;
    assert!(
        started.elapsed() >= Duration::from_millis(2500),
        "the append was slowed"
    );
    // New work is refused meanwhile, with when to try again.
    let shed = t
        .conn(black)
        .request(ClientMsg::CreateRoom {
            config: sudden_death(),
            public: true,
            name: None,
            chat: true,
            rated: false,
        })
        .await;
    match shed {
        Err(tengen_client::ClientError::Refused(e)) => {
            assert_eq!(e.code, ErrorCode::Unavailable);
            assert!(e.retry_after_ms.is_some_and(|ms| ms >= 1000), "{e:?}");
        }
        other => panic!("new work was not shed: {other:?}"),
    }
    let seq2 = t.act_as(black, common::place("H9")).await;
    assert_eq!(seq2, seq + 1, "the game went on, gap-free");
    busy.abort();
    store.slow_ms.store(0, Ordering::SeqCst);
    let table = t.table.clone();
    let snap = common::snapshot_of(t.conn(white), &table).await;
    assert_eq!(snap.snapshot.moves.len(), 3);
    assert_eq!(snap.paused, None, "the table never froze");
    let live = store
        .inner
        .live_table(t.table.as_str())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(live.entries.len(), 3, "every accepted move is stored");
}
