//! Embeds the web client (`web/static/`) in the binary: every file as it
//! is and gzip-compressed at build time, with a strong ETag of its content.
//! The whole set gets one version (a hash of every file) that becomes part
//! of the asset URLs (`/assets/<version>/...`), so they can be cached for a
//! year; `index.html` is rewritten here to point at that versioned prefix.
//! See ARCHITECTURE.md, "The web client".

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../web/static");
    println!("cargo:rerun-if-changed={}", root.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    files.sort();
    // One version for the whole set: FNV-1a over every path and content.
    let mut all = Fnv::new();
    let contents: Vec<Vec<u8>> = files
        .iter()
        .map(|rel| {
            let bytes = std::fs::read(root.join(rel)).expect("web asset readable");
            all.write(rel.as_bytes());
            all.write(&bytes);
            bytes
        })
        .collect();
    let version = format!("{:012x}", all.finish() & 0xffff_ffff_ffff);
    let mut code = String::new();
    writeln!(code, "pub const VERSION: &str = {version:?};").unwrap();
    writeln!(code, "pub static ASSETS: &[Asset] = &[").unwrap();
    for (i, (rel, bytes)) in files.iter().zip(contents).enumerate() {
        let bytes = if rel == "index.html" {
            String::from_utf8(bytes)
                .expect("index.html is UTF-8")
                .replace("/assets/", &format!("/assets/{version}/"))
                .into_bytes()
        } else {
            bytes
        };
        let mut h = Fnv::new();
        h.write(&bytes);
        let etag = format!("\"{:016x}\"", h.finish());
        let raw = out.join(format!("asset{i}"));
        let gz = out.join(format!("asset{i}.gz"));
        std::fs::write(&raw, &bytes).expect("OUT_DIR writable");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(&bytes).expect("gzip in memory");
        std::fs::write(&gz, enc.finish().expect("gzip in memory")).expect("OUT_DIR writable");
        writeln!(
            code,
            "    Asset {{ path: {rel:?}, mime: {:?}, etag: {etag:?}, raw: include_bytes!({:?}), gzip: include_bytes!({:?}) }},",
            mime(rel),
            raw.display().to_string(),
            gz.display().to_string(),
        )
        .unwrap();
    }
    writeln!(code, "];").unwrap();
    std::fs::write(out.join("web_assets.rs"), code).expect("OUT_DIR writable");
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).expect("under root");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" | "webmanifest" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
