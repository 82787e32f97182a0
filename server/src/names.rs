//! Names shown to others, made so that they cannot pass for someone
//! else's: a guest's name, an account's, a room's, a tournament's.
//!
//! Every such name is taken in its NFKC form (fullwidth letters, ligatures
//! and the like become the plain ones) and refused if it holds a
//! character a reader cannot see or that changes how the text around it
//! is shown: controls, format characters (zero-width spaces and joiners,
//! U+FEFF, the bidirectional overrides and isolates), line and paragraph
//! separators, Unicode's default-ignorable characters (Hangul fillers,
//! variation selectors), private-use and unassigned code points; or if it
//! starts with a combining mark. A guest's name must also be in one
//! script, as Unicode TR39 counts it for identifiers ("highly
//! restrictive"): one script (Chinese, Japanese kana with kanji, Korean
//! hangul with hanja each count as one), or Latin with one of those.
//!
//! Then what it looks like is compared ([`tengen_store::name_skeleton`]:
//! TR39's confusable skeleton, blind to case and accents) with the
//! registered accounts' names (the store's index) and with the names the
//! server gives guests (`guest-<n>`): a guest whose name looks like an
//! account's, or like a guest name of the server's, gets `guest-<n>`; an
//! account cannot be registered under a name that looks like another's;
//! a room or tournament cannot be named like an account other than its
//! creator's, or like `guest-<n>`. Accounts registered before this check
//! keep their names; moderators list those that collide (`lookalikes`).

use std::collections::HashSet;
use std::sync::OnceLock;

use tengen_store::{Store, StoreError, name_key, name_skeleton};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_script::Script;
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;
use unicode_security::mixed_script::AugmentedScriptSet;

/// `raw` as shown to others (its NFKC form), or why it cannot be:
/// `what` names it in the message, `max_chars` bounds its NFKC form.
pub fn shown(what: &str, raw: &str, max_chars: usize) -> Result<String, String> {
    let name: String = raw.nfkc().collect();
    if let Some(c) = name.chars().find(|c| unseen(*c)) {
        return Err(format!(
            "{what} must not hold invisible, control or direction-changing characters (U+{:04X})",
            c as u32
        ));
    }
    if name.starts_with(is_combining_mark) {
        return Err(format!("{what} must not start with a combining mark"));
    }
    if name.trim().is_empty() {
        return Err(format!("{what} must not be blank"));
    }
    if name.chars().count() > max_chars {
        return Err(format!("{what} has more than {max_chars} characters"));
    }
    Ok(name)
}

/// A character a reader does not see as itself, or that changes how the
/// text around it is shown.
fn unseen(c: char) -> bool {
    use GeneralCategory::*;
    matches!(
        c.general_category(),
        Control | Format | Surrogate | PrivateUse | Unassigned | LineSeparator | ParagraphSeparator
    ) || c.identifier_type() == Some(IdentifierType::Default_Ignorable)
}

/// Whether `name` is in one script as TR39's "highly restrictive" level
/// counts it: characters common to all scripts (digits, punctuation,
/// spaces, symbols) aside, one script, or Han with Hiragana and Katakana
/// (Japanese), Bopomofo or Hangul, each possibly with Latin.
pub fn one_script(name: &str) -> bool {
    let mut all = AugmentedScriptSet::default();
    let mut not_latin = AugmentedScriptSet::default();
    for c in name.chars() {
        let set = AugmentedScriptSet::for_char(c);
        if !set.base.contains_script(Script::Latin) {
            not_latin.intersect_with(set);
        }
        all.intersect_with(set);
    }
    !all.is_empty() || not_latin.jpan || not_latin.hanb || not_latin.kore
}

/// Whether `name` could pass for a name the server gives guests: it looks
/// like `guest` followed by anything (`guest-1`, `Guest`, `gue\u{455}t-7`).
pub fn guest_like(name: &str) -> bool {
    name_skeleton(name).starts_with(&name_skeleton("guest"))
}

/// Whether `name` looks like exactly `guest-<digits>` (a room or a
/// tournament may be called "Guests welcome", not "guest-12").
pub fn guest_number_like(name: &str) -> bool {
    static DIGITS: OnceLock<HashSet<char>> = OnceLock::new();
    let digits = DIGITS.get_or_init(|| name_skeleton("0123456789").chars().collect());
    name_skeleton(name)
        .strip_prefix(&name_skeleton("guest-"))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| digits.contains(&c)))
}

/// Whether an account's name could look like `name`: every character of
/// its skeleton is one that account names' skeletons use (account names
/// are ASCII letters, digits, `_` and `-`). Only then is the store asked.
pub fn may_look_like_an_account(name: &str) -> bool {
    static USED: OnceLock<HashSet<char>> = OnceLock::new();
    let used = USED.get_or_init(|| {
        let alphabet: String = ('a'..='z')
            .chain('A'..='Z')
            .chain('0'..='9')
            .chain(['_', '-'])
            .collect();
        alphabet
            .chars()
            .flat_map(|c| name_skeleton(&c.to_string()).chars().collect::<Vec<_>>())
            .collect()
    });
    let skeleton = name_skeleton(name);
    !skeleton.is_empty() && skeleton.chars().all(|c| used.contains(&c))
}

/// The registered account, other than `own` (any case), whose name
/// `name` looks like, if any.
pub async fn account_like(
    store: &dyn Store,
    name: &str,
    own: Option<&str>,
) -> Result<Option<String>, StoreError> {
    if !may_look_like_an_account(name) {
        return Ok(None);
    }
    let own = own.map(name_key);
    let found = store.accounts_like(name).await?;
    Ok(found
        .into_iter()
        .find(|a| own.as_deref() != Some(name_key(a).as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_direction_changing_characters_are_refused() {
        for bad in [
            "car\u{200B}ol",
            "\u{202E}lorac",
            "\u{FEFF}carol",
            "ca\u{2066}rol",
            "caro\u{AD}l",
            "carol\u{E000}",
            "\u{3164}",
            "carol\u{FE0F}",
            "a\u{2028}b",
            "\u{301}carol",
        ] {
            assert!(shown("name", bad, 32).is_err(), "{bad:?}");
        }
        assert_eq!(shown("name", "\u{FF43}arol", 32).unwrap(), "carol");
        assert_eq!(shown("name", "carol\u{301}", 32).unwrap(), "caro\u{13A}");
        // NFKC may lengthen a name: the bound is on what is shown.
        assert!(shown("name", "\u{33FF}", 1).is_err());
    }

    #[test]
    fn names_in_one_script_pass_and_mixed_ones_do_not() {
        for ok in [
            "carol",
            "\u{5F20}\u{4F1F}",
            "\u{305F}\u{306A}\u{304B}\u{592A}\u{90CE}",
            "\u{5C71}\u{7530}\u{30BF}\u{30ED}\u{30A6}",
            "\u{AE40}\u{BBFC}\u{C218}",
            "\u{41C}\u{438}\u{448}\u{430} 2",
            "\u{674E} Lee",
            "Jos\u{E9}",
        ] {
            assert!(one_script(ok), "{ok:?}");
        }
        for mixed in [
            "\u{441}arol",
            "Ivan_\u{418}\u{432}\u{430}\u{43D}",
            "Alpha \u{3A9}",
        ] {
            assert!(!one_script(mixed), "{mixed:?}");
        }
    }

    #[test]
    fn guest_names_of_the_server_are_recognised() {
        for like in ["guest-1", "Guest", "GUEST-12", "gue\u{455}t-7", "guestly"] {
            assert!(guest_like(like), "{like:?}");
        }
        assert!(!guest_like("guardian"));
        for like in ["guest-1", "guest-l2", "Guest-007"] {
            assert!(guest_number_like(like), "{like:?}");
        }
        for not in ["Guests welcome", "guest-", "guest-x", "my guest-1"] {
            assert!(!guest_number_like(not), "{not:?}");
        }
    }

    #[test]
    fn only_names_an_account_could_look_like_ask_the_store() {
        for maybe in ["carol", "\u{441}arol", "car0l", "Mike", "a-b_c"] {
            assert!(may_look_like_an_account(maybe), "{maybe:?}");
        }
        for never in ["carol's room", "\u{5F20}\u{4F1F}", "a.b", ""] {
            assert!(!may_look_like_an_account(never), "{never:?}");
        }
    }
}
