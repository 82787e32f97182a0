//! What a name looks like: the key under which names that a reader could
//! take for one another are equal, so that an account's name can be
//! looked up by any name made to look like it.
//!
//! Why in the store: the accounts are indexed by it (both stores keep the
//! index beside the accounts, and build it for accounts stored before it
//! existed), and the index is only right if every writer and reader
//! computes it alike. The server decides what a match means.
//!
//! The key is Unicode TR39's confusable skeleton (NFD, confusables mapped
//! to their prototypes, default-ignorable characters dropped) taken over
//! the name's NFKC form, made case-blind (the skeleton again after
//! lowercasing: `I` and `l` are one, and so are `M` and `rn`) and
//! accent-blind (combining marks dropped). So `carol`, `CAROL`, `caroI`,
//! `car0l`, `сarol` (Cyrillic с), `car\u{200B}ol` and `carol` with a
//! combining accent all have the key `carol`.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The version of [`name_skeleton`]: the stores rebuild their index of
/// account names when the version they built it with differs (a newer
/// Unicode version in the crates, or a change here).
pub const SKELETON_VERSION: u32 = {
    let (major, minor, update) = unicode_security::UNICODE_VERSION;
    // This algorithm's own revision, then the Unicode version.
    (1 << 24) | ((major as u32) << 16) | ((minor as u32) << 8) | update as u32
};

/// The confusable skeleton of `name` (see the [module documentation](self)).
pub fn name_skeleton(name: &str) -> String {
    let normal: String = name.nfkc().collect();
    let once: String = unicode_security::skeleton(&normal).collect();
    let lower = once.to_lowercase();
    let twice: String = unicode_security::skeleton(&lower).collect();
    twice.nfd().filter(|c| !is_combining_mark(*c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookalikes_share_a_skeleton_and_other_names_do_not() {
        for alike in [
            "carol",
            "CAROL",
            "caroI",
            "car0l",
            "\u{441}arol",
            "car\u{200B}ol",
            "\u{FEFF}carol",
            "carol\u{301}",
            "carol\u{335}",
            "\u{FF43}\u{FF41}\u{FF52}\u{FF4F}\u{FF4C}",
        ] {
            assert_eq!(name_skeleton(alike), "carol", "{alike:?}");
        }
        assert_eq!(name_skeleton("M"), name_skeleton("rn"));
        for other in ["carl", "caro", "karol", "\u{5F20}\u{4F1F}"] {
            assert_ne!(name_skeleton(other), "carol", "{other:?}");
        }
        assert_eq!(name_skeleton("guest-1"), name_skeleton("gue\u{455}t-l"));
    }
}
