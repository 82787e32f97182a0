//! The one kind of actor mailbox: bounded, never waited on by a sender.
//!
//! Actors never wait on each other ([`Mailbox::try_send`]), which keeps
//! every queue bounded and no actor stalled by another: a command that
//! finds the mailbox full is refused, and its sender answers its client
//! `unavailable` (or drops what can be sent again later).
//!
//! A few messages must arrive all the same: a connection's end for the
//! lobby and the node (or its seats and relays would linger), a table's
//! end or rematch for the lobby. Those are *notices*, and they travel on a
//! second queue of the same mailbox, reserved for them and read first
//! ([`Mailbox::notify`]). It is bounded too, and sized for every
//! connection and table the process can hold to have its notices queued
//! at once ([`notice_capacity`]); the receiving actors never wait on their
//! senders, so it drains at their pace. Should it ever fill (the bound
//! broken by a bug), the notice is dropped, logged and counted in
//! `tengen_errors_total{kind="notice_dropped"}` rather than queued without
//! bound: no task waits for room, and nothing grows unseen.

use tokio::sync::mpsc;

/// The sending side of an actor's mailbox, cheap to clone.
pub struct Mailbox<T> {
    tx: mpsc::Sender<T>,
    notices: Option<mpsc::Sender<T>>,
}

impl<T> Clone for Mailbox<T> {
    fn clone(&self) -> Self {
        Mailbox {
            tx: self.tx.clone(),
            notices: self.notices.clone(),
        }
    }
}

/// The actor's side: commands and notices, notices first.
pub struct Inbox<T> {
    rx: mpsc::Receiver<T>,
    notices: Option<mpsc::Receiver<T>>,
    /// A command read while a notice sent before it was landing: it is
    /// handed out after that notice (see [`Inbox::recv`]).
    held: Option<T>,
}

/// A mailbox of `capacity` commands, and of `notices` notices beside them
/// (0: the actor takes no notices; [`Mailbox::notify`] is then a
/// `try_send`).
pub fn mailbox<T>(capacity: usize, notices: usize) -> (Mailbox<T>, Inbox<T>) {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    let (ntx, nrx) = match notices {
        0 => (None, None),
        n => {
            let (t, r) = mpsc::channel(n);
            (Some(t), Some(r))
        }
    };
    (
        Mailbox { tx, notices: ntx },
        Inbox {
            rx,
            notices: nrx,
            held: None,
        },
    )
}

/// Notices an actor that hears of every connection and table must hold at
/// once: two per connection and three per table, a table for every two
/// connections.
pub fn notice_capacity(max_connections: usize) -> usize {
    (2 * max_connections + 3 * max_connections / 2).max(64)
}

/// The mailbox of an actor that hears of every connection's and table's
/// end (the lobby, the node): `capacity` commands, and room for the
/// notices of `max_connections` connections and their tables.
pub fn for_every_connection<T>(capacity: usize, max_connections: usize) -> (Mailbox<T>, Inbox<T>) {
    mailbox(capacity, notice_capacity(max_connections))
}

impl<T> Mailbox<T> {
    /// Hands over a command without waiting; false when the mailbox is
    /// full or the actor is gone.
    pub fn try_send(&self, cmd: T) -> bool {
        self.tx.try_send(cmd).is_ok()
    }

    /// [`Mailbox::try_send`], giving the command back when it was refused.
    pub fn try_give(&self, cmd: T) -> Result<(), T> {
        self.tx.try_send(cmd).map_err(|e| match e {
            mpsc::error::TrySendError::Full(c) | mpsc::error::TrySendError::Closed(c) => c,
        })
    }

    /// Hands over a notice that must not be lost, on the reserved queue
    /// (see the module doc). False only when the actor is gone or the
    /// bound was broken.
    pub fn notify(&self, notice: T) -> bool {
        let tx = self.notices.as_ref().unwrap_or(&self.tx);
        match tx.try_send(notice) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::error!("a notice found its reserved queue full and was dropped");
                crate::metrics::error("notice_dropped");
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

impl<T> Inbox<T> {
    /// The loop of an actor that takes commands and also acts on a tick:
    /// `handle` each command or notice, `tick` every `every` (a late tick
    /// is not made up for), until every sender is gone or the server
    /// stops.
    pub async fn serve<A>(
        &mut self,
        actor: &mut A,
        every: std::time::Duration,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
        mut handle: impl FnMut(&mut A, T),
        mut tick: impl FnMut(&mut A),
    ) {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                cmd = self.recv() => match cmd {
                    Some(cmd) => handle(actor, cmd),
                    None => break,
                },
                _ = ticks.tick() => tick(actor),
                _ = shutdown.wait_for(|s| *s) => break,
            }
        }
    }

    /// The next notice, or else the next command; `None` once every
    /// sender is gone.
    ///
    /// A notice sent before a command is read before it, even across the
    /// two queues: a table tells the lobby of its end before any player
    /// sees `game_over`, and a player's `leave_room` sent on seeing it
    /// must find the room finished. Polling the notices first is not
    /// enough for that, since the notice can land after they were found
    /// empty and before the command is taken; so once a command is taken,
    /// the notices are looked at again, and one found there goes first
    /// while the command waits in `held`.
    pub async fn recv(&mut self) -> Option<T> {
        let Some(notices) = &mut self.notices else {
            return self.rx.recv().await;
        };
        if let Ok(n) = notices.try_recv() {
            return Some(n);
        }
        if let Some(cmd) = self.held.take() {
            return Some(cmd);
        }
        tokio::select! {
            biased;
            Some(n) = notices.recv() => Some(n),
            cmd = self.rx.recv() => match (cmd, notices.try_recv()) {
                (Some(cmd), Ok(n)) => {
                    self.held = Some(cmd);
                    Some(n)
                }
                (cmd, _) => cmd,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn notices_pass_a_full_mailbox_and_come_first() {
        let (tx, mut rx) = mailbox::<u32>(2, 2);
        assert!(tx.try_send(1));
        assert!(tx.try_send(2));
        assert!(!tx.try_send(3), "full: refused at once");
        assert_eq!(tx.try_give(4), Err(4));
        assert!(tx.notify(10), "a notice has its own room");
        assert!(tx.notify(11));
        assert!(!tx.notify(12), "the reserved queue is bounded too");
        let mut got = Vec::new();
        for _ in 0..4 {
            got.push(rx.recv().await.unwrap());
        }
        assert_eq!(got, vec![10, 11, 1, 2]);
        drop(tx);
        assert_eq!(rx.recv().await, None);
    }

    /// A notice sent before a command is read before it, even when it
    /// lands while the receiver is between its two queues (a table's end,
    /// then a player's `leave_room` sent on seeing it: the lobby must not
    /// find the room still playing).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_notice_sent_before_a_command_is_read_before_it() {
        const N: u32 = 50_000;
        let (tx, mut rx) = mailbox::<(bool, u32)>(N as usize, N as usize);
        let sender = std::thread::spawn(move || {
            for i in 0..N {
                // A pause of varying length, so that the receiver is
                // sometimes caught up and polling when the pair lands.
                for _ in 0..(i % 1024) {
                    std::hint::spin_loop();
                }
                assert!(tx.notify((true, i)));
                assert!(tx.try_send((false, i)));
            }
        });
        let mut notices = 0;
        while let Some((notice, i)) = rx.recv().await {
            if notice {
                notices = i + 1;
            } else {
                assert!(i < notices, "command {i} read before its notice");
            }
        }
        sender.join().unwrap();
        assert_eq!(notices, N);
    }
}
