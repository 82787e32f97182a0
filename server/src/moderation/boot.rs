//! Starting moderation on a node (`Server::start` calls [`start`]).

use super::{actions, news, socket};

/// Starts moderation on a node: reads the banned ranges, makes the
/// `--admin` accounts admins (audited), and opens the way other nodes and
/// `tengen-server admin` reach this one: the moderation topic of the bus
/// with Redis, the admin socket in the data directory otherwise.
pub async fn start(
    hosting: &crate::hosting::Hosting,
    shutdown: tokio::sync::watch::Receiver<bool>,
) -> Result<(), String> {
    let failed = |e: String| e;
    let store = &*hosting.store;
    let m = &hosting.moderation;
    m.addresses
        .reload(store)
        .await
        .map_err(|e| failed(e.to_string()))?;
    for name in &hosting.settings.admins {
        let ctx = actions::Ctx {
            m,
            store,
            sessions: &hosting.sessions,
            by: "cli:--admin",
        };
        let req = tengen_protocol::ModRequest::SetRole {
            player: name.clone(),
            role: tengen_protocol::Role::Admin,
            reason: "--admin at start".into(),
        };
        if let Err(e) = ctx.act(req).await {
            return Err(failed(format!("--admin {name}: {}", e.message)));
        }
    }
    let settings = &hosting.settings;
    match &settings.redis {
        Some(redis) => {
            let mut config = crate::cluster::bus::BusConfig::new(
                redis.url.clone(),
                redis.prefix.clone(),
                format!("{}-moderation", settings.node),
            );
            config.ca_file = redis.ca_file.clone();
            let listener = news::Listener {
                hosting: hosting.clone(),
                moderation: m.clone(),
                store: hosting.store.clone(),
                sessions: hosting.sessions.clone(),
                shutdown,
            };
            news::listen(config, listener)
                .await
                .map_err(|e| failed(e.to_string()))
        }
        // Without its socket the server still serves; `tengen-server
        // admin` then cannot reach it (and says the store is locked).
        None => {
            if let Err(e) = socket::serve(hosting.clone(), &settings.data_dir, shutdown) {
                tracing::warn!(error = %e, dir = %settings.data_dir.display(), "no admin socket");
            }
            Ok(())
        }
    }
}
