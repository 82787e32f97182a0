//! The `moderate` requests: who may ask (a moderator; `set_role` an
//! admin), and each action: written to the audit log first, then done,
//! then told to every node (`super::news`). Each request runs as its own
//! task (it reads and writes the store), at most [`super::state::IN_FLIGHT`] at once on
//! a node; the connection never waits.

use tengen_protocol::{
    Envelope, ErrorBody, ErrorCode, ModRequest, ReportItem, ReportReason, RequestId, Role,
    ServerMsg,
};
use tengen_store::{AddressBan, Sanction, Store, StoreError};

use super::news;
use super::state::Moderation;
use super::state::unix_ms;
use super::wire::News;
use super::{audit, standing};
use crate::AppState;
use crate::sessions::Session;

/// Starts handling one request; answers `unavailable` at once when too
/// many run.
pub fn handle(state: &AppState, session: &Session, id: Option<RequestId>, req: ModRequest) {
    let Ok(permit) = state.hosting.moderation.permits.clone().try_acquire_owned() else {
        session
            .outbox
            .refuse(id, ErrorCode::Unavailable, "moderation is busy; try again");
        return;
    };
    let (state, session) = (state.clone(), session.clone());
    tokio::spawn(async move {
        // The live actions are answered by the room's lobby or the game's
        // table (`super::arbiter`); the others here.
        let reply = if super::arbiter::reaches_live(&req) {
            live(&state, &session, id, req).await.map(|()| None)
        } else {
            run(&state, &session, req).await.map(Some)
        };
        match reply {
            Ok(Some(msg)) => session.outbox.send_msg(&Envelope::with_id(id, msg)),
            Ok(None) => true,
            Err(body) => session.outbox.refuse_with(id, body),
        };
        drop(permit);
    });
}

pub(super) fn refuse(code: ErrorCode, why: impl Into<String>) -> ErrorBody {
    ErrorBody::new(code, why)
}

pub(super) fn store_failed(e: StoreError) -> ErrorBody {
    crate::accounts::store_refusal(&e)
}

/// The role of the account `name` as stored now.
pub async fn role_of(store: &dyn Store, name: &str) -> Result<Role, ErrorBody> {
    let standing = store.standing(name).await.map_err(store_failed)?;
    Ok(standing.map_or(Role::Player, |s| Role::parse(&s.role)))
}

/// Refuses `req` unless `session` is an account with the role it needs.
async fn may(store: &dyn Store, session: &Session, req: &ModRequest) -> Result<(), ErrorBody> {
    if session.player.guest {
        return Err(refuse(ErrorCode::LoginRequired, "log in to moderate"));
    }
    let role = role_of(store, &session.player.name).await?;
    let needed = match req {
        ModRequest::SetRole { .. } => Role::Admin,
        _ => Role::Moderator,
    };
    if role == Role::Player || (needed == Role::Admin && role != Role::Admin) {
        let why = format!("{} needs the {} role", req.action(), needed.as_str());
        return Err(refuse(ErrorCode::Forbidden, why));
    }
    Ok(())
}

/// A live action (`close_room`, `abort_game`): checked here, answered by
/// its owner.
async fn live(
    state: &AppState,
    session: &Session,
    id: Option<RequestId>,
    req: ModRequest,
) -> Result<(), ErrorBody> {
    may(&*state.hosting.store, session, &req).await?;
    let reach = super::arbiter::Reach {
        hosting: &state.hosting,
        node: state.node.as_ref(),
    };
    let by = session.player.name.clone();
    super::arbiter::dispatch(&reach, session.clone(), id, &by, req).await
}

async fn run(state: &AppState, session: &Session, req: ModRequest) -> Result<ServerMsg, ErrorBody> {
    let me = &session.player.name;
    let store = &*state.hosting.store;
    may(store, session, &req).await?;
    let ctx = Ctx {
        m: &state.hosting.moderation,
        store,
        sessions: &state.hosting.sessions,
        by: me,
    };
    ctx.act(req).await
}

/// Who acts, and what an action reaches: this node's moderation state
/// and sessions (`tengen-server admin` with the store opened directly
/// passes empty ones: no server runs).
pub struct Ctx<'a> {
    pub m: &'a Moderation,
    pub store: &'a dyn Store,
    pub sessions: &'a crate::sessions::Sessions,
    pub by: &'a str,
}

impl Ctx<'_> {
    /// Does one action (the caller checked the role).
    pub async fn act(&self, req: ModRequest) -> Result<ServerMsg, ErrorBody> {
        let action = req.action();
        let done = |target: &str| ServerMsg::Moderated {
            action: action.to_owned(),
            target: target.to_owned(),
        };
        match req {
            ModRequest::SetRole {
                player,
                role,
                reason,
            } => {
                let name = self.account(&player).await?;
                let target = format!("{name} {}", role.as_str());
                audit::record(self.store, self.by, action, &target, &reason).await?;
                let stored = match role {
                    Role::Player => String::new(),
                    r => r.as_str().to_owned(),
                };
                self.change(&name, |s| {
                    s.role = stored.clone();
                })
                .await?;
                Ok(done(&name))
            }
            ModRequest::Ban {
                player,
                reason,
                minutes,
            } => self.sanction(action, &player, reason, minutes, true).await,
            ModRequest::Mute {
                player,
                reason,
                minutes,
            } => {
                self.sanction(action, &player, reason, Some(minutes), false)
                    .await
            }
            ModRequest::Unban { player, reason } | ModRequest::Unmute { player, reason } => {
                let name = self.account(&player).await?;
                audit::record(self.store, self.by, action, &name, &reason).await?;
                let ban = action == "unban";
                self.change(&name, |s| if ban { s.ban = None } else { s.mute = None })
                    .await?;
                Ok(done(&name))
            }
            ModRequest::AuditLog { limit } => {
                let limit = limit
                    .unwrap_or(50)
                    .clamp(1, tengen_protocol::moderation::MAX_AUDIT_ENTRIES);
                let entries = self
                    .store
                    .audit_log(limit as usize)
                    .await
                    .map_err(store_failed)?;
                Ok(ServerMsg::AuditLog {
                    entries: entries.into_iter().map(audit::item).collect(),
                })
            }
            ModRequest::Reports => Ok(ServerMsg::Reports {
                reports: open_reports(self.store).await?,
            }),
            ModRequest::Lookalikes => Ok(ServerMsg::Lookalikes {
                groups: self
                    .store
                    .lookalike_accounts(tengen_protocol::moderation::MAX_LOOKALIKE_GROUPS)
                    .await
                    .map_err(store_failed)?,
            }),
            ModRequest::CloseReport { report, reason } => {
                self.close_report(&report, &reason).await?;
                Ok(done(&report))
            }
            ModRequest::BanAddress {
                range,
                reason,
                minutes,
            } => {
                range
                    .parse::<crate::cidr::Cidr>()
                    .map_err(|e| refuse(ErrorCode::BadRequest, e))?;
                audit::record(self.store, self.by, action, &range, &reason).await?;
                let ban = AddressBan {
                    range: range.clone(),
                    ban: self.sanction_value(reason, minutes),
                };
                self.store
                    .put_address_ban(&ban)
                    .await
                    .map_err(store_failed)?;
                self.addresses_changed().await;
                Ok(done(&range))
            }
            ModRequest::LiftPlayban { player, reason } => {
                let name = self.account(&player).await?;
                audit::record(self.store, self.by, action, &name, &reason).await?;
                self.change(&name, |s| s.playban = Default::default())
                    .await?;
                Ok(done(&name))
            }
            ModRequest::CloseRoom { .. } | ModRequest::AbortGame { .. } => Err(refuse(
                ErrorCode::Unavailable,
                "rooms and games live in a running server: start it, or act through it",
            )),
            ModRequest::ResetRating { game, reason } => {
                self.reset_rating(&game, &reason).await?;
                Ok(done(game.as_str()))
            }
            ModRequest::UnbanAddress { range, reason } => {
                audit::record(self.store, self.by, action, &range, &reason).await?;
                self.store
                    .remove_address_ban(&range)
                    .await
                    .map_err(store_failed)?;
                self.addresses_changed().await;
                Ok(done(&range))
            }
        }
    }

    /// A ban (`ban`) or a mute of `player`, for `minutes` or for good.
    async fn sanction(
        &self,
        action: &str,
        player: &str,
        reason: String,
        minutes: Option<u64>,
        ban: bool,
    ) -> Result<ServerMsg, ErrorBody> {
        let name = self.account(player).await?;
        if name.eq_ignore_ascii_case(self.by) {
            return Err(refuse(
                ErrorCode::BadRequest,
                format!("you cannot {action} yourself"),
            ));
        }
        let target_role = role_of(self.store, &name).await?;
        if target_role == Role::Admin {
            return Err(refuse(
                ErrorCode::Forbidden,
                format!("an admin cannot be {action}ned"),
            ));
        }
        audit::record(self.store, self.by, action, &name, &reason).await?;
        let value = self.sanction_value(reason, minutes);
        self.change(&name, |s| {
            if ban {
                s.ban = Some(value.clone());
            } else {
                s.mute = Some(value.clone());
            }
        })
        .await?;
        if ban {
            news::close_sessions(self.sessions, &name);
        }
        Ok(ServerMsg::Moderated {
            action: action.to_owned(),
            target: name,
        })
    }

    fn sanction_value(&self, reason: String, minutes: Option<u64>) -> Sanction {
        let now = unix_ms();
        Sanction {
            by: self.by.to_owned(),
            reason,
            since_ms: now,
            until_ms: minutes.map(|m| now + m * 60_000),
        }
    }

    /// The stored name of the account `player`; `not_found` if none.
    pub async fn account(&self, player: &str) -> Result<String, ErrorBody> {
        match self.store.account(player).await.map_err(store_failed)? {
            Some(a) => Ok(a.name),
            None => Err(refuse(ErrorCode::NotFound, format!("no account {player}"))),
        }
    }

    /// Changes `name`'s standing, notes it here and tells every node.
    pub async fn change(
        &self,
        name: &str,
        mut f: impl FnMut(&mut tengen_store::Standing),
    ) -> Result<(), ErrorBody> {
        let s = standing::update(self.store, name, |s| {
            f(s);
            true
        })
        .await
        .map_err(store_failed)?;
        self.m.book.set(s);
        self.m.announce(&News::Standing {
            name: name.to_owned(),
        });
        Ok(())
    }

    async fn addresses_changed(&self) {
        news::apply(self.m, self.store, self.sessions, &News::AddressBans).await;
        self.m.announce(&News::AddressBans);
    }

    async fn close_report(&self, id: &str, note: &str) -> Result<(), ErrorBody> {
        let reports = self.store.reports().await.map_err(store_failed)?;
        let Some(mut report) = reports
            .into_iter()
            .find(|r| r.id == id && r.closed.is_none())
        else {
            return Err(refuse(ErrorCode::NotFound, format!("no open report {id}")));
        };
        audit::record(self.store, self.by, "close_report", id, note).await?;
        report.closed = Some(tengen_store::ReportClosed {
            by: self.by.to_owned(),
            at_ms: unix_ms(),
            note: note.to_owned(),
        });
        self.store.put_report(&report).await.map_err(store_failed)
    }
}

/// The open reports, oldest first.
pub async fn open_reports(store: &dyn Store) -> Result<Vec<ReportItem>, ErrorBody> {
    let mut reports = store.reports().await.map_err(store_failed)?;
    reports.retain(|r| r.closed.is_none());
    reports.sort_by_key(|r| r.at_ms);
    Ok(reports
        .into_iter()
        .map(|r| ReportItem {
            id: r.id,
            at_ms: r.at_ms,
            by: r.by,
            player: r.player,
            game: r.game.and_then(|g| g.parse().ok()),
            reason: reason_of(&r.reason),
            text: r.text,
        })
        .collect())
}

fn reason_of(s: &str) -> ReportReason {
    match s {
        "chat_abuse" => ReportReason::ChatAbuse,
        "cheating" => ReportReason::Cheating,
        "sandbagging" => ReportReason::Sandbagging,
        _ => ReportReason::Other,
    }
}
