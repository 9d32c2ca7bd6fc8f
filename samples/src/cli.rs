//! The headless binaries' shared command line and run loop (plain `std::env::args`):
//! `--ticks N --seed S --dt D [--tree FILE] [--load FILE] [--save FILE] [--trace] [--quiet]`
//! plus a sample's own flags (the counting sample's `--target T`).
//!
//! `--save FILE` writes a save game after the last tick, `--load FILE` starts from one
//! (save_game.rs): running N ticks with `--save`, then M with `--load`, prints the trace
//! and log of N+M ticks from tick N+1 on (tick numbers aside).
//!
//! As ripgrep's thin `main`: [`main`] parses, runs, and maps the outcome to an exit code:
//! 0 on success, 1 when the tree or the save game does not load (or the save game cannot
//! be written), 2 on bad usage.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use arbor_runtime::{Recorded, Recorder, Status};

use crate::save_game;
use crate::simulation::Simulation;

/// What a binary accepts besides the common flags.
pub struct Spec {
    pub program: &'static str,
    pub about: &'static str,
    pub default_ticks: u64,
    pub default_dt: f64,
    /// Extra flags that take a value: `(flag, value name, help)`.
    pub extra: &'static [(&'static str, &'static str, &'static str)],
}

/// Parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub ticks: u64,
    pub seed: u64,
    pub dt: f64,
    pub tree: Option<PathBuf>,
    pub trace: bool,
    pub quiet: bool,
    /// Run the sample's tree as generated code (`Simulation::load_generated`).
    pub generated: bool,
    /// Start from this save game.
    pub load: Option<PathBuf>,
    /// Write a save game here after the last tick.
    pub save: Option<PathBuf>,
    /// Values of the spec's extra flags, as given.
    pub extra: Vec<(String, String)>,
}

impl Options {
    /// An extra flag's value, if given.
    pub fn value(&self, flag: &str) -> Option<&str> {
        self.extra
            .iter()
            .rev()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, PartialEq)]
pub enum Parsed {
    Run(Options),
    Help,
}

pub fn usage(spec: &Spec) -> String {
    let mut text = format!(
        "{}\n\nUsage: {} [OPTIONS]\n\nOptions:\n  --ticks N     ticks to run (default {})\n  \
         --seed S      random seed (default 1)\n  --dt D        seconds per tick (default {})\n  \
         --tree FILE   run this tree file instead of the sample's own\n  \
         --load FILE   start from this save game\n  \
         --save FILE   write a save game after the last tick\n  \
         --trace       print every node's enter/exit for each tick\n  \
         --quiet       print only the summary\n  \
         --generated   run the tree compiled to Rust by build.rs (the card duel)\n",
        spec.about, spec.program, spec.default_ticks, spec.default_dt
    );
    for (flag, value, help) in spec.extra {
        text.push_str(&format!("  {:<13} {help}\n", format!("{flag} {value}")));
    }
    text.push_str("  -h, --help    print this help\n");
    text
}

/// Parses the arguments after the program name.
pub fn parse(spec: &Spec, args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut options = Options {
        ticks: spec.default_ticks,
        seed: 1,
        dt: spec.default_dt,
        tree: None,
        trace: false,
        quiet: false,
        generated: false,
        load: None,
        save: None,
        extra: Vec::new(),
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("`{flag}` needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--trace" => options.trace = true,
            "--quiet" => options.quiet = true,
            "--generated" => options.generated = true,
            "--ticks" => options.ticks = number(&flag, &value()?)?,
            "--seed" => options.seed = number(&flag, &value()?)?,
            "--dt" => {
                let v = value()?;
                options.dt = match v.parse::<f64>() {
                    Ok(dt) if dt.is_finite() && dt > 0.0 => dt,
                    _ => return Err(format!("`--dt` expects a positive number, found `{v}`")),
                };
            }
            "--tree" => options.tree = Some(PathBuf::from(value()?)),
            "--load" => options.load = Some(PathBuf::from(value()?)),
            "--save" => options.save = Some(PathBuf::from(value()?)),
            f if spec.extra.iter().any(|(e, _, _)| *e == f) => {
                let v = value()?;
                options.extra.push((flag.clone(), v));
            }
            _ => return Err(format!("unknown option `{arg}`")),
        }
    }
    Ok(Parsed::Run(options))
}

fn number(flag: &str, text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("`{flag}` expects a whole number, found `{text}`"))
}

/// Counts of the root's statuses over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub ticks: u64,
    pub success: u64,
    pub failure: u64,
    pub running: u64,
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum RunError {
    /// The tree did not load: every problem, formatted.
    Load(String),
    /// The save game could not be loaded or written.
    SaveGame(crate::save_game::SaveGameError),
    /// Writing the output failed (a closed pipe ends the run quietly).
    Io(std::io::Error),
}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Io(e)
    }
}

/// Loads the tree, runs up to `options.ticks` ticks (stopping early when the simulation
/// is finished or no longer ticks), writing the log to `out` as it grows.
pub fn run(
    sim: &mut dyn Simulation,
    options: &Options,
    out: &mut dyn Write,
) -> Result<Tally, RunError> {
    let loaded = match (&options.tree, options.generated) {
        (Some(_), true) => {
            return Err(RunError::Load(
                "`--generated` runs the sample's own tree, not `--tree`".to_owned(),
            ))
        }
        (Some(path), false) => sim.load_file(path),
        (None, false) => sim.load_default(),
        (None, true) => match sim.load_generated() {
            Some(loaded) => loaded,
            None => {
                return Err(RunError::Load(format!(
                    "the {} sample has no generated code",
                    sim.name()
                )))
            }
        },
    };
    let outcome = loaded.map_err(|e| RunError::Load(e.to_string()))?;
    for warning in &outcome.warnings {
        writeln!(out, "{warning}")?;
    }
    if let Some(path) = &options.load {
        let save = save_game::read(path).map_err(RunError::SaveGame)?;
        sim.load_game(&save).map_err(RunError::SaveGame)?;
    }
    if !options.quiet {
        writeln!(
            out,
            "{}: seed {}, dt {} s, up to {} ticks",
            sim.title(),
            options.seed,
            options.dt,
            options.ticks
        )?;
    }
    let mut seen = sim.log().total();
    let mut recorder = Recorder::default();
    let mut tally = Tally::default();
    for _ in 0..options.ticks {
        recorder.clear();
        let Some(status) = sim.tick(options.dt, &mut recorder) else {
            break;
        };
        tally.ticks += 1;
        match status {
            Status::Success => tally.success += 1,
            Status::Failure => tally.failure += 1,
            Status::Running => tally.running += 1,
        }
        if !options.quiet {
            if options.trace {
                write_trace(out, sim, tally.ticks, status, &recorder)?;
            }
            for line in sim.log().since(seen) {
                writeln!(out, "[{:>9.2}s] {}", line.time, line.text)?;
            }
        }
        seen = sim.log().total();
        if sim.finished() {
            break;
        }
    }
    writeln!(
        out,
        "after {} ticks ({:.2} s): root success {}, failure {}, running {}",
        tally.ticks,
        sim.now(),
        tally.success,
        tally.failure,
        tally.running
    )?;
    writeln!(out, "{}", sim.summary())?;
    out.flush()?;
    if let Some(path) = &options.save {
        let save = sim.save_game().map_err(RunError::SaveGame)?;
        save_game::write(&save, path).map_err(RunError::SaveGame)?;
    }
    Ok(tally)
}

fn write_trace(
    out: &mut dyn Write,
    sim: &dyn Simulation,
    tick: u64,
    status: Status,
    recorder: &Recorder,
) -> std::io::Result<()> {
    let Some(tree) = sim.tree() else {
        return Ok(());
    };
    let name = |n: arbor_runtime::NodeId| tree.info(n).name.as_str();
    writeln!(out, "tick {tick}: root {status}")?;
    for event in &recorder.events {
        match event {
            Recorded::Enter(n) => writeln!(out, "    enter {}", name(*n))?,
            Recorded::Exit(n, Some(s)) => writeln!(out, "    exit  {} {s}", name(*n))?,
            Recorded::Exit(n, None) => writeln!(out, "    exit  {} (aborted)", name(*n))?,
            Recorded::Abort(n) => writeln!(out, "    abort {}", name(*n))?,
            Recorded::Log(n, m) => writeln!(out, "    log   {}: {m}", name(*n))?,
            Recorded::Tick(..) | Recorded::Check { .. } => {}
        }
    }
    Ok(())
}

/// A binary's whole `main`: parse `std::env::args`, build the simulation with `make`
/// (which may reject sample-specific flag values), run, map to an exit code.
pub fn main(
    spec: &Spec,
    make: impl FnOnce(&Options) -> Result<Box<dyn Simulation>, String>,
) -> ExitCode {
    let options = match parse(spec, std::env::args().skip(1)) {
        Ok(Parsed::Run(options)) => options,
        Ok(Parsed::Help) => {
            print!("{}", usage(spec));
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("{}: {message}\n\n{}", spec.program, usage(spec));
            return ExitCode::from(2);
        }
    };
    let mut sim = match make(&options) {
        Ok(sim) => sim,
        Err(message) => {
            eprintln!("{}: {message}\n\n{}", spec.program, usage(spec));
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match run(sim.as_mut(), &options, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        // `villager | head`: the reader has seen enough.
        Err(RunError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(RunError::Io(e)) => {
            eprintln!("{}: cannot write the output: {e}", spec.program);
            ExitCode::from(1)
        }
        Err(RunError::Load(message)) => {
            eprintln!("{}: {message}", spec.program);
            ExitCode::from(1)
        }
        Err(RunError::SaveGame(e)) => {
            eprintln!("{}: {e}", spec.program);
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        program: "demo",
        about: "A demo.",
        default_ticks: 10,
        default_dt: 0.5,
        extra: &[("--target", "T", "the target")],
    };

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn parses_common_and_extra_flags() {
        let Ok(Parsed::Run(o)) = parse(
            &SPEC,
            args(&[
                "--ticks", "5", "--seed=9", "--dt", "0.1", "--target", "30", "--quiet",
            ]),
        ) else {
            panic!("should parse");
        };
        assert_eq!((o.ticks, o.seed, o.dt, o.quiet), (5, 9, 0.1, true));
        assert_eq!(o.value("--target"), Some("30"));
        let Ok(Parsed::Run(d)) = parse(&SPEC, args(&[])) else {
            panic!("defaults");
        };
        assert_eq!((d.ticks, d.seed, d.dt), (10, 1, 0.5));
    }

    #[test]
    fn bad_usage_says_what_is_wrong() {
        let err = |list: &[&str]| parse(&SPEC, args(list)).unwrap_err();
        assert_eq!(
            err(&["--ticks", "many"]),
            "`--ticks` expects a whole number, found `many`"
        );
        assert_eq!(
            err(&["--dt", "-1"]),
            "`--dt` expects a positive number, found `-1`"
        );
        assert_eq!(err(&["--seed"]), "`--seed` needs a value");
        assert_eq!(err(&["--fast"]), "unknown option `--fast`");
        assert_eq!(parse(&SPEC, args(&["-h"])), Ok(Parsed::Help));
        assert!(usage(&SPEC).contains("--target T"));
    }
}
