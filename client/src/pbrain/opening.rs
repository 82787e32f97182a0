//! The brain's answers to the opening extensions, `SWAP2BOARD` and
//! `YXNBEST N`, by the built-in bot's own opening judgement
//! ([`crate::bot::decide`], asked with the prompt the referee would send).
//!
//! Why a module of its own: these answers are the bot's decisions turned
//! into protocol lines, apart from the protocol's state machine; they let
//! `tengen engine -- tengen pbrain` exercise the bridge's extension path.

use tengen_rules::game::{Action, GameConfig, Opening, Prompt, Seat, Task};
use tengen_rules::{Board, Color, Point};

use super::{Brain, no_board};
use crate::bot::{Situation, decide};
use crate::piskvork::to_xy;

impl Brain {
    /// The bot's decision for `task` on `board`, under `opening`: the
    /// levelled bot's within the manager's time, when there is one.
    pub(super) fn decide(&mut self, board: &Board, opening: Opening, task: Task) -> Action {
        let config = GameConfig::new(self.rule_set).with_opening(opening);
        let prompt = Prompt {
            seat: Seat::First,
            task,
            may: Vec::new(),
            other_may: Vec::new(),
            stones_left: None,
        };
        let budget = self.time_budget();
        if let Some(bot) = self.level.as_mut() {
            let started = std::time::Instant::now();
            let clock = move || started.elapsed().as_millis() as u64;
            let s = tengen_bot::Situation {
                board,
                config: &config,
                last_stone: None,
            };
            return bot.decide(&s, &prompt, &clock, budget);
        }
        let seed = self.seed ^ board.stone_count() as u64;
        decide(&Situation::new(board, &config, None), &prompt, seed)
    }

    /// The answer to `SWAP2BOARD` with `stones` (`true`: black), by the
    /// bot's Swap2 judgement.
    pub(super) fn swap2(&mut self, stones: &[(Point, bool)]) -> Result<Vec<String>, String> {
        let size = self.board.as_ref().map_or(15, Board::size);
        let mut board = Board::new(size).map_err(|e| e.to_string())?;
        for &(p, black) in stones {
            let c = if black { Color::Black } else { Color::White };
            board
                .place(p, c)
                .map_err(|e| format!("{}: {e}", to_xy(p, size)))?;
        }
        let xy = |p: Point| to_xy(p, size);
        let place = |color, n: u32| Task::Place {
            color,
            move_number: n,
            within: None,
        };
        let answer = match stones.len() {
            0 => {
                let mut three = Vec::new();
                for (n, color) in [(1, Color::Black), (2, Color::White), (3, Color::Black)] {
                    let Action::Place { point, .. } =
                        self.decide(&board, Opening::Swap2, place(color, n))
                    else {
                        return Err("no point left".into());
                    };
                    board.place(point, color).map_err(|e| e.to_string())?;
                    three.push(xy(point));
                }
                three.join(" ")
            }
            3 => match self.decide(&board, Opening::Swap2, Task::Swap2Choice) {
                Action::Swap => "SWAP".into(),
                Action::Place { point, .. } => xy(point),
                Action::PlaceTwo { white, black } => format!("{} {}", xy(white), xy(black)),
                _ => return Err("no point left".into()),
            },
            5 => {
                let task = Task::DecideSwap {
                    color: Color::Black,
                };
                match self.decide(&board, Opening::Swap2, task) {
                    Action::Swap => {
                        match self.decide(&board, Opening::Free, place(Color::White, 6)) {
                            Action::Place { point, .. } => xy(point),
                            _ => return Err("no point left".into()),
                        }
                    }
                    _ => "SWAP".into(),
                }
            }
            n => return Err(format!("{n} stones: expected 0, 3 or 5")),
        };
        Ok(vec![answer])
    }

    /// The answer to `YXNBEST N` on the board of the latest `YXBOARD`:
    /// black's N fifth-move offers by the bot, on one line.
    pub(super) fn nbest(&mut self, rest: &str) -> Vec<String> {
        let Some(board) = self.board.clone() else {
            return vec![no_board()];
        };
        let Some(count) = rest.parse::<u8>().ok().filter(|n| (1..=10).contains(n)) else {
            return vec![format!(
                "ERROR YXNBEST: '{rest}' is not a count from 1 to 10"
            )];
        };
        match self.decide(&board, Opening::Free, Task::OfferFifths { count }) {
            Action::OfferFifths { points } => {
                let size = board.size();
                let xy: Vec<String> = points.as_slice().iter().map(|&p| to_xy(p, size)).collect();
                vec![xy.join(" ")]
            }
            _ => vec![format!("ERROR YXNBEST: no {count} offers on this board")],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::lines;
    use super::*;
    use crate::piskvork::from_xy;

    fn answer(b: &mut Brain, block: &[&str]) -> Vec<String> {
        let (last, head) = block.split_last().unwrap();
        for l in head {
            assert!(lines(b, l).is_empty(), "{l}");
        }
        lines(b, last)
    }

    #[test]
    fn swap2board_is_answered_at_0_3_and_5_stones() {
        let mut b = Brain::new(5);
        assert_eq!(lines(&mut b, "START 15"), ["OK"]);
        let three = answer(&mut b, &["SWAP2BOARD", "DONE"]);
        assert_eq!(three.len(), 1);
        let points: Vec<Point> = three[0]
            .split(' ')
            .map(|w| from_xy(w, 15).unwrap())
            .collect();
        assert_eq!(points.len(), 3);
        assert!(points[0] != points[1] && points[1] != points[2] && points[0] != points[2]);
        let mut block = vec!["SWAP2BOARD".to_string()];
        block.extend(points.iter().map(|&p| to_xy(p, 15)));
        block.push("DONE".into());
        let refs: Vec<&str> = block.iter().map(String::as_str).collect();
        let choice = answer(&mut b, &refs);
        let words: Vec<&str> = choice[0].split(' ').collect();
        assert!(
            choice[0] == "SWAP"
                || (words.len() <= 2 && words.iter().all(|w| from_xy(w, 15).is_ok())),
            "{choice:?}"
        );
        let five = [
            "SWAP2BOARD",
            "7,7,2",
            "8,8,1",
            "8,7,2",
            "6,6,1",
            "9,7,2",
            "DONE",
        ];
        let colour = answer(&mut b, &five);
        assert!(
            colour[0] == "SWAP" || from_xy(&colour[0], 15).is_ok(),
            "{colour:?}"
        );
        let bad = answer(&mut b, &["SWAP2BOARD", "7,7", "DONE"]);
        assert!(bad[0].starts_with("ERROR SWAP2BOARD"), "{bad:?}");
    }

    #[test]
    fn yxnbest_gives_distinct_empty_offers() {
        let mut b = Brain::new(2);
        lines(&mut b, "START 15");
        lines(&mut b, "INFO rule 4");
        let set = answer(
            &mut b,
            &["YXBOARD", "7,7,1", "7,6,2", "8,8,1", "6,6,2", "DONE"],
        );
        assert!(set.is_empty());
        let offers = lines(&mut b, "YXNBEST 3");
        let points: Vec<Point> = offers[0]
            .split(' ')
            .map(|w| from_xy(w, 15).unwrap())
            .collect();
        assert_eq!(points.len(), 3, "{offers:?}");
        let board = b.board.as_ref().unwrap();
        assert_eq!(board.stone_count(), 4);
        assert!(points.iter().all(|&p| board.is_empty_point(p)));
        assert!(lines(&mut b, "YXNBEST 0")[0].starts_with("ERROR"));
    }
}
