//! Fuzz checks for Tengen, one module per target.
//!
//! Why this exists: the server feeds untrusted bytes to the wire decoder,
//! untrusted action sequences (at any time, from any seat) to the game
//! state machine, and untrusted text to record import; `tengen analyze`
//! reads whatever a co-process writes. None of these may panic, and each
//! has invariants a random input can break (a refused action changes
//! nothing, a decoded message re-encodes to itself). Each module's
//! `check(data)` takes raw fuzzer bytes and panics on a broken invariant;
//! libFuzzer drives it through `fuzz_targets/` (scripts/fuzz), and
//! tests/replay.rs runs it on the committed corpus plus random inputs on
//! stable Rust, in CI.

pub mod analyze;
pub mod game;
pub mod protocol;
pub mod records;

/// `tengen analyze`'s parser lives in the `tengen` binary, which has no
/// library target; the fuzzer compiles its source here unchanged (it needs
/// only `tengen-rules`, clap and anyhow). `crate::wins` is the path it uses.
#[allow(dead_code)]
#[path = "../../client-cli/src/wins.rs"]
mod wins;

#[allow(dead_code)]
#[path = "../../client-cli/src/analyze.rs"]
mod cli_analyze;

/// Fuzzer bytes read as a stream of small choices; an exhausted stream
/// reads as zeros, so every input is a valid (if short) program.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    pub fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// One of `items`, by the next byte.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.byte() as usize % items.len()]
    }
}
