//! Game values in words, shared by the board, the lobby and the bot's log.
//!
//! Why one module: the same configuration, clock or event is shown by
//! several commands (the lobby lists rooms, the board shows clocks and what
//! just happened, `tengen bot` prints a line per move), and a player should
//! read it the same way everywhere. Everything here is a pure function of a
//! value the server sent; nothing re-derives a rule.

use tengen_protocol::{Player, Players};
use tengen_rules::game::config::DAY_MS;
use tengen_rules::game::{
    ClockSnapshot, Event, ForbiddenHandling, GameConfig, Millis, Move, Opening, Prompt, Seat,
    SeatClock, TaraguchiOption, Task, TimeControl,
};

/// `5+3`, `10` (sudden death, minutes), `10+3x30s`, `eight:5+30s/8`,
/// `corr:3+10`, `unlimited`: the same syntax `tengen create --time` reads
/// (the rules crate writes it).
pub fn time_control(tc: TimeControl) -> String {
    tc.to_string()
}

/// `renju rif 5+3 block` (board size only when not 15).
pub fn config(c: &GameConfig) -> String {
    let mut out = format!("{} {}", c.rule_set, opening(c.opening));
    if c.board_size != 15 {
        out.push_str(&format!(" {0}x{0}", c.board_size));
    }
    out.push(' ');
    out.push_str(&time_control(c.time));
    if let Some(h) = c.forbidden_handling() {
        out.push(' ');
        out.push_str(forbidden_handling(h));
    }
    out
}

pub fn opening(o: Opening) -> String {
    o.to_string()
}

pub fn forbidden_handling(h: ForbiddenHandling) -> &'static str {
    match h {
        ForbiddenHandling::Claim => "claim",
        ForbiddenHandling::Lose => "lose",
        ForbiddenHandling::Block => "block",
    }
}

/// A seat's clock as a player reads it: `4:59`, `0:09.3` under ten
/// seconds, and in byo-yomi the periods left (`0:00 +3x0:30`); in the
/// eight-stone overtime the move's time and the stones left (`0:25 /5`);
/// in correspondence the move's time in days and hours and the vacation
/// left (`2d 23h +v5d`, `v4d 3h` once the vacation runs).
pub fn clock(c: SeatClock, tc: TimeControl) -> String {
    let main = duration(c.main_ms);
    match tc {
        TimeControl::ByoYomi { .. } if c.periods > 0 => {
            if c.main_ms > 0 {
                format!("{main} +{}p", c.periods)
            } else {
                format!("{}x{}", c.periods, duration(c.period_ms))
            }
        }
        TimeControl::EightStone { .. } if c.main_ms == 0 => {
            format!("{} /{}", duration(c.period_ms), c.period_moves)
        }
        TimeControl::Correspondence { .. } => match (c.main_ms, c.vacation_ms) {
            (0, v) => format!("v{}", long_duration(v)),
            (m, 0) => long_duration(m),
            (m, v) => format!("{} +v{}", long_duration(m), whole_days(v)),
        },
        _ => main,
    }
}

/// `2d 23h` from a day up, else as [`duration`].
fn long_duration(ms: Millis) -> String {
    if ms >= DAY_MS {
        format!("{}d {}h", ms / DAY_MS, (ms % DAY_MS) / 3_600_000)
    } else {
        duration(ms)
    }
}

/// `5d` (rounded down) from a day up, else as [`duration`].
fn whole_days(ms: Millis) -> String {
    if ms >= DAY_MS {
        format!("{}d", ms / DAY_MS)
    } else {
        duration(ms)
    }
}

/// `m:ss`, with tenths under ten seconds (`0:09.3`), `h:mm:ss` past an hour.
pub fn duration(ms: Millis) -> String {
    let s = ms / 1000;
    if ms < 10_000 {
        format!("0:{:02}.{}", s, (ms % 1000) / 100)
    } else if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The running seat of a clock snapshot.
pub fn running(c: Option<&ClockSnapshot>) -> Option<Seat> {
    c.and_then(|c| c.running)
}

pub fn player_name(players: &Players, seat: Seat) -> String {
    players
        .seat(seat)
        .map(shown)
        .unwrap_or_else(|| format!("{seat} seat"))
}

/// A player as shown: the name, `[bot]` after a bot account's.
pub fn shown(p: &Player) -> String {
    if p.bot {
        format!("{} [bot]", p.name)
    } else {
        p.name.clone()
    }
}

/// What the prompt asks, in words.
pub fn task(prompt: &Prompt) -> String {
    match &prompt.task {
        Task::Place {
            color,
            move_number,
            within,
        } => {
            let zone = match within {
                Some(1) => " on the centre".to_string(),
                Some(n) => format!(" inside the central {n}x{n}"),
                None => String::new(),
            };
            let turn = match prompt.stones_left {
                Some(2) => " (stone 1 of 2 this turn)",
                Some(_) if *move_number > 1 => " (stone 2 of 2 this turn)",
                _ => "",
            };
            format!("place {color} {move_number}{zone}{turn}")
        }
        Task::DecideSwap { color } => {
            format!("swap? ({color} may take {})", color.opponent())
        }
        Task::DeclareOffers { max } => format!("declare fifth-move offers (1-{max})"),
        Task::OfferFifths { count } => format!("offer {count} fifth moves"),
        Task::KeepFifth { offers } => format!("choose the fifth move to keep: {offers}"),
        Task::ChooseOption { offers } => {
            format!("1: single fifth, 2: {offers} offers")
        }
        Task::Swap2Choice => "swap2: white 4, take black or two".into(),
        Task::SuperSakataChoice { color } => format!(
            "super sakata: keep {color}, take {} or place two more",
            color.opponent()
        ),
        other => format!("{} (not known to this client: update tengen)", other.name()),
    }
}

/// A move's point, with its board in twin rooms (`K10 on board 2`).
pub fn point_of(mv: &Move, twin: bool) -> String {
    match mv.point {
        Some(p) if twin => format!("{p} on board {}", mv.board + 1),
        Some(p) => p.to_string(),
        None => "pass".to_string(),
    }
}

/// One line for an event (`None` for those not worth a line); `twin`: the
/// room has two boards, and stones name theirs.
pub fn event(e: &Event, players: &Players, twin: bool) -> Option<String> {
    let who = |s: &Seat| player_name(players, *s);
    Some(match e {
        Event::Moved { mv, .. } => match mv.point {
            Some(_) => format!(
                "{}. {} {} ({})",
                mv.number,
                mv.color,
                point_of(mv, twin),
                who(&mv.seat)
            ),
            None => format!("{}. {} pass ({})", mv.number, mv.color, who(&mv.seat)),
        },
        Event::SwapDecided {
            seat,
            swapped,
            black,
            ..
        } => {
            if *swapped {
                format!("{} swapped: {} holds black", who(seat), who(black))
            } else {
                format!("{} kept their colour", who(seat))
            }
        }
        Event::OpeningFormed { code, name, .. } => format!("opening {code} {name}"),
        Event::OffersDeclared { seat, count, .. } => {
            format!("{} declared {count} fifth-move offers", who(seat))
        }
        Event::FifthsOffered { seat, points, .. } => {
            format!("{} offers fifth moves {points}", who(seat))
        }
        Event::FifthKept { seat, kept, .. } => format!("{} kept {kept} as black 5", who(seat)),
        Event::OptionChosen { seat, option, .. } => {
            let o = match option {
                TaraguchiOption::Single => "a single fifth",
                TaraguchiOption::Offers => "fifth-move offers",
            };
            format!("{} chose {o}", who(seat))
        }
        Event::DrawOffered { seat, .. } => format!("{} offers a draw", who(seat)),
        Event::DrawDeclined { seat, .. } => format!("{} declined the draw", who(seat)),
        Event::DrawOfferLapsed { seat } => format!("{}'s draw offer lapsed", who(seat)),
        Event::DrawAccepted { seat } => format!("{} accepted the draw", who(seat)),
        Event::ClaimUpheld { point, kind, .. } => {
            format!("claim upheld: {point} was forbidden ({kind})")
        }
        Event::Violation {
            seat, count, point, ..
        } => match point {
            Some(p) => format!("{}: false claim at {p} (violation {count})", who(seat)),
            None => format!("{}: false claim (violation {count})", who(seat)),
        },
        Event::TurnEnded { seat, .. } => format!("{} ended the turn after one stone", who(seat)),
        Event::TakebackRequested { seat } => format!("{} asks to take back a move", who(seat)),
        Event::TakebackDeclined { seat, .. } => {
            format!("{} declined the takeback", who(seat))
        }
        Event::TakenBack { seat, undone, .. } => {
            format!("{} took back {} move(s)", who(seat), undone.len())
        }
        Event::GameOver { result, .. } => format!("result: {}", result.describe()),
        _ => return None,
    })
}

/// Why a table's clocks stand still (`table_paused`), in words.
pub fn pause(p: tengen_protocol::PauseReason) -> &'static str {
    match p {
        tengen_protocol::PauseReason::Restored => "server restoring — waiting for players",
        tengen_protocol::PauseReason::Store => "server cannot save moves — clocks stopped",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_print_in_the_syntax_create_reads() {
        assert_eq!(time_control(TimeControl::Unlimited), "unlimited");
        assert_eq!(
            time_control(TimeControl::SuddenDeath { main_ms: 600_000 }),
            "10"
        );
        assert_eq!(
            time_control(TimeControl::Fischer {
                main_ms: 300_000,
                increment_ms: 3_000
            }),
            "5+3"
        );
        assert_eq!(
            time_control(TimeControl::ByoYomi {
                main_ms: 600_000,
                periods: 3,
                period_ms: 30_000,
                moves_per_period: 1
            }),
            "10+3x30s"
        );
        let eight = TimeControl::EightStone {
            main_ms: 300_000,
            move_ms: 30_000,
            stones: 8,
            move_limit_in_main: true,
            shared_main: false,
        };
        let older = TimeControl::eight_stone(300_000, 30_000, 8);
        let shared = TimeControl::EightStone {
            main_ms: 300_000,
            move_ms: 30_000,
            stones: 8,
            move_limit_in_main: true,
            shared_main: true,
        };
        let corr = TimeControl::Correspondence {
            move_ms: 3 * DAY_MS,
            vacation_ms: 10 * DAY_MS,
        };
        assert_eq!(time_control(eight), "eight:5+30s/8");
        assert_eq!(time_control(older), "eight:5+30s/8,nolimit");
        assert_eq!(time_control(shared), "eight:5+30s/8,shared");
        assert_eq!(time_control(corr), "corr:3+10");
        for tc in [eight, older, shared, corr] {
            assert_eq!(crate::spec::parse_time(&time_control(tc)), Ok(tc));
        }
    }

    #[test]
    fn overtime_and_correspondence_clocks_read_as_documented() {
        let eight = TimeControl::eight_stone(300_000, 30_000, 8);
        let main = SeatClock {
            main_ms: 299_400,
            period_ms: 30_000,
            period_moves: 8,
            ..SeatClock::default()
        };
        assert_eq!(clock(main, eight), "4:59");
        let overtime = SeatClock {
            main_ms: 0,
            period_ms: 25_000,
            period_moves: 5,
            ..SeatClock::default()
        };
        assert_eq!(clock(overtime, eight), "0:25 /5");
        let corr = TimeControl::Correspondence {
            move_ms: 3 * DAY_MS,
            vacation_ms: 5 * DAY_MS,
        };
        let c = |main_ms, vacation_ms| SeatClock {
            main_ms,
            vacation_ms,
            ..SeatClock::default()
        };
        assert_eq!(
            clock(c(3 * DAY_MS - 3_600_000, 5 * DAY_MS), corr),
            "2d 23h +v5d"
        );
        assert_eq!(clock(c(0, 4 * DAY_MS + 3 * 3_600_000), corr), "v4d 3h");
        assert_eq!(clock(c(DAY_MS, 0), corr), "1d 0h");
    }

    #[test]
    fn durations_show_tenths_only_when_short() {
        assert_eq!(duration(299_400), "4:59");
        assert_eq!(duration(9_340), "0:09.3");
        assert_eq!(duration(0), "0:00.0");
        assert_eq!(duration(3_723_000), "1:02:03");
    }
}
