//! The Redis store's key names (the layout is in the
//! [module documentation](super)), the `SCAN` patterns that find each
//! kind, and the parsing of a scanned key back into its parts.

use crate::name_key;

/// Key names under one prefix.
#[derive(Clone, Debug)]
pub(super) struct Keys {
    prefix: String,
    /// The prefix with the glob characters of `SCAN MATCH` escaped.
    pattern_prefix: String,
}

/// The kinds of key an export scans for: `(tag letter, suffix)`.
pub(super) const ACCOUNTS: (&str, &str) = ("a", ":account");
pub(super) const TOKENS: (&str, &str) = ("k", ":token");
pub(super) const SEATS: (&str, &str) = ("r", ":tables");
pub(super) const RATINGS: (&str, &str) = ("f", ":ratings");
pub(super) const GAMES: (&str, &str) = ("t", ":game");
pub(super) const LIVE: (&str, &str) = ("t", ":meta");
pub(super) const SKELETONS: (&str, &str) = ("s", ":accounts");
/// Every tally and document key (`super::study`): `P:{study:SPACE}:REST`.
pub(super) const STUDY: (&str, &str) = ("study", ":*");

impl Keys {
    pub fn new(prefix: &str) -> Keys {
        let mut pattern_prefix = String::with_capacity(prefix.len());
        for c in prefix.chars() {
            if matches!(c, '*' | '?' | '[' | ']' | '\\') {
                pattern_prefix.push('\\');
            }
            pattern_prefix.push(c);
        }
        Keys {
            prefix: prefix.to_owned(),
            pattern_prefix,
        }
    }

    pub fn schema(&self) -> String {
        format!("{}:schema", self.prefix)
    }

    /// What [`crate::Store::ping`] writes (expiring a minute later).
    pub fn probe(&self) -> String {
        format!("{}:probe", self.prefix)
    }

    /// The set of live table ids.
    pub fn live_index(&self) -> String {
        format!("{}:live", self.prefix)
    }

    /// The lease index (`super::lease_index`): holders → until when
    /// their leases are known to last.
    pub fn lease_holders(&self) -> String {
        format!("{}:{{leases}}:holders", self.prefix)
    }

    /// The ids whose lease `node` was last seen taking.
    pub fn lease_holder(&self, node: &str) -> String {
        format!("{}:{{leases}}:node:{node}", self.prefix)
    }

    /// The ids to look at, by when.
    pub fn lease_due(&self) -> String {
        format!("{}:{{leases}}:due", self.prefix)
    }

    /// Whether the lease index was built (`1`).
    pub fn lease_index_version(&self) -> String {
        format!("{}:lease_index", self.prefix)
    }

    fn table(&self, id: &str, what: &str) -> String {
        format!("{}:{{t:{id}}}:{what}", self.prefix)
    }

    pub fn meta(&self, id: &str) -> String {
        self.table(id, "meta")
    }

    pub fn log(&self, id: &str) -> String {
        self.table(id, "log")
    }

    pub fn game(&self, id: &str) -> String {
        self.table(id, "game")
    }

    /// A live table's lease: `EPOCH NODE`, expiring with the lease.
    pub fn lease(&self, id: &str) -> String {
        self.table(id, "lease")
    }

    /// The last epoch given for a table's lease (so epochs only grow).
    pub fn epoch(&self, id: &str) -> String {
        self.table(id, "epoch")
    }

    /// A finish in progress: the staged game, its nonce and its state
    /// (see `finish`).
    pub fn finishing(&self, id: &str) -> String {
        self.table(id, "finishing")
    }

    /// The tables a resume token's session sits at, by the token's
    /// digest.
    pub fn seats(&self, token: &str) -> String {
        format!("{}:{{r:{token}}}:tables", self.prefix)
    }

    /// A player's finished games (any case of the name).
    pub fn player_games(&self, player: &str) -> String {
        format!("{}:{{p:{}}}:games", self.prefix, name_key(player))
    }

    /// A player's rating history in a family (any case of the name).
    pub fn history(&self, player: &str, family: &str) -> String {
        format!(
            "{}:{{p:{}}}:history:{family}",
            self.prefix,
            name_key(player)
        )
    }

    /// A family's ratings, by name key.
    pub fn ratings(&self, family: &str) -> String {
        format!("{}:{{f:{family}}}:ratings", self.prefix)
    }

    /// A family's rating game counts, by name key.
    pub fn rating_games(&self, family: &str) -> String {
        format!("{}:{{f:{family}}}:games", self.prefix)
    }

    /// A family's reservations by staged finishes: name key → `NONCE ID`.
    pub fn pending(&self, family: &str) -> String {
        format!("{}:{{f:{family}}}:pending", self.prefix)
    }

    /// The staged finishes whose updates a family has applied, until they
    /// commit: nonce → `NONCE ID`.
    pub fn applied(&self, family: &str) -> String {
        format!("{}:{{f:{family}}}:applied", self.prefix)
    }

    /// Stale candidates of the live index: id → when first seen stale (ms).
    pub fn stale(&self) -> String {
        format!("{}:stale", self.prefix)
    }

    pub fn account(&self, name: &str) -> String {
        format!("{}:{{a:{}}}:account", self.prefix, name_key(name))
    }

    /// An account's standing: in the account's hash tag.
    pub fn standing(&self, name: &str) -> String {
        format!("{}:{{a:{}}}:standing", self.prefix, name_key(name))
    }

    /// The audit log (a list, oldest first).
    pub fn audit(&self) -> String {
        format!("{}:audit", self.prefix)
    }

    /// Reports (a hash: id to report).
    pub fn reports(&self) -> String {
        format!("{}:reports", self.prefix)
    }

    /// Banned address ranges (a hash: range to ban).
    pub fn address_bans(&self) -> String {
        format!("{}:addrbans", self.prefix)
    }

    /// The hash of every tournament's state (field: tournament id).
    pub fn tournaments(&self) -> String {
        format!("{}:{{t}}:tournaments", self.prefix)
    }

    /// The name keys of the accounts whose names have this skeleton.
    pub fn skeleton(&self, skeleton: &str) -> String {
        format!("{}:{{s:{skeleton}}}:accounts", self.prefix)
    }

    /// The version of the skeleton index ([`crate::SKELETON_VERSION`]).
    pub fn skeletons_version(&self) -> String {
        format!("{}:name_skeletons", self.prefix)
    }

    /// A key of the tallies and documents of `space` (`super::study`):
    /// `P:{study:SPACE}:REST`, every key of a space in one slot.
    pub fn study(&self, space: &str, rest: &str) -> String {
        format!("{}:{{study:{space}}}:{rest}", self.prefix)
    }

    /// The space and the rest of a scanned study key.
    pub fn parse_study<'k>(&self, key: &'k str) -> Option<(&'k str, &'k str)> {
        let rest = key
            .strip_prefix(self.prefix.as_str())?
            .strip_prefix(":{study:")?;
        let (space, rest) = rest.split_once('}')?;
        Some((space, rest.strip_prefix(':')?))
    }

    /// A login token, by its digest.
    pub fn token(&self, token: &str) -> String {
        format!("{}:{{k:{token}}}:token", self.prefix)
    }

    /// The `SCAN MATCH` pattern of one kind of key.
    pub fn pattern(&self, (tag, suffix): (&str, &str)) -> String {
        format!("{}:{{{tag}:*}}{suffix}", self.pattern_prefix)
    }

    /// The part in braces after the tag letter of a scanned key of one
    /// kind (`ID` of `P:{t:ID}:game`), or `None` if the key is not of
    /// that kind after all (a glob can match more than the layout).
    pub fn parse<'k>(&self, key: &'k str, (tag, suffix): (&str, &str)) -> Option<&'k str> {
        let rest = key.strip_prefix(self.prefix.as_str())?;
        let rest = rest
            .strip_prefix(":{")?
            .strip_prefix(tag)?
            .strip_prefix(':')?;
        rest.strip_suffix(suffix)?.strip_suffix('}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_share_a_tag_per_table_and_parse_back() {
        let k = Keys::new("tg");
        assert_eq!(k.meta("x1"), "tg:{t:x1}:meta");
        assert_eq!(k.log("x1"), "tg:{t:x1}:log");
        assert_eq!(k.game("x1"), "tg:{t:x1}:game");
        assert_eq!(k.account("Ève"), "tg:{a:ève}:account");
        assert_eq!(k.history("ANN", "renju"), "tg:{p:ann}:history:renju");
        assert_eq!(k.parse("tg:{t:x1}:game", GAMES), Some("x1"));
        assert_eq!(k.parse("tg:{t:x1}:meta", GAMES), None);
        assert_eq!(k.parse("tg:{t:a}b}:game", GAMES), Some("a}b"));
        assert_eq!(k.parse("tg2:{t:x}:game", GAMES), None);
        assert_eq!(k.pattern(GAMES), "tg:{t:*}:game");
        assert_eq!(Keys::new("a*b").pattern(ACCOUNTS), "a\\*b:{a:*}:account");
    }
}
