//! Whole games of every opening rule over real WebSockets, played by the
//! client library's bot from what the server sends (its `TableView`), with
//! a spectator who must end with exactly the players' state.

use crate::common;

use std::time::Instant;

use common::*;
use tengen_client::bot::{Situation, decide};
use tengen_client::view::TableView;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};
use tengen_rules::game::{ForbiddenHandling, GameConfig, Opening, RuleSet, Seat};

/// Plays one game bot against bot; returns how many swaps were taken.
async fn bot_game(config: GameConfig, encoding: Encoding, seed: u64) -> u32 {
    let server = server().await;
    let mut t = table(&server, config, encoding).await;
    let now = Instant::now();
    let mut views = [
        TableView::new(&t.snapshot, now).unwrap(),
        TableView::new(&snapshot_of(&mut t.second, &t.table).await, now).unwrap(),
    ];
    let mut spy = client(&server, "spy", Encoding::Json).await;
    let snap = match spy
        .request(ClientMsg::Watch {
            table: t.table.clone(),
            since: None,
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    };
    let mut spy_view = TableView::new(&snap, Instant::now()).unwrap();
    let mut swaps = 0;
    let mut ignore = 0;
    let mut actions = 0;
    while !views[0].is_over() {
        actions += 1;
        assert!(actions < 600, "the game ends");
        let prompt = views[0].prompt().expect("a prompt while not over").clone();
        let seat = prompt.seat;
        let v = &views[seat.index()];
        let action = decide(
            &Situation::from_moves(v.board(), v.config(), v.moves()),
            &prompt,
            seed,
        );
        let seq = t.act_as(seat, action).await;
        catch_up(&mut t.first, &mut views[0], seq, &mut swaps).await;
        catch_up(&mut t.second, &mut views[1], seq, &mut ignore).await;
    }
    let end = views[0].seq();
    catch_up(&mut spy, &mut spy_view, end, &mut ignore).await;
    // Everyone ends with the same state, and it is the server's.
    let server_snap = snapshot_of(&mut t.first, &t.table).await;
    assert_eq!(server_snap.seq, end);
    for v in [&views[1], &spy_view] {
        assert_eq!(v.snapshot(), views[0].snapshot());
        assert_eq!(v.board(), views[0].board());
    }
    assert_eq!(views[0].snapshot().moves, server_snap.snapshot.moves);
    assert_eq!(views[0].result(), server_snap.snapshot.result.as_ref());
    assert_eq!(views[0].seat(), Some(Seat::First));
    assert_eq!(views[1].seat(), Some(Seat::Second));
    swaps
}

fn renju(opening: Opening) -> GameConfig {
    GameConfig::new(RuleSet::Renju)
        .with_opening(opening)
        .with_forbidden(ForbiddenHandling::Claim)
}

#[tokio::test]
async fn rif_games_with_a_swap() {
    let mut swaps = 0;
    for seed in 0..6 {
        swaps += bot_game(renju(Opening::Rif), Encoding::Json, seed).await;
    }
    assert!(swaps > 0, "some game took a swap");
}

#[tokio::test]
async fn yamaguchi_games() {
    for seed in 0..3 {
        bot_game(renju(Opening::Yamaguchi), Encoding::MsgPack, seed).await;
    }
}

#[tokio::test]
async fn every_other_opening_rule() {
    let configs = [
        renju(Opening::Free),
        renju(Opening::SOOSORV),
        renju(Opening::TARAGUCHI),
        renju(Opening::Tarannikov).with_forbidden(ForbiddenHandling::Block),
        renju(Opening::Jonsson),
        renju(Opening::Yamaguchi52),
        renju(Opening::YamaguchiVariant).with_forbidden(ForbiddenHandling::Lose),
        renju(Opening::Sakata),
        renju(Opening::SuperSakata).with_forbidden(ForbiddenHandling::Block),
        GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Swap2),
        GameConfig::new(RuleSet::Freestyle).with_opening(Opening::SwapAfterThree),
        GameConfig::new(RuleSet::Freestyle).with_size(19),
    ];
    for (i, config) in configs.into_iter().enumerate() {
        bot_game(config, Encoding::Json, i as u64).await;
    }
}
