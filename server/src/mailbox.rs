//! Handing a command to an actor's bounded mailbox when it must not be
//! lost.
//!
//! Actors never wait on each other (`try_send`), which keeps every queue
//! bounded and no actor stalled by another. A few commands must arrive all
//! the same (a game's end for the lobby, a connection's end for the node):
//! those are queued at once when there is room, or else by a small task
//! that waits for room. That wait always ends, because the receiving
//! actors never wait on their senders.

use tokio::sync::mpsc;

/// Queues `cmd` now, or by a task that waits for room; dropped only if
/// the receiver is gone.
pub fn send_reliably<T: Send + 'static>(tx: &mpsc::Sender<T>, cmd: T) {
    if let Err(mpsc::error::TrySendError::Full(cmd)) = tx.try_send(cmd) {
        let tx = tx.clone();
        tokio::spawn(async move {
            let _ = tx.send(cmd).await;
        });
    }
}
