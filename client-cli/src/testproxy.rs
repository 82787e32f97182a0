//! A loopback TCP proxy that tests can cut, like a lost network: every
//! connection through it vanishes at once (no close frame), and new ones
//! fail until it is restored. It can also be pointed at another address,
//! so clients keep one URL while the server behind it restarts on a new
//! port.
//!
//! It runs on a thread of its own (its own runtime), with a plain API, so
//! both the board's in-process tests (`src/play/app_tests.rs`) and the
//! end-to-end tests of the `tengen` binary (`tests/`, which include this
//! file) use it.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

#[derive(Clone)]
pub struct Proxy {
    pub addr: SocketAddr,
    target: Arc<Mutex<SocketAddr>>,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
    down: Arc<AtomicBool>,
}

impl Proxy {
    /// A proxy to `target` on a free loopback port.
    pub fn start(target: SocketAddr) -> Proxy {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        std_listener.set_nonblocking(true).unwrap();
        let proxy = Proxy {
            addr: std_listener.local_addr().unwrap(),
            target: Arc::new(Mutex::new(target)),
            links: Arc::default(),
            down: Arc::default(),
        };
        let p = proxy.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = TcpListener::from_std(std_listener).unwrap();
                while let Ok((mut client, _)) = listener.accept().await {
                    if p.down.load(Ordering::SeqCst) {
                        continue; // dropped: the connection attempt fails
                    }
                    let target = *p.target.lock().unwrap();
                    let link = tokio::spawn(async move {
                        if let Ok(mut server) = TcpStream::connect(target).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                        }
                    });
                    let mut links = p.links.lock().unwrap();
                    links.retain(|l| !l.is_finished());
                    links.push(link);
                }
            });
        });
        proxy
    }

    /// The WebSocket URL through the proxy.
    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Every connection through the proxy vanishes; new ones fail until
    /// [`Proxy::restore`].
    pub fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    pub fn restore(&self) {
        self.down.store(false, Ordering::SeqCst);
    }

    /// New connections go to `target` from now on.
    pub fn retarget(&self, target: SocketAddr) {
        *self.target.lock().unwrap() = target;
    }
}
