//! What the Redis server does with acknowledged writes: the append-only
//! file and its fsync policy (see *Persistence* in the
//! [module documentation](super)).

use std::collections::HashMap;
use std::fmt;

use super::handle::RedisStore;
use crate::Result;

/// `appendfsync`: when Redis fsyncs the append-only file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fsync {
    /// Before every reply: an acknowledged write is on disk.
    Always,
    /// Once a second: a crash of the Redis process loses nothing, a power
    /// loss or kernel crash can lose about the last second.
    EverySec,
    /// When the operating system decides: a power loss can lose more.
    No,
    /// Not known (`CONFIG` disabled) or a value this build does not know.
    Unknown(String),
}

/// How the Redis server keeps its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Persistence {
    /// `appendonly yes`: every write is logged to the append-only file.
    pub aof: bool,
    pub fsync: Fsync,
    /// `save`: the RDB snapshot schedule (empty: none), when known.
    pub save: Option<String>,
}

impl Persistence {
    /// Whether every acknowledged write survives a crash of the Redis
    /// process (the append-only file is on, with any fsync policy but `no`).
    pub fn keeps_acknowledged_writes(&self) -> bool {
        self.aof && !matches!(self.fsync, Fsync::No)
    }

    /// What is at risk with this configuration, if anything: `None` with
    /// the append-only file and `appendfsync always`.
    pub fn risk(&self) -> Option<String> {
        if !self.aof {
            return Some(
                "Redis runs without the append-only file (appendonly no): a restart of Redis \
                 loses every write since the last RDB snapshot, so \"no accepted move is lost\" \
                 does NOT hold. Set `appendonly yes` and `appendfsync always` (or `everysec`)."
                    .into(),
            );
        }
        match &self.fsync {
            Fsync::Always => None,
            Fsync::EverySec => Some(
                "Redis fsyncs its append-only file once a second (appendfsync everysec): a \
                 crash of the Redis process loses nothing, but a power loss or kernel crash \
                 can lose about the last second of accepted moves. `appendfsync always` \
                 closes that gap."
                    .into(),
            ),
            Fsync::No => Some(
                "Redis leaves fsync of its append-only file to the OS (appendfsync no): a \
                 power loss or kernel crash can lose many seconds of accepted moves. Use \
                 `appendfsync always` (or `everysec`)."
                    .into(),
            ),
            Fsync::Unknown(v) => Some(format!(
                "the append-only file is on, but its fsync policy is unknown ({v}): check that \
                 it is `appendfsync always` (or `everysec`)"
            )),
        }
    }
}

impl fmt::Display for Persistence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fsync = match &self.fsync {
            Fsync::Always => "always",
            Fsync::EverySec => "everysec",
            Fsync::No => "no",
            Fsync::Unknown(v) => v.as_str(),
        };
        write!(
            f,
            "appendonly {}, appendfsync {fsync}",
            if self.aof { "yes" } else { "no" }
        )?;
        if let Some(save) = &self.save {
            write!(f, ", save {save:?}")?;
        }
        Ok(())
    }
}

fn fsync(value: &str) -> Fsync {
    match value {
        "always" => Fsync::Always,
        "everysec" => Fsync::EverySec,
        "no" => Fsync::No,
        other => Fsync::Unknown(other.to_owned()),
    }
}

/// Reads the configuration: `CONFIG GET`, or `INFO persistence` where
/// `CONFIG` is disabled (managed services often rename it away).
pub(super) async fn read(store: &RedisStore) -> Result<Persistence> {
    let mut get = redis::cmd("CONFIG");
    get.arg("GET").arg("append*");
    let config: Result<HashMap<String, String>> = store
        .query("reading the persistence configuration", get)
        .await;
    if let Ok(config) = config
        && let Some(aof) = config.get("appendonly")
    {
        let mut save = redis::cmd("CONFIG");
        save.arg("GET").arg("save");
        let save: Option<HashMap<String, String>> = store
            .query("reading the snapshot schedule", save)
            .await
            .ok();
        return Ok(Persistence {
            aof: aof == "yes",
            fsync: config
                .get("appendfsync")
                .map_or(Fsync::Unknown("not reported".into()), |v| fsync(v)),
            save: save.and_then(|mut s| s.remove("save")),
        });
    }
    let mut info = redis::cmd("INFO");
    info.arg("persistence");
    let text: String = store.query("reading INFO persistence", info).await?;
    let aof = text.lines().any(|l| l.trim() == "aof_enabled:1");
    Ok(Persistence {
        aof,
        fsync: Fsync::Unknown("CONFIG GET is not allowed".into()),
        save: None,
    })
}
