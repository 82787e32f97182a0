//! The examples' command lines, `--flag value` pairs, read one way: each
//! example includes this file (`#[path]`) and matches the flags it knows.
//! A flag without a value, a value that does not parse and an unknown
//! flag stop the example with a panic that names them (these are run by
//! hand).

/// One `--flag value` pair.
pub struct Flag {
    pub name: String,
    pub value: String,
}

/// The command line's flags, in order.
pub fn parse() -> impl Iterator<Item = Flag> {
    let mut it = std::env::args().skip(1);
    std::iter::from_fn(move || {
        let name = it.next()?;
        let value = it.next().unwrap_or_else(|| panic!("{name} needs a value"));
        Some(Flag { name, value })
    })
}

impl Flag {
    /// The value as a number of type `T`.
    pub fn number<T: std::str::FromStr>(&self) -> T {
        self.value
            .parse()
            .unwrap_or_else(|_| panic!("{} {}?", self.name, self.value))
    }

    /// Stops the example: it has no such flag.
    pub fn unknown(&self) -> ! {
        panic!("unknown flag {}", self.name)
    }
}
