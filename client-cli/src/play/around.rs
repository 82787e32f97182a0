//! What the board shows besides the table's own state: the players'
//! connections (the grace for coming back and what follows it, a claim
//! once it is open), rematch offers, and our own link to the server.
//!
//! Why apart from `TableView`: none of it is in the table's event log.
//! `player_status` and `rematch_offered` have no `seq`, are never replayed
//! and are not in a snapshot (`protocol/README.md`), so the view, which is
//! rebuilt from snapshots and events, cannot hold them. They are kept here,
//! from the pushes as they come, by a pure function that the rendering
//! tests can set up without a server.

use std::time::{Duration, Instant};

use tengen_protocol::{AfterGrace, ServerMsg, TableId};
use tengen_rules::game::Seat;

/// Our own connection, as the status line shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Link {
    #[default]
    Up,
    /// Lost; the session is reconnecting by itself.
    Reconnecting,
    /// Gone for good (taken over elsewhere, or reconnecting gave up).
    Gone,
}

/// The state around one table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Around {
    /// Per seat: when the away player loses by abandonment (from
    /// `player_status` with `connected: false`, counted from `grace_ms`).
    pub away: [Option<Instant>; 2],
    /// Per seat: away with no countdown (`player_status` without
    /// `grace_ms`: a correspondence game, where leaving is normal).
    pub offline: [bool; 2],
    /// Per seat, while away: what follows its grace.
    pub after: [Option<AfterGrace>; 2],
    /// Per seat: its grace is over and the opponent may claim the win or
    /// call a draw (`player_status` with `grace_ms: 0`, `after_grace:
    /// claim`).
    pub claim_open: [bool; 2],
    /// Per seat: asked for a rematch.
    pub rematch: [bool; 2],
    /// The rematch's table, once it started (its snapshot switches the
    /// board to it).
    pub next_table: Option<TableId>,
    pub link: Link,
}

impl Around {
    /// Takes a push about `table` that arrived at `at`; returns whether
    /// anything changed.
    pub fn handle(&mut self, msg: &ServerMsg, table: &TableId, at: Instant) -> bool {
        if msg.table() != Some(table) {
            return false;
        }
        match msg {
            ServerMsg::PlayerStatus {
                seat,
                connected,
                grace_ms,
                after_grace,
                ..
            } => {
                let i = seat.index();
                self.away[i] = match (connected, grace_ms) {
                    (false, Some(ms)) => Some(at + Duration::from_millis(*ms)),
                    // Away with no grace told: no countdown (`offline`).
                    (false, None) | (true, _) => None,
                };
                self.offline[i] = !connected && grace_ms.is_none();
                self.after[i] = after_grace.filter(|_| !connected);
                self.claim_open[i] =
                    !connected && *grace_ms == Some(0) && *after_grace == Some(AfterGrace::Claim);
            }
            ServerMsg::RematchOffered { seat, .. } => self.rematch[seat.index()] = true,
            ServerMsg::RematchCancelled { .. } => self.rematch = [false, false],
            ServerMsg::RematchStarted { rematch, .. } => self.next_table = Some(rematch.clone()),
            _ => return false,
        }
        true
    }

    /// Whether `seat`'s opponent may now claim against it (it is away past
    /// its grace): the server says when.
    pub fn claimable(&self, seat: Seat) -> bool {
        self.claim_open[seat.index()]
    }

    /// How long `seat` has left to come back, if away (zero once the grace
    /// is over and the server's verdict is on its way).
    pub fn away_left(&self, seat: Seat, now: Instant) -> Option<Duration> {
        self.away[seat.index()].map(|end| end.saturating_duration_since(now))
    }

    /// A fresh state for the rematch's table (our link stays as it is).
    pub fn for_next_table(&self) -> Around {
        Around {
            link: self.link.clone(),
            ..Around::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_status_counts_down_and_clears() {
        let t = TableId::from_u64(1);
        let other = TableId::from_u64(2);
        let at = Instant::now();
        let mut a = Around::default();
        let gone = ServerMsg::PlayerStatus {
            table: t.clone(),
            seat: Seat::Second,
            connected: false,
            grace_ms: Some(30_000),
            after_grace: Some(AfterGrace::Claim),
        };
        assert!(!a.handle(&gone, &other, at), "another table's news");
        assert!(a.handle(&gone, &t, at));
        let left = a.away_left(Seat::Second, at + Duration::from_secs(12));
        assert_eq!(left, Some(Duration::from_secs(18)));
        assert_eq!(a.away_left(Seat::First, at), None);
        assert!(!a.claimable(Seat::Second), "not before the grace is over");
        let open = ServerMsg::PlayerStatus {
            table: t.clone(),
            seat: Seat::Second,
            connected: false,
            grace_ms: Some(0),
            after_grace: Some(AfterGrace::Claim),
        };
        a.handle(&open, &t, at);
        assert!(a.claimable(Seat::Second));
        let back = ServerMsg::PlayerStatus {
            table: t.clone(),
            seat: Seat::Second,
            connected: true,
            grace_ms: None,
            after_grace: None,
        };
        a.handle(&back, &t, at);
        assert_eq!(a.away_left(Seat::Second, at), None);
        assert!(!a.claimable(Seat::Second));
        // A correspondence game: away, with nothing counting down.
        let offline = ServerMsg::PlayerStatus {
            table: t.clone(),
            seat: Seat::First,
            connected: false,
            grace_ms: None,
            after_grace: None,
        };
        a.handle(&offline, &t, at);
        assert_eq!(a.away_left(Seat::First, at), None);
        assert_eq!(a.offline, [true, false]);
        let back = ServerMsg::PlayerStatus {
            table: t.clone(),
            seat: Seat::First,
            connected: true,
            grace_ms: None,
            after_grace: None,
        };
        a.handle(&back, &t, at);
        assert_eq!(a.offline, [false, false]);
    }

    #[test]
    fn rematch_offers_and_start() {
        let t = TableId::from_u64(1);
        let mut a = Around::default();
        a.handle(
            &ServerMsg::RematchOffered {
                table: t.clone(),
                seat: Seat::First,
                from: None,
                room: None,
                config: None,
            },
            &t,
            Instant::now(),
        );
        assert_eq!(a.rematch, [true, false]);
        let new = TableId::from_u64(9);
        a.handle(
            &ServerMsg::RematchStarted {
                table: t.clone(),
                rematch: new.clone(),
                room: tengen_protocol::RoomId::from_u64(3),
            },
            &t,
            Instant::now(),
        );
        assert_eq!(a.next_table, Some(new));
        a.link = Link::Reconnecting;
        assert_eq!(a.for_next_table().rematch, [false, false]);
        assert_eq!(a.for_next_table().link, Link::Reconnecting);
    }
}
