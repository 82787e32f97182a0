use crate::common;
use common::*;

#[test]
#[ignore = "prints the README's examples: cargo test -p tengen-protocol --test it print:: -- --ignored --nocapture"]
fn print_examples() {
    println!("## client");
    for f in client_examples() {
        println!("{}", json(&f));
    }
    println!("## server");
    for f in server_examples() {
        println!("{}", json(&f));
    }
    println!("## walk");
    for s in walkthrough() {
        match s {
            Said::Client(w, f) => println!("{w} -> {}", json(&f)),
            Said::Server(w, f) => println!("-> {w}: {}", json(&f)),
        }
    }
    for (title, walk) in [
        ("## reconnect", reconnect_walkthrough()),
        ("## chat and rematch", chat_rematch_walkthrough()),
    ] {
        println!("{title}");
        for s in walk {
            match s {
                Said::Client(w, f) => println!("{w} -> {}", json(&f)),
                Said::Server(w, f) => println!("-> {w}: {}", json(&f)),
            }
        }
    }
    println!("## values");
    for v in game_values() {
        println!("{v}");
    }
    println!("## errors");
    for e in game_errors() {
        println!("{} | {}", json(&e), e);
    }
}

#[test]
#[ignore = "prints the README's RIF walk-through: cargo test -p tengen-protocol --test it print:: -- --ignored --nocapture"]
fn print_rif_walkthrough() {
    println!("## rif walk");
    for s in rif_walkthrough() {
        match s {
            Said::Client(w, f) => println!("{w} -> {}", json(&f)),
            Said::Server(w, f) => println!("-> {w}: {}", json(&f)),
        }
    }
    let (moves, board) = rif_final();
    println!("## rif final\n{moves}\n{board}");
}
