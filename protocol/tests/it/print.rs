//! Prints the frames `protocol/README.md` shows, in its order, as the
//! types make them: what to paste after changing a type.
//! `cargo test -p tengen-protocol --test it print:: -- --ignored --nocapture`

use crate::common;
use common::*;

fn walk(title: &str, frames: Vec<Said>) {
    println!("## {title}");
    for s in frames {
        match s {
            Said::Client(w, f) => println!("{w} -> {}", json(&f)),
            Said::Server(w, f) => println!("-> {w}: {}", json(&f)),
        }
    }
}

#[test]
#[ignore = "prints the README's frames: cargo test -p tengen-protocol --test it print:: -- --ignored --nocapture"]
fn print_the_guides_frames() {
    walk("walk-through", walkthrough());
    walk("rif opening", rif_opening());
    walk("reconnect", reconnect_walkthrough());
    walk("chat and rematch", chat_rematch_walkthrough());
    println!("## every other example");
    for f in client_examples() {
        println!("{}", json(&f));
    }
    for f in server_examples() {
        println!("{}", json(&f));
    }
}
