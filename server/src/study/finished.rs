//! A finished game as a table hands it to the explorer and the miner.

use tengen_rules::game::GameRecord;
use tengen_study::explorer::Players;

/// A finished game, as a table hands it over.
#[derive(Clone, Debug)]
pub struct Finished {
    pub id: String,
    pub record: GameRecord,
    pub players: Players,
    pub finished_ms: u64,
}

/// Who played a table's game, by seat, as the explorer counts them:
/// accounts by name key (guests are no one's explorer), names as shown.
pub fn players(seats: [&tengen_protocol::Player; 2]) -> Players {
    Players {
        accounts: seats.map(|p| (!p.guest).then(|| tengen_store::name_key(&p.name))),
        names: seats.map(|p| p.name.clone()),
        ratings: None,
    }
}

/// Counts a finished game dropped at a full queue (`index` or `mine`).
pub(super) fn dropped(queue: &'static str) {
    metrics::counter!(crate::metrics::STUDY_DROPPED, "queue" => queue).increment(1);
}
