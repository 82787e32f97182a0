//! What moderation asks of players meeting: may `a` challenge `b` (not
//! if either blocks the other). And of table chat, where a line is fanned out: is its
//! sender muted (then it goes back to the sender alone, who sees it as
//! usual), and does a recipient block its sender (then that recipient
//! does not get it). Chat lines are not table events: they carry no
//! `seq`, so a line withheld from some readers leaves no gap in anyone's
//! event numbering, and no placeholder is needed.

use tengen_protocol::Player;

use super::book::Book;
use super::state::unix_ms;

/// `sender`'s chat reaches nobody else (a muted account; guests are
/// never muted).
pub fn muted(book: &Book, sender: &Player) -> bool {
    !sender.guest && book.muted(&sender.name, unix_ms())
}

/// `recipient` does not get `sender`'s chat (it blocks the sender).
pub fn hides(book: &Book, recipient: &Player, sender: &Player) -> bool {
    !recipient.guest && !sender.guest && book.blocks(&recipient.name, &sender.name)
}

/// One of `a` and `b` blocks the other (accounts only).
pub fn apart(book: &Book, a: &Player, b: &Player) -> bool {
    !a.guest && !b.guest && book.apart(&a.name, &b.name)
}
