//! What moderation asks of players meeting: may `a` challenge `b` (not
//! if either blocks the other). And of table chat, where a line is fanned out: is its
//! sender muted (then it goes back to the sender alone, who sees it as
//! usual), and does a recipient block its sender (then that recipient
//! does not get it). Chat lines are not table events: they carry no
//! `seq`, so a line withheld from some readers leaves no gap in anyone's
//! event numbering, and no placeholder is needed.
//!
//! The checks read this node's [`Book`], which holds the standings of the
//! accounts that logged in here. A table also serves players and
//! spectators connected to other nodes, so it asks for their standings
//! when they sit or watch ([`learn`]): read from the store off the
//! table's loop, noted in the book, in force from then on.

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

/// Notes `player`'s standing in this node's book if it is not there yet
/// (an account that logged in on another node), read from the store on a
/// task of its own: the caller never waits.
pub fn learn(h: &crate::hosting::Hosting, player: &Player) {
    if player.guest || h.moderation.book.get(&player.name).is_some() {
        return;
    }
    let (store, book, name) = (
        h.store.clone(),
        h.moderation.book.clone(),
        player.name.clone(),
    );
    tokio::spawn(async move {
        match store.standing(&name).await {
            Ok(Some(standing)) => book.set(standing),
            Ok(None) => {}
            Err(e) => tracing::debug!(error = %e, %name, "no standing read for a table"),
        }
    });
}

/// One of `a` and `b` blocks the other (accounts only).
pub fn apart(book: &Book, a: &Player, b: &Player) -> bool {
    !a.guest && !b.guest && book.apart(&a.name, &b.name)
}
