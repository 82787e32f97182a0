//! The director's answers to connections' tournament requests: create,
//! list, show, join, withdraw, start, the organiser's results, watch,
//! export. Why apart from the actor: this is the protocol side; the
//! actor (`director`) owns the lease, the store and the events.

use tengen_protocol::{ClientMsg, ErrorBody, ErrorCode, ServerMsg, TableId, TournamentSpec};
use tengen_tournament::GameRef;

use super::director::{Director, MAX_EVENTS, MAX_KNOWN, MAX_WATCHERS, not_found, reply, unix_ms};
use super::event::{Entrant, Event};
use super::view;
use crate::msg::tournament::TournamentCmd;
use crate::sessions::Session;

impl Director {
    /// A connection's request, answered on its outbox.
    pub(super) async fn request(&mut self, cmd: TournamentCmd) {
        let TournamentCmd { session, id, msg } = cmd;
        if self.lease.is_none() {
            session.outbox.refuse(
                id,
                ErrorCode::Unavailable,
                "tournaments are directed by another node now (or not yet); try again",
            );
            return;
        }
        self.remember(&session);
        // Back, unless leaving (a game paired now would only be forfeited).
        if !matches!(msg, ClientMsg::WithdrawTournament { .. }) {
            self.resume_paused(&session.player.name).await;
        }
        let out = self.answer(&session, msg).await;
        match out {
            Ok(msg) => reply(&session, id, msg),
            Err(body) => {
                session.outbox.refuse_with(id, body);
            }
        }
    }

    async fn answer(&mut self, s: &Session, msg: ClientMsg) -> Result<ServerMsg, ErrorBody> {
        let name = s.player.name.clone();
        match msg {
            ClientMsg::CreateTournament { tournament } => self.create(s, tournament).await,
            ClientMsg::Tournaments => {
                let mut list: Vec<&Event> = self.events.values().collect();
                list.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id)));
                Ok(ServerMsg::TournamentList {
                    tournaments: list.into_iter().map(view::summary).collect(),
                })
            }
            ClientMsg::Tournament { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                Ok(ServerMsg::TournamentInfo {
                    tournament: Box::new(view::view(e)),
                })
            }
            ClientMsg::JoinTournament { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                let rating = self.rating_of(s, e).await?;
                let (guest, bot) = (s.player.guest, s.player.bot);
                self.change(&tournament, |e| {
                    e.join(Entrant {
                        name: &name,
                        guest,
                        bot,
                        rating,
                    })
                })
                .await?;
                Ok(ServerMsg::TournamentJoined { tournament })
            }
            ClientMsg::WithdrawTournament { tournament } => {
                let playing = self.tables_of(&tournament, &name);
                self.change(&tournament, |e| {
                    e.withdraw(&name)?;
                    e.pair_due();
                    Ok(())
                })
                .await?;
                for table in playing {
                    if let Some(h) = self.hosting.directory.get(&table) {
                        let _ = h.try_send(crate::msg::table::TableCmd::Withdrawn {
                            player: name.clone(),
                        });
                    }
                }
                self.seat_games(&tournament).await;
                Ok(ServerMsg::TournamentWithdrawn { tournament })
            }
            ClientMsg::StartTournament { tournament } => {
                self.organiser(&tournament, &name)?;
                self.change(&tournament, |e| e.start(unix_ms())).await?;
                self.seat_games(&tournament).await;
                Ok(ServerMsg::TournamentStarted { tournament })
            }
            ClientMsg::TournamentResult {
                tournament,
                round,
                board,
                game,
                result,
            } => {
                self.organiser(&tournament, &name)?;
                let at = GameRef {
                    round: round as usize,
                    board: board as usize,
                    game: game as usize,
                };
                self.change(&tournament, |e| e.report(at, result)).await?;
                self.seat_games(&tournament).await;
                Ok(ServerMsg::TournamentRecorded { tournament })
            }
            ClientMsg::EndTournament { tournament } => {
                self.organiser(&tournament, &name)?;
                self.change(&tournament, Event::end).await?;
                Ok(ServerMsg::TournamentEnded { tournament })
            }
            ClientMsg::PairTournament {
                tournament,
                round,
                boards,
                bye,
            } => {
                self.organiser(&tournament, &name)?;
                self.change(&tournament, |e| {
                    e.pair_by_hand(round, &boards, bye.as_deref())
                })
                .await?;
                self.seat_games(&tournament).await;
                Ok(ServerMsg::TournamentPaired { tournament, round })
            }
            ClientMsg::WatchTournament { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                let watchers = self.watchers.entry(tournament.clone()).or_default();
                watchers.retain(|w| w.outbox.conn != s.outbox.conn || w.id != s.id);
                if watchers.len() >= MAX_WATCHERS {
                    return Err(ErrorBody::new(
                        ErrorCode::LimitReached,
                        "this tournament has too many watchers",
                    ));
                }
                watchers.push(s.clone());
                Ok(ServerMsg::TournamentInfo {
                    tournament: Box::new(view::view(e)),
                })
            }
            ClientMsg::UnwatchTournament { tournament } => {
                if let Some(w) = self.watchers.get_mut(&tournament) {
                    w.retain(|w| w.outbox.conn != s.outbox.conn || w.id != s.id);
                }
                Ok(ServerMsg::TournamentUnwatched { tournament })
            }
            ClientMsg::TournamentExport { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                let (crosstable, trf) = view::export(e);
                Ok(ServerMsg::TournamentExported {
                    tournament,
                    crosstable,
                    trf,
                })
            }
            _ => Err(ErrorBody::new(
                ErrorCode::Internal,
                "not a tournament request",
            )),
        }
    }

    /// Remembers the session `s` made a request on (closed ones are
    /// forgotten first when the memory is full).
    fn remember(&mut self, s: &Session) {
        if self.known.len() >= MAX_KNOWN {
            self.known.retain(|_, k| !k.outbox.is_closed());
        }
        let key = tengen_store::name_key(&s.player.name);
        if self.known.len() < MAX_KNOWN || self.known.contains_key(&key) {
            self.known.insert(key, s.clone());
        }
    }

    /// A player paused in an arena after an absence is back: paired
    /// again ([`super::arena`]).
    async fn resume_paused(&mut self, name: &str) {
        let paused: Vec<String> = self
            .events
            .values()
            .filter(|e| e.arena_paused(name) && !e.engine.finished())
            .map(|e| e.id.clone())
            .collect();
        for id in paused {
            if self.change(&id, |e| e.arena_resume(name)).await.is_ok() {
                self.seat_games(&id).await;
            }
        }
    }

    /// The tables where `name` plays event `id`'s games now.
    fn tables_of(&self, id: &str, name: &str) -> Vec<TableId> {
        let key = tengen_store::name_key(name);
        self.events.get(id).map_or_else(Vec::new, |e| {
            e.live
                .iter()
                .filter(|g| g.players.iter().any(|p| tengen_store::name_key(p) == key))
                .filter_map(|g| g.table.clone())
                .collect()
        })
    }

    fn organiser(&self, id: &str, name: &str) -> Result<(), ErrorBody> {
        let e = self.events.get(id).ok_or_else(not_found)?;
        if tengen_store::name_key(&e.organiser) != tengen_store::name_key(name) {
            return Err(ErrorBody::new(
                ErrorCode::NotOrganiser,
                "only the tournament's organiser may do this",
            ));
        }
        Ok(())
    }

    async fn create(&mut self, s: &Session, spec: TournamentSpec) -> Result<ServerMsg, ErrorBody> {
        if s.player.guest {
            return Err(ErrorBody::new(
                ErrorCode::LoginRequired,
                "tournaments are organised by accounts: log in first",
            ));
        }
        if let Err(e) = spec.config.validate() {
            return Err(ErrorBody::new(ErrorCode::InvalidConfig, e.to_string()));
        }
        if self.events.len() >= MAX_EVENTS {
            return Err(ErrorBody::new(
                ErrorCode::LimitReached,
                "the server keeps no more tournaments",
            ));
        }
        let id = TableId::from_u64(rand::random()).to_string();
        let event = Event::new(id.clone(), s.player.name.clone(), unix_ms(), spec)?;
        let summary = view::summary(&event);
        self.save(event).await?;
        Ok(ServerMsg::TournamentCreated {
            tournament: summary,
        })
    }

    /// A player's rating in the event's rule family (the starting rating
    /// for guests and new accounts).
    async fn rating_of(&self, s: &Session, e: &Event) -> Result<i32, ErrorBody> {
        let start = crate::ratings::START.0.round() as i32;
        if s.player.guest {
            return Ok(start);
        }
        let family = tengen_protocol::RatingFamily::of(e.spec.config.rule_set);
        let store = self.store.clone();
        let name = s.player.name.clone();
        match self
            .timed(async move { store.rating(&name, family.as_str()).await })
            .await
        {
            Some(r) => Ok(r.map_or(start, |r| r.rating.round() as i32)),
            None => Err(ErrorBody::new(
                ErrorCode::Unavailable,
                "the ratings could not be read; try again",
            )),
        }
    }
}
