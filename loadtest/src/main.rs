//! `tengen-loadtest SCENARIO --url ws://HOST:PORT/ws [--url ...] [options] [--json]`
//!
//! Parses the command line and hands over to [`tengen_loadtest::parent`] (a
//! run), to a load process's share of a run (the hidden `--child-index`), or
//! to the bare relay (the hidden `relay` scenario).

use clap::Parser;
use tengen_loadtest::args::Args;
use tengen_loadtest::parent;
use tengen_loadtest::run::Scenario;

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.scenario == Scenario::Relay {
        let listen = args
            .listen
            .unwrap_or_else(|| "127.0.0.1:0".parse().expect("an address"));
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        return rt.block_on(tengen_loadtest::relay::serve(
            listen,
            args.journal_dir.as_deref(),
        ));
    }
    if args.scenario == Scenario::Burn {
        parent::burn(args.duration());
        return Ok(());
    }
    if args.child_index.is_some() {
        return parent::child(&args);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = rt.block_on(parent::run(&args))?;
    print!("{}", report.human());
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    }
    let errors = report.error_total
        + [&report.baseline, &report.durable_baseline]
            .into_iter()
            .flatten()
            .map(|b| b.error_total)
            .sum::<u64>();
    if errors > 0 {
        eprintln!("tengen-loadtest: {errors} errors");
        std::process::exit(1);
    }
    if let Some(m) = report.soak.as_ref().filter(|m| !m.flat) {
        eprintln!(
            "tengen-loadtest: the server's memory is not flat: {:+.2} % after the warm-up (bound {} %)",
            m.growth_pct, m.bound_pct
        );
        std::process::exit(1);
    }
    Ok(())
}
