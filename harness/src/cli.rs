//! The argument groups and value parsers several commands share (clap derive), flattened into
//! each command's own arguments, which sit beside the command in `commands/`.

use std::path::PathBuf;

use clap::Args;

/// How a run is carried out, shared by `grid`, `match` and `tune`: none of it changes a result.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Worker threads (games played at once in a match or tune). Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory. Default `results/<timestamp>-<name>/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue the run in DIR where it stopped, losing and repeating nothing. Without plan
    /// arguments, the plan is the one recorded in DIR/manifest.json; with any, they must describe
    /// that same plan (else it is refused, naming what differs). Run options (these, the UCI
    /// bounds, and a tune's --verify) are always this command's.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    pub resume: Option<PathBuf>,
    /// Print the plan and exit without searching or playing.
    #[arg(long)]
    pub dry_run: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl RunArgs {
    /// The run options of resuming `dir`: this command's, its threads falling back to the
    /// recorded run's.
    pub fn resuming(&self, dir: PathBuf, recorded: &RunArgs) -> RunArgs {
        RunArgs {
            resume: Some(dir),
            out: None,
            threads: self.threads.or(recorded.threads),
            ..self.clone()
        }
    }
}

/// Who plays or searches, shared by `grid` and `match`: a base preset, a grid file, axes, engines
/// and named players.
#[derive(Debug, Clone, PartialEq, Args)]
pub struct PlayersArgs {
    /// Base preset of the builtin engine (each with what it adds: `--help`); overrides the
    /// grid file's.
    #[arg(long, value_parser = crate::cli::preset_parser())]
    pub preset: Option<String>,
    /// Grid file (TOML: name, preset, engines, suites, limits and the tables set, axes and
    /// players); its configurations are the grid's rows or the match's players.
    #[arg(long, value_name = "FILE.toml")]
    pub grid: Option<PathBuf>,
    /// An axis: `KEY=V1,V2,...` with a dotted SearchConfig key (repeatable). `off`/`on` switch an
    /// optional heuristic; `--set preset=fischerle,plain` makes the preset an axis.
    #[arg(long = "set", value_name = "KEY=V1,V2,...")]
    pub sets: Vec<String>,
    /// An engine (repeatable): `builtin` (the project's search, in-process, set by SearchConfig
    /// axes) or `uci:PATH` (an external UCI engine, set by `uci.NAME` axes such as
    /// `--set uci.Hash=16,64`). Default: the grid file's, else `builtin`.
    #[arg(long = "engine", value_name = "builtin|uci:PATH")]
    pub engines: Vec<String>,
    /// A named player `NAME:KEY=V,KEY=V…` (repeatable; `preset=`, `engine=uci:PATH` choose its
    /// base), after the grid file's `[[players]]`: with named players, they are the rows.
    #[arg(long = "player", value_name = "NAME:KEY=V,...")]
    pub players: Vec<String>,
}

/// How games end (`match` and `tune`): a ply limit and adjudication.
#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    /// Plies after which a game is drawn.
    #[arg(long, value_name = "PLIES")]
    pub max_plies: Option<usize>,
    /// Resign adjudication: a player whose score is at most −CP …
    #[arg(long, value_name = "CP", requires = "resign_moves")]
    pub resign_score: Option<i32>,
    /// … for this many of its moves in a row loses.
    #[arg(long, value_name = "N", requires = "resign_score")]
    pub resign_moves: Option<usize>,
    /// Draw adjudication: when both scores stay within ±CP …
    #[arg(long, value_name = "CP", requires = "draw_moves")]
    pub draw_score: Option<i32>,
    /// … for this many moves each …
    #[arg(long, value_name = "N", requires = "draw_score")]
    pub draw_moves: Option<usize>,
    /// … from this move number on, the game is drawn.
    #[arg(long, value_name = "MOVE", default_value_t = 0)]
    pub draw_after: u32,
    /// A move may overrun its clock by up to MS without losing (fastchess's `timemargin`): the
    /// overrun is forgiven, counted in games.csv and the report, and the clock set to 0.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub time_margin: u64,
    /// End a game that reaches KQK, KRK or KPK with the value of the project's retrograde tables
    /// (`harness kpk table`): termination `adjudication: tablebase`.
    #[arg(long)]
    pub tb_adjudicate: bool,
}

impl RulesArgs {
    /// The rules these arguments give.
    pub fn rules(&self) -> anyhow::Result<play::arena::rules::Rules> {
        if self.max_plies == Some(0) {
            anyhow::bail!("--max-plies must be at least 1");
        }
        Ok(play::arena::rules::Rules {
            max_plies: self.max_plies,
            resign: self
                .resign_score
                .zip(self.resign_moves)
                .map(|(score, moves)| play::arena::rules::ResignRule { score, moves }),
            draw: self.draw_score.zip(self.draw_moves).map(|(score, moves)| {
                play::arena::rules::DrawRule {
                    score,
                    moves,
                    after: self.draw_after,
                }
            }),
            time_margin_ms: self.time_margin,
            tb_adjudicate: self.tb_adjudicate,
        })
    }
}

/// A match's opening book and how it is read (`harness match`).
#[derive(Debug, Clone, Args)]
pub struct BookArgs {
    /// Opening book, EPD or PGN (the position after each game). Default: the project's book.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The book's order: `sequential` (file order) or `random` (a fixed shuffle of the book,
    /// seeded by its SHA-256; `--seed` still picks disjoint stretches of it).
    #[arg(long, value_enum, default_value = "sequential")]
    pub order: play::arena::openings::Order,
    /// PGN books: start from the position after this many plies of each game (default: after
    /// all its moves).
    #[arg(long, value_name = "N")]
    pub plies: Option<usize>,
    /// `standard` or `chess960` (also DFRC): a Chess960 match reads an EPD book of Shredder-FEN
    /// or X-FEN positions, tells UCI players `UCI_Chess960` (refusing one that does not declare
    /// it) and writes PGN with `[Variant "Chess960"]`.
    #[arg(long, default_value = "standard", value_name = "VARIANT")]
    pub variant: engine::Variant,
}

impl BookArgs {
    /// The book, with a warning for games shorter than `--plies`.
    pub fn open(&self) -> anyhow::Result<play::arena::openings::Book> {
        let options = play::arena::openings::BookOptions {
            order: self.order,
            plies: self.plies,
            variant: self.variant,
        };
        play::arena::openings::Book::open(self.openings.as_deref(), options)
    }
}

/// A match's sequential test per pairing: `--sprt ELO0,ELO1` with its rates, or one of
/// fishtest's presets (`harness match`).
#[derive(Debug, Clone, Args)]
pub struct MatchSprtArgs {
    /// Sequential test `ELO0,ELO1` per pairing: it stops when the LLR leaves Wald's bounds.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// fishtest's test: `stc` ([0, 2] nElo at 10 + 0.1), `ltc` ([0.5, 2.5] at 60 + 0.6) or
    /// `nonreg` ([−1.75, 0.25] at 10 + 0.1), α = β = 0.05; its clock unless --limit is given.
    /// Recipe: run the LTC only after the STC passed.
    #[arg(long, value_enum, conflicts_with_all = ["sprt", "alpha", "beta", "model"])]
    pub sprt_preset: Option<lab::elo::sprt_setup::SprtPreset>,
    /// The SPRT's error rates and model.
    #[command(flatten)]
    pub sprt_options: SprtOptions,
}

impl MatchSprtArgs {
    /// Whether a test may stop a pairing before its last pair.
    pub fn stops_early(&self) -> bool {
        self.sprt.is_some() || self.sprt_preset.is_some()
    }

    /// The test, checked.
    pub fn sprt(&self) -> anyhow::Result<Option<lab::elo::sprt::Sprt>> {
        if let Some(preset) = self.sprt_preset {
            return Ok(Some(preset.sprt()));
        }
        let rates = self.sprt_options.rates();
        let parse = |text: &String| lab::elo::sprt_setup::parse("--sprt", text, rates);
        self.sprt.as_ref().map(parse).transpose()
    }
}

/// The error rates and Elo scale of an SPRT (shared by `harness sprt` and `harness match`).
#[derive(Debug, Clone, Copy, Args)]
pub struct SprtOptions {
    /// Probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Scale of the hypotheses: `normalized` (t-values, fishtest's default) or `logistic`.
    #[arg(long, value_enum, default_value = "normalized")]
    pub model: lab::elo::sprt::EloModel,
}

impl SprtOptions {
    /// The rates as the domain's.
    pub fn rates(self) -> lab::elo::sprt_setup::SprtRates {
        lab::elo::sprt_setup::SprtRates {
            alpha: self.alpha,
            beta: self.beta,
            model: self.model,
        }
    }
}

/// A search depth: a whole number of 1 or more (a negative one said as such, not taken for an
/// option).
pub fn depth(text: &str) -> Result<i32, String> {
    match text.trim().parse::<i32>() {
        Ok(d) if d >= 1 => Ok(d),
        Ok(d) => Err(format!("a depth must be 1 or more, found {d}")),
        Err(_) => Err(format!(
            "expected a depth (a whole number of 1 or more), found `{text}`"
        )),
    }
}

/// Comma-separated result counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts(pub Vec<u64>);

/// Parses exactly `N` comma-separated counts.
pub fn counts<const N: usize>(text: &str) -> Result<Counts, String> {
    let values: Vec<u64> = text
        .split(',')
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| format!("expected a count (a whole number ≥ 0), found `{v}`"))
        })
        .collect::<Result<_, _>>()?;
    if values.len() != N {
        return Err(format!(
            "expected {N} comma-separated counts, found {} in `{text}`",
            values.len()
        ));
    }
    Ok(Counts(values))
}

/// `KEY=VALUE` arguments as pairs (one value each; `--set` of a grid or match takes lists).
pub fn key_values(sets: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    sets.iter()
        .map(|set| match set.split_once('=') {
            Some((k, v)) => Ok((k.trim().to_string(), v.trim().to_string())),
            None => anyhow::bail!("--set {set}: expected KEY=VALUE (`eval.mobility=on`)"),
        })
        .collect()
}

/// `--option NAME=VALUE` arguments (`label`, `datagen`) as `setoption` pairs, in order.
pub fn uci_options(options: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_string(), value.trim().to_string()))
            }
            _ => anyhow::bail!("--option expects NAME=VALUE, found `{o}`"),
        })
        .collect()
}

/// `--preset`'s choices: every preset, each with what it adds (`--help` lists them).
pub fn preset_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(engine::config::PRESETS.iter().map(|name| {
        let summary = engine::config::preset_summary(name).expect("every preset has a summary");
        clap::builder::PossibleValue::new(*name).help(summary)
    }))
}

/// `--shard I/N` or `--shard slurm` (read from the array task's environment).
pub fn parse_shard(text: &str) -> Result<lab::shard::Shard, String> {
    lab::shard::Shard::parse(text).map_err(|e| e.to_string())
}

/// `--uci-handshake`, `--uci-slack` and `--uci-timeout`, flattened into `grid`, `match` and `tune`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct UciBoundsArgs {
    /// UCI engines: milliseconds allowed for `uci`…`uciok` and `isready`…`readyok`.
    #[arg(long = "uci-handshake", value_name = "MS", default_value_t = 10_000)]
    pub handshake_ms: u64,
    /// UCI engines: milliseconds past a movetime or the clock before an engine is told to stop;
    /// one that answers only then, or not within as long again, has hung.
    #[arg(long = "uci-slack", value_name = "MS", default_value_t = 2_000)]
    pub slack_ms: u64,
    /// UCI engines: seconds a depth- or node-limited search may take before it counts as hung.
    /// Default: 600 for a grid's search, 120 for a match's move.
    #[arg(long = "uci-timeout", value_name = "S")]
    pub timeout_s: Option<u64>,
}

impl UciBoundsArgs {
    /// The bounds, with `default_timeout` where `--uci-timeout` was not given.
    pub fn bounds(&self, default_timeout: std::time::Duration) -> lab::uci::bounds::UciBounds {
        lab::uci::bounds::UciBounds {
            handshake: std::time::Duration::from_millis(self.handshake_ms),
            slack: std::time::Duration::from_millis(self.slack_ms),
            timeout: self
                .timeout_s
                .map_or(default_timeout, std::time::Duration::from_secs),
        }
    }
}
