//! Rematches that survive leaving the finished game's page: the offer
//! reaches a player back in the lobby, who accepts or declines it from
//! there; an offer ends when the finished table closes.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, RematchCancel, ServerMsg, TableId};
use tengen_rules::game::{Action, GameConfig, RuleSet, Seat};

/// A finished casual game whose players both went back to the lobby
/// (left the room, stopped watching the table, subscribed to the lobby).
async fn finished_and_back_in_the_lobby(server: &tengen_server::Server) -> Table {
    let config = GameConfig::new(RuleSet::Renju);
    let mut t = table(server, config, Encoding::Json).await;
    t.act_as(t.opener(), Action::Resign).await;
    let (room, table) = (t.room.clone(), t.table.clone());
    for c in [&mut t.first, &mut t.second] {
        c.request(ClientMsg::LeaveRoom { room: room.clone() })
            .await
            .unwrap();
        c.request(ClientMsg::Unwatch {
            table: table.clone(),
        })
        .await
        .unwrap();
        c.request(ClientMsg::LobbySubscribe).await.unwrap();
    }
    t
}

/// `decline_rematch` from `c`: the seat and reason its reply gives.
async fn decline(c: &mut Connection, table: &TableId) -> (Option<Seat>, RematchCancel) {
    let msg = ClientMsg::DeclineRematch {
        table: table.clone(),
    };
    match c.request(msg).await.unwrap() {
        ServerMsg::RematchCancelled { seat, reason, .. } => (seat, reason),
        other => panic!("{other:?}"),
    }
}

async fn offered(c: &mut Connection) -> ServerMsg {
    c.next_matching(|m| matches!(m, ServerMsg::RematchOffered { .. }))
        .await
        .unwrap()
        .msg
}

#[tokio::test]
async fn a_player_in_the_lobby_is_offered_the_rematch_and_accepts_it_there() {
    let server = server().await;
    let mut t = finished_and_back_in_the_lobby(&server).await;
    let table = t.table.clone();
    ask_rematch(&mut t.first, &table).await;
    // The second player, in the lobby, hears who offers what.
    match offered(&mut t.second).await {
        ServerMsg::RematchOffered {
            table: at,
            seat,
            from,
            room,
            config,
        } => {
            assert_eq!((at, seat), (table.clone(), Seat::First));
            assert_eq!(from.unwrap().name, "ann");
            assert_eq!(room, Some(t.room.clone()));
            assert_eq!(config.unwrap().rule_set, RuleSet::Renju);
        }
        other => panic!("{other:?}"),
    }
    // The finished table's snapshot says so too (for a page reloaded).
    let snap = watch_snapshot(&mut t.second, &table).await;
    assert_eq!(snap.rematch, vec![Seat::First]);
    // Accepted from the lobby: both are seated at the new game.
    ask_rematch(&mut t.second, &table).await;
    let mut new = Vec::new();
    for c in [&mut t.first, &mut t.second] {
        let snap = rematch_started(c).await;
        assert!(snap.seat.is_some());
        new.push(snap.table);
    }
    assert_eq!(new[0], new[1]);
}

#[tokio::test]
async fn an_offer_is_declined_or_withdrawn_and_the_other_hears_it() {
    let server = server().await;
    let mut t = finished_and_back_in_the_lobby(&server).await;
    let table = t.table.clone();
    ask_rematch(&mut t.first, &table).await;
    offered(&mut t.second).await;
    assert_eq!(
        decline(&mut t.second, &table).await,
        (Some(Seat::Second), RematchCancel::Declined)
    );
    let f = t
        .first
        .next_matching(|m| matches!(m, ServerMsg::RematchCancelled { .. }))
        .await
        .unwrap();
    assert!(matches!(
        f.msg,
        ServerMsg::RematchCancelled {
            reason: RematchCancel::Declined,
            ..
        }
    ));
    // Nothing stands now: accepting starts nothing, it offers anew.
    ask_rematch(&mut t.second, &table).await;
    offered(&mut t.first).await;
    // The offerer withdraws it.
    assert_eq!(
        decline(&mut t.second, &table).await.1,
        RematchCancel::Withdrawn
    );
}

#[tokio::test]
async fn an_offer_ends_with_the_finished_table() {
    let server = server_with(|s| s.finished_table_linger = Duration::from_millis(500)).await;
    let config = GameConfig::new(RuleSet::Freestyle);
    let mut t = table(&server, config, Encoding::Json).await;
    let table = t.table.clone();
    t.act_as(t.opener(), Action::Resign).await;
    ask_rematch(&mut t.first, &table).await;
    let f = t
        .second
        .next_matching(|m| matches!(m, ServerMsg::RematchCancelled { .. }))
        .await
        .unwrap();
    assert!(matches!(
        f.msg,
        ServerMsg::RematchCancelled {
            seat: None,
            reason: RematchCancel::Expired,
            ..
        }
    ));
}
