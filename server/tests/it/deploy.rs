//! The deployment files under `deploy/` (several nodes on Redis).
//!
//! No container engine runs where this project is developed and tested, so
//! the image is never built and neither compose nor Kubernetes applies these
//! files here. What can be checked without them is checked: every YAML file
//! parses (multi-document files included) and has the shape its tool needs,
//! the probes and the balancer point at the server's real endpoints and
//! port, the image copies the binary the server crate really builds, the
//! local-cluster script is an executable POSIX script, the systemd unit
//! starts that binary and stops it with SIGTERM, and the configuration
//! reference names every flag and variable `tengen-server --help` shows.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use tengen_protocol::Limits;
use yaml_rust2::{Yaml, YamlLoader};

/// The port every deployment file uses (the image fixes `--listen
/// 0.0.0.0:8415`; 8415 is also the server's default port).
const PORT: i64 = 8415;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server/ has a parent")
        .to_path_buf()
}

fn deploy() -> PathBuf {
    repo().join("deploy")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Every `*.yaml` / `*.yml` under `dir`, sorted.
fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("listing {}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            ) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The documents of a YAML file; none may be empty (a stray `---`).
fn documents(path: &Path) -> Vec<Yaml> {
    let docs = YamlLoader::load_from_str(&read(path))
        .unwrap_or_else(|e| panic!("{} is not valid YAML: {e}", path.display()));
    assert!(!docs.is_empty(), "{} holds no document", path.display());
    for (i, doc) in docs.iter().enumerate() {
        assert!(
            doc.is_hash(),
            "{} document {} is not a mapping: {doc:?}",
            path.display(),
            i + 1
        );
    }
    docs
}

fn string<'a>(node: &'a Yaml, what: &str) -> &'a str {
    node.as_str()
        .unwrap_or_else(|| panic!("{what}: expected a string, found {node:?}"))
}

fn list<'a>(node: &'a Yaml, what: &str) -> &'a [Yaml] {
    node.as_vec()
        .unwrap_or_else(|| panic!("{what}: expected a list, found {node:?}"))
}

/// The name of the server's binary, from `[[bin]]` in server/Cargo.toml.
fn bin_name() -> String {
    let manifest = read(&repo().join("server/Cargo.toml"));
    let mut in_bin = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(value) = line.strip_prefix("name") {
            let value = value.trim_start().strip_prefix('=').expect("name = ...");
            return value.trim().trim_matches('"').to_string();
        }
    }
    panic!("server/Cargo.toml has no [[bin]] name");
}

/// The workspace members of the root Cargo.toml.
fn workspace_members() -> Vec<String> {
    let manifest = read(&repo().join("Cargo.toml"));
    let start = manifest.find("members").expect("a members list");
    let open = start + manifest[start..].find('[').expect("members = [");
    let close = open + manifest[open..].find(']').expect("members = [...]");
    manifest[open + 1..close]
        .split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

/// `tengen-server --help`, from the binary this package builds.
fn server_help() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen-server"))
        .arg("--help")
        .output()
        .expect("running tengen-server --help");
    assert!(out.status.success(), "tengen-server --help failed");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// The server's idle timeout in whole seconds: balancers must wait longer.
fn idle_timeout_secs() -> u64 {
    Limits::default().idle_timeout_ms / 1000
}

#[test]
fn every_yaml_file_parses() {
    let files = yaml_files(&deploy());
    let names: Vec<String> = files
        .iter()
        .map(|p| {
            p.strip_prefix(deploy())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for expected in ["compose.yaml", "k8s/deployment.yaml", "k8s/service.yaml"] {
        assert!(
            names.iter().any(|n| n == expected),
            "deploy/{expected} is missing (found {names:?})"
        );
    }
    for file in &files {
        documents(file);
    }
}

/// Every document under deploy/k8s, with the file it came from.
fn k8s_documents() -> Vec<(PathBuf, Yaml)> {
    yaml_files(&deploy().join("k8s"))
        .into_iter()
        .flat_map(|path| {
            documents(&path)
                .into_iter()
                .map(move |doc| (path.clone(), doc))
        })
        .collect()
}

fn of_kind<'a>(docs: &'a [(PathBuf, Yaml)], kind: &str) -> Vec<&'a Yaml> {
    docs.iter()
        .filter(|(_, d)| d["kind"].as_str() == Some(kind))
        .map(|(_, d)| d)
        .collect()
}

fn named<'a>(docs: &'a [(PathBuf, Yaml)], kind: &str, name: &str) -> &'a Yaml {
    of_kind(docs, kind)
        .into_iter()
        .find(|d| d["metadata"]["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no {kind} named {name} under deploy/k8s"))
}

#[test]
fn kubernetes_documents_are_named_objects() {
    let docs = k8s_documents();
    assert!(
        docs.len() >= 5,
        "expected several objects, got {}",
        docs.len()
    );
    let mut seen = BTreeSet::new();
    for (path, doc) in &docs {
        let at = path.display();
        let api = string(&doc["apiVersion"], &format!("{at}: apiVersion"));
        let kind = string(&doc["kind"], &format!("{at}: kind"));
        let name = string(
            &doc["metadata"]["name"],
            &format!("{at}: {kind} metadata.name"),
        );
        assert!(!api.is_empty() && !kind.is_empty() && !name.is_empty());
        assert!(
            seen.insert((kind.to_string(), name.to_string())),
            "{at}: a second {kind} named {name}"
        );
    }
    // Every file the kustomization lists exists, and only those.
    let kustomization = named(&docs, "Kustomization", "tengen");
    for resource in list(&kustomization["resources"], "kustomization resources") {
        let file = string(resource, "a kustomization resource");
        assert!(
            deploy().join("k8s").join(file).is_file(),
            "kustomization.yaml lists {file}, which does not exist"
        );
    }
}

#[test]
fn kubernetes_deployment_probes_healthz_on_the_container_port() {
    let docs = k8s_documents();
    let deployment = named(&docs, "Deployment", "tengen-server");
    let spec = &deployment["spec"];
    assert_eq!(spec["replicas"].as_i64(), Some(2), "two replicas");
    let pod = &spec["template"]["spec"];
    let grace = pod["terminationGracePeriodSeconds"]
        .as_i64()
        .expect("terminationGracePeriodSeconds");
    assert!(
        grace >= 10,
        "the server needs up to 5 s to stop; got {grace}"
    );

    // The selector selects the pod template, and the Service selects it too.
    let pod_labels = pod_labels(deployment);
    let selector = spec["selector"]["matchLabels"]
        .as_hash()
        .expect("matchLabels");
    for (k, v) in selector {
        assert_eq!(pod_labels.get(k), Some(v), "selector {k:?} not on the pod");
    }
    let service = named(&docs, "Service", "tengen-server");
    for (k, v) in service["spec"]["selector"].as_hash().expect("a selector") {
        assert_eq!(
            pod_labels.get(k),
            Some(v),
            "Service selector {k:?} not on the pod"
        );
    }

    let containers = list(&pod["containers"], "containers");
    let server = containers
        .iter()
        .find(|c| c["name"].as_str() == Some("tengen-server"))
        .expect("a container named tengen-server");
    let ports = list(&server["ports"], "container ports");
    let port = ports
        .iter()
        .find(|p| p["containerPort"].as_i64() == Some(PORT))
        .unwrap_or_else(|| panic!("the container exposes {PORT}"));
    let port_name = port["name"].as_str();

    let refers_to_port =
        |p: &Yaml| p.as_i64() == Some(PORT) || (p.as_str().is_some() && p.as_str() == port_name);
    for probe in ["readinessProbe", "livenessProbe", "startupProbe"] {
        let get = &server[probe]["httpGet"];
        if probe == "startupProbe" && server[probe].is_badvalue() {
            continue;
        }
        assert_eq!(get["path"].as_str(), Some("/healthz"), "{probe} path");
        assert!(
            refers_to_port(&get["port"]),
            "{probe} port {:?} is not the container port",
            get["port"]
        );
    }
    let service_port = &list(&service["spec"]["ports"], "Service ports")[0];
    assert!(
        refers_to_port(&service_port["targetPort"]),
        "the Service's targetPort is not the container port"
    );

    // Resources: requests and a memory limit.
    let resources = &server["resources"];
    for key in ["cpu", "memory"] {
        assert!(
            resources["requests"][key].as_str().is_some(),
            "resources.requests.{key}"
        );
    }
    assert!(
        resources["limits"]["memory"].as_str().is_some(),
        "a memory limit"
    );

    // Configuration: the ConfigMap and Secret it names exist, and the
    // Secret has the key it reads.
    for source in list(&server["envFrom"], "envFrom") {
        if let Some(name) = source["configMapRef"]["name"].as_str() {
            named(&docs, "ConfigMap", name);
        }
    }
    let redis = list(&server["env"], "env")
        .iter()
        .find(|e| e["name"].as_str() == Some("TENGEN_REDIS"))
        .expect("TENGEN_REDIS in env");
    let secret_ref = &redis["valueFrom"]["secretKeyRef"];
    let secret = named(&docs, "Secret", string(&secret_ref["name"], "secret name"));
    let key = string(&secret_ref["key"], "secret key");
    assert!(
        !secret["stringData"][key].is_badvalue() || !secret["data"][key].is_badvalue(),
        "the Secret has no key {key}"
    );
}

fn pod_labels(deployment: &Yaml) -> yaml_rust2::yaml::Hash {
    deployment["spec"]["template"]["metadata"]["labels"]
        .as_hash()
        .expect("pod labels")
        .clone()
}

#[test]
fn kubernetes_configuration_uses_the_servers_variables() {
    let docs = k8s_documents();
    let help = server_help();
    let config = named(&docs, "ConfigMap", "tengen-config");
    for (key, value) in config["data"].as_hash().expect("ConfigMap data") {
        let key = string(key, "a ConfigMap key");
        assert!(
            value.as_str().is_some(),
            "ConfigMap {key}: values must be strings (quote numbers)"
        );
        assert!(
            key == "TENGEN_LOG" || help.contains(&format!("env: {key}=")),
            "ConfigMap sets {key}, which tengen-server does not read"
        );
    }
    // Every replica runs with the same pod template, so a node id set there
    // would be shared by all of them: the pods keep the default (the host
    // name, i.e. the pod's name, unique among running pods).
    assert!(
        config["data"]["TENGEN_NODE_ID"].is_badvalue(),
        "the ConfigMap must not give every pod the same TENGEN_NODE_ID"
    );
    let deployment = named(&docs, "Deployment", "tengen-server");
    for container in list(
        &deployment["spec"]["template"]["spec"]["containers"],
        "containers",
    ) {
        if let Some(env) = container["env"].as_vec() {
            assert!(
                env.iter()
                    .all(|e| e["name"].as_str() != Some("TENGEN_NODE_ID")),
                "the Deployment must not give every pod the same TENGEN_NODE_ID"
            );
        }
        if let Some(args) = container["args"].as_vec() {
            assert!(
                args.iter().all(|a| a.as_str() != Some("--node-id")),
                "the Deployment must not give every pod the same --node-id"
            );
        }
    }
    // The ingress (if any) waits longer than the server's idle timeout.
    for ingress in of_kind(&docs, "Ingress") {
        let annotations = ingress["metadata"]["annotations"]
            .as_hash()
            .expect("annotations");
        for (k, v) in annotations {
            let k = string(k, "annotation");
            if k.ends_with("proxy-read-timeout") || k.ends_with("proxy-send-timeout") {
                let secs: u64 = string(v, k).parse().expect("seconds");
                assert!(secs > idle_timeout_secs(), "{k} {secs} s");
            }
        }
    }
}

#[test]
fn compose_has_redis_two_nodes_and_a_balancer() {
    let docs = documents(&deploy().join("compose.yaml"));
    assert_eq!(docs.len(), 1, "compose.yaml is one document");
    let services = docs[0]["services"].as_hash().expect("services");
    let service = |name: &str| -> &Yaml {
        services
            .get(&Yaml::String(name.into()))
            .unwrap_or_else(|| panic!("compose.yaml has no service {name}"))
    };

    let redis = service("redis");
    assert!(string(&redis["image"], "redis image").contains("redis"));
    let redis_command: Vec<&str> = list(&redis["command"], "redis command")
        .iter()
        .map(|a| string(a, "a redis argument"))
        .collect();
    let appendonly = redis_command.iter().position(|a| *a == "--appendonly");
    assert_eq!(
        appendonly.map(|i| redis_command[i + 1]),
        Some("yes"),
        "Redis runs with the append-only file: {redis_command:?}"
    );
    let fsync = redis_command.iter().position(|a| *a == "--appendfsync");
    assert!(
        matches!(
            fsync.map(|i| redis_command[i + 1]),
            Some("always" | "everysec")
        ),
        "appendfsync always or everysec: {redis_command:?}"
    );

    let nodes: Vec<&str> = services
        .iter()
        .filter(|(_, s)| s["build"]["dockerfile"].as_str() == Some("deploy/Dockerfile"))
        .map(|(name, _)| string(name, "a service name"))
        .collect();
    assert_eq!(
        nodes.len(),
        2,
        "two tengen nodes built from deploy/Dockerfile: {nodes:?}"
    );
    let mut node_ids = BTreeSet::new();
    for name in &nodes {
        let node = service(name);
        let command: Vec<&str> = list(&node["command"], "node command")
            .iter()
            .map(|a| string(a, "an argument"))
            .collect();
        let value = |flag: &str| {
            command
                .iter()
                .position(|a| *a == flag)
                .and_then(|i| command.get(i + 1).copied())
        };
        assert_eq!(
            value("--redis"),
            Some("redis://redis:6379"),
            "{name} uses the redis service: {command:?}"
        );
        // Every running node needs its own name (the default, the host
        // name, would do in containers, but a fixed one lets a node
        // restarted after a crash take its games back at once).
        let id = value("--node-id")
            .unwrap_or_else(|| panic!("{name} has an explicit --node-id: {command:?}"));
        assert!(
            !id.is_empty()
                && id.len() <= 64
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')),
            "{name}: --node-id {id:?} is not a valid node name"
        );
        assert!(node_ids.insert(id), "{name} reuses the node id {id}");
        assert_eq!(
            command.len(),
            4,
            "{name}: only --redis and --node-id: {command:?}"
        );
        assert!(
            node["depends_on"]["redis"].is_hash(),
            "{name} starts after redis"
        );
    }

    // The balancer mounts deploy/nginx.conf, which sends /ws to both nodes.
    let balancer = service("balancer");
    assert!(string(&balancer["image"], "balancer image").contains("nginx"));
    let mounts: Vec<&str> = list(&balancer["volumes"], "balancer volumes")
        .iter()
        .map(|v| string(v, "a volume"))
        .collect();
    assert!(
        mounts
            .iter()
            .any(|m| m.starts_with("./nginx.conf:/etc/nginx/nginx.conf")),
        "the balancer mounts ./nginx.conf: {mounts:?}"
    );
    for name in &nodes {
        assert!(
            balancer["depends_on"][*name].is_hash(),
            "the balancer starts after {name}"
        );
    }
    let nginx = read(&deploy().join("nginx.conf"));
    for name in &nodes {
        assert!(
            nginx.contains(&format!("server {name}:{PORT}")),
            "nginx.conf's upstream lists {name}:{PORT}"
        );
    }
}

#[test]
fn nginx_forwards_websocket_upgrades_and_outwaits_the_idle_timeout() {
    let nginx = read(&deploy().join("nginx.conf"));
    let directives: Vec<&str> = nginx
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    for wanted in [
        "location = /ws {",
        "proxy_http_version 1.1;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
        "location = /healthz {",
    ] {
        assert!(directives.contains(&wanted), "nginx.conf lacks `{wanted}`");
    }
    for timeout in ["proxy_read_timeout", "proxy_send_timeout"] {
        let line = directives
            .iter()
            .find(|l| l.starts_with(timeout))
            .unwrap_or_else(|| panic!("nginx.conf sets {timeout}"));
        let value = line[timeout.len()..].trim().trim_end_matches(';');
        let secs: u64 = value
            .strip_suffix('s')
            .expect("a timeout in seconds (NNs)")
            .parse()
            .expect("a number of seconds");
        assert!(
            secs > idle_timeout_secs(),
            "{timeout} {secs} s must exceed the server's idle timeout ({} s)",
            idle_timeout_secs()
        );
    }
}

/// A Dockerfile as instructions: comments dropped, continuation lines joined.
fn instructions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if current.is_empty() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            continue;
        }
        if let Some(head) = trimmed.strip_suffix('\\') {
            current.push_str(head);
            current.push(' ');
        } else {
            current.push_str(trimmed);
            out.push(std::mem::take(&mut current));
        }
    }
    out
}

#[test]
fn dockerfile_builds_and_copies_the_server_binary() {
    let bin = bin_name();
    assert_eq!(bin, "tengen-server");
    let steps = instructions(&read(&deploy().join("Dockerfile")));
    // Stages: FROM image AS name.
    let stages: Vec<(usize, Vec<&str>)> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.to_ascii_uppercase().starts_with("FROM "))
        .map(|(i, s)| (i, s.split_whitespace().collect()))
        .collect();
    assert!(stages.len() >= 2, "a multi-stage build: {stages:?}");
    let stage_name = |words: &[&str]| -> Option<String> {
        (words.len() == 4 && words[2].eq_ignore_ascii_case("as")).then(|| words[3].to_string())
    };
    let (runtime_start, _) = stages.last().expect("a runtime stage");
    let runtime = &steps[*runtime_start..];

    // The build stage: the one that runs the release build of the server.
    let build_command = format!("cargo build --release -p {bin} --locked");
    let build_stage = stages
        .iter()
        .enumerate()
        .find(|(n, (start, _))| {
            let end = stages.get(n + 1).map_or(steps.len(), |(s, _)| *s);
            steps[*start..end]
                .iter()
                .any(|s| s.starts_with("RUN") && s.contains(&build_command))
        })
        .map(|(n, _)| n)
        .unwrap_or_else(|| panic!("no stage runs `{build_command}`"));
    assert!(
        build_stage < stages.len() - 1,
        "the build is not the runtime stage"
    );
    let (build_start, build_words) = &stages[build_stage];
    let build_name = stage_name(build_words).expect("the build stage is named (AS build)");
    assert!(
        build_words[1].contains("rust"),
        "the build stage starts from a Rust toolchain image: {build_words:?}"
    );
    // Every workspace member is copied in: cargo reads the whole workspace.
    let build_steps = &steps[*build_start..*runtime_start];
    for member in workspace_members() {
        assert!(
            build_steps
                .iter()
                .any(|s| s == &format!("COPY {member} {member}")),
            "the build stage does not COPY workspace member {member}/"
        );
    }
    assert!(
        build_steps
            .iter()
            .any(|s| s.starts_with("COPY Cargo.toml Cargo.lock")),
        "the build stage copies Cargo.toml and Cargo.lock (--locked)"
    );

    // The runtime stage copies exactly the server binary from the build stage.
    let copies: Vec<&String> = runtime.iter().filter(|s| s.starts_with("COPY")).collect();
    assert_eq!(
        copies.len(),
        1,
        "the runtime stage copies one file: {copies:?}"
    );
    let words: Vec<&str> = copies[0].split_whitespace().collect();
    assert_eq!(words[1], format!("--from={build_name}"), "{}", copies[0]);
    assert!(
        words[2].ends_with(&format!("/target/release/{bin}")),
        "copies target/release/{bin}: {}",
        copies[0]
    );
    assert!(
        words[3].ends_with(&format!("/{bin}")),
        "installs it as {bin}: {}",
        copies[0]
    );
    let installed = words[3];

    let has = |prefix: &str| runtime.iter().any(|s| s.starts_with(prefix));
    assert!(has(&format!("EXPOSE {PORT}")), "EXPOSE {PORT}");
    assert!(has("STOPSIGNAL SIGTERM"), "STOPSIGNAL SIGTERM");
    assert!(has("VOLUME"), "the data directory is a volume");
    let healthcheck = runtime
        .iter()
        .find(|s| s.starts_with("HEALTHCHECK"))
        .expect("a HEALTHCHECK");
    assert!(healthcheck.contains("/healthz") && healthcheck.contains(&PORT.to_string()));
    let user = runtime
        .iter()
        .find(|s| s.starts_with("USER "))
        .expect("a USER");
    let user = user["USER ".len()..].split(':').next().unwrap().trim();
    assert!(user != "root" && user != "0", "runs as root: {user}");
    let entrypoint = runtime
        .iter()
        .find(|s| s.starts_with("ENTRYPOINT"))
        .expect("an ENTRYPOINT");
    assert!(
        entrypoint.contains(&format!("\"{installed}\""))
            && entrypoint.contains(&format!("\"--listen\", \"0.0.0.0:{PORT}\"")),
        "ENTRYPOINT runs {installed} --listen 0.0.0.0:{PORT}: {entrypoint}"
    );
}

#[cfg(unix)]
#[test]
fn local_cluster_is_an_executable_posix_script() {
    use std::os::unix::fs::PermissionsExt;
    let script = deploy().join("local-cluster");
    let mode = fs::metadata(&script)
        .expect("deploy/local-cluster exists")
        .permissions()
        .mode();
    assert!(
        mode & 0o111 != 0,
        "deploy/local-cluster is not executable ({mode:o})"
    );
    let text = read(&script);
    assert_eq!(text.lines().next(), Some("#!/bin/sh"), "a POSIX sh script");
    let parsed = Command::new("sh")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("running sh -n");
    assert!(
        parsed.status.success(),
        "sh -n deploy/local-cluster: {}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    // It starts each node on the Redis with a node id of its own.
    assert!(text.contains("--redis \"$redis_url\" --node-id \"node-$i\""));
    assert!(text.contains("trap cleanup EXIT"));
}

#[test]
fn systemd_unit_starts_the_server_and_stops_it_with_sigterm() {
    let unit = read(&deploy().join("systemd/tengen-server.service"));
    let mut section = String::new();
    let mut service: Vec<(String, String)> = Vec::new();
    for line in unit.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.starts_with('[') {
            section = line.to_string();
        } else if section == "[Service]" {
            let (k, v) = line.split_once('=').expect("key=value");
            service.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let get = |key: &str| -> Vec<&str> {
        service
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    };
    let exec = get("ExecStart");
    assert_eq!(exec.len(), 1, "one ExecStart");
    let program = exec[0].split_whitespace().next().unwrap();
    assert!(program.starts_with('/'), "ExecStart needs an absolute path");
    assert_eq!(
        Path::new(program).file_name().and_then(|n| n.to_str()),
        Some(bin_name().as_str()),
        "ExecStart runs the server binary"
    );
    assert_eq!(get("KillSignal"), ["SIGTERM"]);
    assert_eq!(get("Restart"), ["on-failure"]);
    let stop: u64 = get("TimeoutStopSec")[0]
        .trim_end_matches('s')
        .parse()
        .expect("TimeoutStopSec in seconds");
    assert!(
        stop >= 10,
        "the server may take 5 s to stop: TimeoutStopSec {stop}"
    );
    assert_eq!(get("StateDirectory"), ["tengen"]);
    assert!(!get("LimitNOFILE").is_empty(), "LimitNOFILE");
    assert_eq!(get("ProtectSystem"), ["strict"]);
    assert!(
        get("DynamicUser") == ["yes"] || !get("User").is_empty(),
        "not root: DynamicUser or User"
    );
    // The data directory is the state directory.
    assert!(
        get("Environment").contains(&"TENGEN_DATA_DIR=%S/tengen"),
        "TENGEN_DATA_DIR is the StateDirectory"
    );
}

#[test]
fn configuration_reference_names_every_flag_and_variable() {
    let help = server_help();
    let readme = read(&deploy().join("README.md"));
    let mut names = BTreeSet::new();
    for word in help.split(|c: char| c.is_whitespace() || c == '[' || c == ']' || c == ',') {
        if let Some(flag) = word.strip_prefix("--")
            && !flag.is_empty()
            && flag != "help"
            && flag != "version"
        {
            names.insert(format!("--{flag}"));
        }
        if word.starts_with("TENGEN_") {
            names.insert(word.split('=').next().unwrap().to_string());
        }
    }
    assert!(
        names.contains("--listen") && names.contains("TENGEN_LISTEN"),
        "{names:?}"
    );
    for name in &names {
        assert!(
            readme.contains(&format!("`{name}")),
            "deploy/README.md's configuration reference does not name {name}"
        );
    }
    // The Redis store's flag and variable are named too, and the log filter.
    for name in ["--redis", "TENGEN_REDIS", "TENGEN_LOG"] {
        assert!(
            readme.contains(&format!("`{name}")),
            "deploy/README.md names {name}"
        );
    }
    // And every metric family the server defines.
    let metrics = read(&repo().join("server/src/metrics.rs"));
    for line in metrics.lines() {
        if let Some(rest) = line.trim().strip_prefix("pub const ")
            && let Some((_, value)) = rest.split_once("= \"")
        {
            let family = value.trim_end_matches("\";");
            assert!(
                readme.contains(&format!("`{family}")),
                "deploy/README.md does not describe the metric {family}"
            );
        }
    }
}
