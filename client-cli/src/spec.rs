//! The room a player asks for on the command line (`tengen create`,
//! `tengen bot --create`): rule set, opening, time control, forbidden-move
//! handling, draw policy, privacy, turned into the protocol's `create_room`.
//!
//! Why here and not in the rules crate: the time-control shorthand (`5+3`,
//! `10`, `10+3x30s`, `eight:5`, `corr:3+10`) is a command-line convenience; the room itself is the
//! rules crate's `GameConfig`, validated by it before anything is sent so a
//! typo is reported at once, in the rules crate's own words.

use anyhow::{Context, Result, bail};
use tengen_protocol::ClientMsg;
use tengen_rules::game::config::DAY_MS;
use tengen_rules::game::{
    DrawPolicy, ForbiddenHandling, GameConfig, Millis, Opening, RuleSet, TimeControl,
};

/// The room to create.
#[derive(clap::Args, Clone, Debug)]
pub struct RoomSpec {
    /// Rule set: renju, gomoku, freestyle, or twin (professional
    /// traditional gomoku on two 19x19 boards: turns of two stones, each on
    /// either board; a five on both boards in one turn wins, on one board
    /// loses).
    #[arg(long, default_value = "renju")]
    pub rules: RuleSet,
    /// Opening rule: free, swap_after_three, rif, yamaguchi, soosorv[-N],
    /// taraguchi[-N], tarannikov, jonsson, yamaguchi_52, yamaguchi_variant,
    /// sakata, super_sakata, swap2 (default: the rule set's own —
    /// renju and freestyle free, gomoku swap_after_three).
    #[arg(long)]
    pub opening: Option<Opening>,
    /// Time control: `5+3` Fischer (5 min, +3 s a move), `10` sudden death
    /// (10 min), `10+3x30s` byo-yomi (10 min, then 3 periods of 30 s;
    /// `10+3x30s/5`: 5 moves per period), `eight:5+30s` the eight-stone
    /// overtime (5 min each, then 8 more moves each of 30 s at most, then a
    /// draw; `eight:5+30s/6`: 6 stones), `corr:3+10` correspondence (3 days
    /// a move, 10 vacation days each; `corr:3` none), `unlimited`. Minutes
    /// by default in the main time, seconds after the `+`, days in `corr:`;
    /// `90s`, `2m`, `12h` or `3d` say so.
    #[arg(long, default_value = "10+5", value_parser = parse_time)]
    pub time: TimeControl,
    /// Renju only: what a forbidden black move does: claim (the stone
    /// stands until white claims it), lose (loses at once), block (refused).
    #[arg(long, value_parser = parse_forbidden)]
    pub forbidden: Option<ForbiddenHandling>,
    /// Board size: 15, or 19 for freestyle (default: the rule set's own,
    /// 15; twin is 19 only).
    #[arg(long)]
    pub size: Option<u8>,
    /// Draw offers each player may make (default: no cap beyond the rule
    /// that one may not lead the other's by more than two).
    #[arg(long)]
    pub draw_offers: Option<u32>,
    /// Seconds before an unanswered draw offer lapses (default: it stands).
    #[arg(long)]
    pub draw_answer: Option<u32>,
    /// Not listed in the lobby: joined by its id only.
    #[arg(long)]
    pub private: bool,
    /// The room's name in the lobby.
    #[arg(long = "room-name")]
    pub room_name: Option<String>,
    /// Table chat off for this room's games.
    #[arg(long = "no-chat")]
    pub no_chat: bool,
    /// A rated game (both players must be logged in: `tengen login`).
    #[arg(long)]
    pub rated: bool,
}

/// The game asked for in the rated queue: `RULESET TIMECONTROL` and the
/// options of a room that make a game (players wait per configuration).
#[derive(clap::Args, Clone, Debug)]
pub struct QueueSpec {
    /// Rule set: renju, gomoku, freestyle or twin (two boards).
    pub rules: RuleSet,
    /// Time control, as `tengen create --time` reads it (`5+3`, `10`,
    /// `10+3x30s`, `unlimited`).
    #[arg(value_parser = parse_time)]
    pub time: TimeControl,
    /// Opening rule (default: the rule set's own).
    #[arg(long)]
    pub opening: Option<Opening>,
    /// Renju only: claim, lose or block (default claim).
    #[arg(long, value_parser = parse_forbidden)]
    pub forbidden: Option<ForbiddenHandling>,
    /// Board size: 15, or 19 for freestyle (default: the rule set's own,
    /// 15; twin is 19 only).
    #[arg(long)]
    pub size: Option<u8>,
}

impl QueueSpec {
    /// The validated configuration (the same as `tengen create` would make
    /// of the same options, so both kinds of players meet in one queue).
    pub fn config(&self) -> Result<GameConfig> {
        build(
            self.rules,
            self.size,
            self.time,
            DrawPolicy::default(),
            self.opening,
            self.forbidden,
        )
        .context("no such game to queue for")
    }
}

/// A configuration from its parts, validated.
fn build(
    rules: RuleSet,
    size: Option<u8>,
    time: TimeControl,
    draw: DrawPolicy,
    opening: Option<Opening>,
    forbidden: Option<ForbiddenHandling>,
) -> Result<GameConfig> {
    let mut c = GameConfig::new(rules)
        .with_size(size.unwrap_or(rules.default_size()))
        .with_time(time)
        .with_draw(draw);
    if let Some(o) = opening {
        c = c.with_opening(o);
    }
    if let Some(h) = forbidden {
        c = c.with_forbidden(h);
    }
    c.validate()?;
    Ok(c)
}

impl RoomSpec {
    /// The validated configuration.
    pub fn config(&self) -> Result<GameConfig> {
        let draw = DrawPolicy {
            max_offers: self.draw_offers,
            answer_ms: self.draw_answer.map(|s| Millis::from(s) * 1000),
        };
        build(
            self.rules,
            self.size,
            self.time,
            draw,
            self.opening,
            self.forbidden,
        )
        .context("this room cannot be created")
    }

    /// The `create_room` request.
    pub fn request(&self) -> Result<ClientMsg> {
        Ok(ClientMsg::CreateRoom {
            rated: self.rated,
            config: self.config()?,
            public: !self.private,
            name: self.room_name.clone(),
            chat: !self.no_chat,
        })
    }
}

fn parse_forbidden(s: &str) -> Result<ForbiddenHandling, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "claim" => Ok(ForbiddenHandling::Claim),
        "lose" => Ok(ForbiddenHandling::Lose),
        "block" => Ok(ForbiddenHandling::Block),
        other => Err(format!("'{other}': expected claim, lose or block")),
    }
}

/// Reads a time control (see [`RoomSpec::time`]).
pub fn parse_time(s: &str) -> Result<TimeControl, String> {
    time(s).map_err(|e| format!("{e:#}"))
}

fn time(s: &str) -> Result<TimeControl> {
    let s = s.trim().to_ascii_lowercase();
    if matches!(s.as_str(), "unlimited" | "none" | "-") {
        return Ok(TimeControl::Unlimited);
    }
    if let Some(rest) = s.strip_prefix("eight:") {
        return eight_stone(rest);
    }
    if let Some(rest) = s
        .strip_prefix("corr:")
        .or_else(|| s.strip_prefix("correspondence:"))
    {
        let (per_move, vacation) = rest.split_once('+').unwrap_or((rest, "0"));
        return Ok(TimeControl::Correspondence {
            move_ms: amount(per_move, DAY_MS).context("days per move")?,
            vacation_ms: amount(vacation, DAY_MS).context("vacation days")?,
        });
    }
    let (main, rest) = match s.split_once('+') {
        Some((m, r)) => (m, Some(r)),
        None => (s.as_str(), None),
    };
    let main_ms = amount(main, 60_000).context("main time")?;
    if main_ms == 0 && rest.is_none() {
        bail!("sudden death needs a main time above zero");
    }
    let Some(rest) = rest else {
        return Ok(TimeControl::SuddenDeath { main_ms });
    };
    let Some((periods, period)) = rest.split_once('x') else {
        let increment_ms = amount(rest, 1000).context("increment")?;
        return Ok(TimeControl::Fischer {
            main_ms,
            increment_ms,
        });
    };
    let periods: u32 = periods
        .parse()
        .with_context(|| format!("'{periods}' is not a number of periods"))?;
    let (period, moves) = match period.split_once('/') {
        Some((p, m)) => (
            p,
            m.parse::<u32>()
                .with_context(|| format!("'{m}' is not a number of moves"))?,
        ),
        None => (period, 1),
    };
    Ok(TimeControl::ByoYomi {
        main_ms,
        periods,
        period_ms: amount(period, 1000).context("period")?,
        moves_per_period: moves,
    })
}

/// `eight:MAIN[+MOVE[/STONES]][,shared][,nolimit]`: the tournament's 30 s
/// and 8 stones unless given. Every move is held to the move time in the
/// main time too (the plain reading of "步时30秒越时判负", docs/rules.md §7)
/// unless `nolimit`; `shared` makes the main time the game's, one clock
/// for both players.
fn eight_stone(s: &str) -> Result<TimeControl> {
    let mut parts = s.split(',');
    let clock = parts.next().unwrap_or_default();
    let (mut move_limit_in_main, mut shared_main) = (true, false);
    for option in parts {
        match option.trim() {
            "shared" => shared_main = true,
            "nolimit" => move_limit_in_main = false,
            other => bail!("'{other}': expected shared or nolimit"),
        }
    }
    let (main, rest) = clock.split_once('+').unwrap_or((clock, "30"));
    let (per_move, stones) = rest.split_once('/').unwrap_or((rest, "8"));
    Ok(TimeControl::EightStone {
        main_ms: amount(main, 60_000).context("main time")?,
        move_ms: amount(per_move, 1000).context("time per move")?,
        stones: stones
            .parse()
            .with_context(|| format!("'{stones}' is not a number of stones"))?,
        move_limit_in_main,
        shared_main,
    })
}

/// A non-negative amount of time: a number of `unit` milliseconds, or a
/// number with `s`, `m`, `h` or `d`; decimals allowed (`0.5`, `1.5m`).
fn amount(s: &str, unit: Millis) -> Result<Millis> {
    let (num, unit) = if let Some(n) = s.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60_000)
    } else if let Some(n) = s.strip_suffix('h') {
        (n, 3_600_000)
    } else if let Some(n) = s.strip_suffix('d') {
        (n, DAY_MS)
    } else {
        (s, unit)
    };
    let v: f64 = num
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)
        .with_context(|| format!("'{s}' is not an amount of time"))?;
    Ok((v * unit as f64).round() as Millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_documented() {
        assert_eq!(
            parse_time("5+3"),
            Ok(TimeControl::Fischer {
                main_ms: 300_000,
                increment_ms: 3_000
            })
        );
        assert_eq!(
            parse_time("10"),
            Ok(TimeControl::SuddenDeath { main_ms: 600_000 })
        );
        assert_eq!(
            parse_time("90s+0.5"),
            Ok(TimeControl::Fischer {
                main_ms: 90_000,
                increment_ms: 500
            })
        );
        assert_eq!(
            parse_time("10+3x30s"),
            Ok(TimeControl::ByoYomi {
                main_ms: 600_000,
                periods: 3,
                period_ms: 30_000,
                moves_per_period: 1
            })
        );
        assert_eq!(
            parse_time("0+1x5m/10"),
            Ok(TimeControl::ByoYomi {
                main_ms: 0,
                periods: 1,
                period_ms: 300_000,
                moves_per_period: 10
            })
        );
        assert_eq!(
            parse_time("eight:5"),
            Ok(TimeControl::EightStone {
                main_ms: 300_000,
                move_ms: 30_000,
                stones: 8,
                move_limit_in_main: true,
                shared_main: false,
            })
        );
        assert_eq!(
            parse_time("eight:3+20s/6,nolimit,shared"),
            Ok(TimeControl::EightStone {
                main_ms: 180_000,
                move_ms: 20_000,
                stones: 6,
                move_limit_in_main: false,
                shared_main: true,
            })
        );
        assert!(parse_time("eight:5,sometimes").is_err());
        assert_eq!(
            parse_time("corr:3+10"),
            Ok(TimeControl::Correspondence {
                move_ms: 3 * DAY_MS,
                vacation_ms: 10 * DAY_MS
            })
        );
        assert_eq!(
            parse_time("correspondence:12h"),
            Ok(TimeControl::Correspondence {
                move_ms: 12 * 3_600_000,
                vacation_ms: 0
            })
        );
        assert_eq!(parse_time("unlimited"), Ok(TimeControl::Unlimited));
        for bad in [
            "",
            "x",
            "5+",
            "-3",
            "5+3xq",
            "0",
            "eight:",
            "eight:5+30/x",
            "corr:q",
        ] {
            assert!(parse_time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_config_is_validated_before_anything_is_sent() {
        let spec = |args: &[&str]| {
            #[derive(clap::Parser)]
            struct P {
                #[command(flatten)]
                spec: RoomSpec,
            }
            use clap::Parser;
            P::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
                .unwrap()
                .spec
        };
        let c = spec(&["--opening", "rif", "--forbidden", "block", "--time", "3+2"])
            .config()
            .unwrap();
        assert_eq!(c.opening, Opening::Rif);
        assert_eq!(c.forbidden_handling(), Some(ForbiddenHandling::Block));
        assert!(
            spec(&["--rules", "gomoku", "--forbidden", "lose"])
                .config()
                .is_err()
        );
        assert!(
            spec(&["--rules", "gomoku", "--opening", "rif"])
                .config()
                .is_err()
        );
        assert_eq!(
            spec(&["--rules", "gomoku"]).config().unwrap().opening,
            Opening::SwapAfterThree
        );
        for (text, opening) in [
            ("jonsson", Opening::Jonsson),
            ("yamaguchi-52", Opening::Yamaguchi52),
            ("yamaguchi_variant", Opening::YamaguchiVariant),
            ("sakata", Opening::Sakata),
            ("super-sakata", Opening::SuperSakata),
        ] {
            let c = spec(&["--opening", text]).config().unwrap();
            assert_eq!(c.opening, opening);
            assert!(
                spec(&["--rules", "gomoku", "--opening", text])
                    .config()
                    .is_err()
            );
        }
        let ClientMsg::CreateRoom { public, .. } = spec(&["--private"]).request().unwrap() else {
            panic!()
        };
        assert!(!public);
    }
}
