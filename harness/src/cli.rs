//! Command-line arguments (clap derive). Raw arguments become a validated plan in `commands`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Measures what chess-search heuristics are worth: EPD suites × configuration grids → CSV.
#[derive(Debug, Parser)]
#[command(name = "harness", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The command recorded in the manifest of run directory `dir`, parsed again: what a bare
/// `--resume DIR` continues.
pub fn recorded(dir: &std::path::Path, command: &[String]) -> anyhow::Result<Command> {
    use anyhow::Context;
    Cli::try_parse_from(command)
        .map(|cli| cli.command)
        .with_context(|| {
            format!(
                "the command recorded in {}/{} no longer parses",
                dir.display(),
                lab::run_dir::MANIFEST
            )
        })
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run suites across a grid of search configurations, in parallel, to CSV.
    Grid(Box<GridArgs>),
    /// Check every position of a perft EPD file (`FEN ;D1 n ;D2 n …`).
    Perft(PerftArgs),
    /// Work with EPD suites.
    #[command(subcommand)]
    Suite(SuiteCommand),
    /// King and pawn against king, checked exhaustively (the 1989 method).
    #[command(subcommand)]
    Kpk(KpkCommand),
    /// Regenerate a run directory's summary.csv, report.md, report.html and figures from its CSVs.
    Report(ReportArgs),
    /// Write DIR/index.md and DIR/index.html: every study (a directory with a README.md) and
    /// every run directory under DIR.
    Index {
        /// The results directory.
        #[arg(default_value = "results")]
        dir: PathBuf,
    },
    /// Join the shards of one grid (`grid --shard I/N`) into one run directory, then report it.
    Merge(MergeArgs),
    /// Paired statistics between two runs of the same grid (e.g. before and after an engine change).
    Compare(CompareArgs),
    /// Fixed positions, fixed depth, one thread, `fischerle` preset: the node-count signature.
    Bench(BenchArgs),
    /// Elo, normalized Elo and the SPRT's LLR of finished results (pentanomial or W/D/L counts).
    Sprt(SprtCalcArgs),
    /// Play games between configurations (and UCI engines): game pairs, Elo, SPRT, PGN.
    Match(Box<MatchArgs>),
    /// Record one search's tree: every node, what acted on it, and where the nodes go.
    Tree(Box<TreeArgs>),
    /// Tune numeric parameters by SPSA (fishtest's schedule) in games, then verify the result.
    Tune(Box<TuneArgs>),
    /// Fit the evaluation's weights to game results (Texel's method): PGN in, tuned.toml out.
    Texel(Box<TexelArgs>),
    /// Score every position of PGN games or EPD files with a UCI engine at a fixed depth or node
    /// count (resumable): labels.csv, and labelled.pgn for `texel --lambda`.
    Label(Box<LabelArgs>),
    /// Print a preset's full configuration as TOML.
    Config {
        /// Preset name.
        #[arg(default_value = "fischerle")]
        preset: String,
    },
}

/// `harness grid`: what to run ([`PlanArgs`]) and how to run it (the rest).
#[derive(Debug, Args)]
pub struct GridArgs {
    /// The plan: which configurations search which positions under which limits.
    #[command(flatten)]
    pub plan: PlanArgs,
    /// Output, resume, threads, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
    /// How long UCI engines may take.
    #[command(flatten)]
    pub uci: lab::uci::bounds::UciBoundsArgs,
    /// With --resume: run again the jobs that failed (an external engine crashed, hung or spoke
    /// garbage); their old rows are removed. Without it, a failed job counts as done.
    #[arg(long, requires = "resume")]
    pub retry_failed: bool,
}

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
    /// Base preset of the builtin engine (`fischerle`, `seeds`, `plain`, `modern`); overrides the
    /// grid file's.
    #[arg(long)]
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

/// The arguments that decide a grid's jobs and their results: a resumed run must have the same.
#[derive(Debug, Clone, PartialEq, Args)]
pub struct PlanArgs {
    /// EPD suite to run (repeatable). Default: the suites of the grid file, or the built-in suite.
    #[arg(long = "suite", value_name = "PATH")]
    pub suites: Vec<PathBuf>,
    /// Presets, grid file, axes, engines, named players.
    #[command(flatten)]
    pub who: PlayersArgs,
    /// Search every position to this depth.
    #[arg(long, group = "limit", value_parser = depth, allow_hyphen_values = true)]
    pub depth: Option<i32>,
    /// Search every position for this many nodes.
    #[arg(long, group = "limit")]
    pub nodes: Option<u64>,
    /// Search every position for this many milliseconds (not reproducible: for time studies).
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<u64>,
    /// Node cap per job: a depth search stopped by it is recorded as `censored`. Default 20000000.
    #[arg(long)]
    pub node_cap: Option<u64>,
    /// Stop a search once a correct move has been best for K iterations (with --min-depth).
    #[arg(long, value_name = "K")]
    pub solved_for: Option<usize>,
    /// The early stop applies only from this depth on.
    #[arg(long, default_value_t = 1, value_parser = depth, allow_hyphen_values = true)]
    pub min_depth: i32,
    /// matetrack's solving rule for positions that state a mate length (`dm N` or `ce +MN`):
    /// solved means a mate in at most N moves, reported with a legal PV that ends in mate. Other
    /// positions keep the bm/am rule.
    #[arg(long)]
    pub mate: bool,
    /// Also measure each position's minimal tree at the depth searched (the project's engine; a
    /// fixed-depth search without --solved-for): the search re-run without the TT, its recorded
    /// best moves first, distinct nodes counted (`minimal_*` columns of runs.csv). Costs about 2 to
    /// 2.5 times the search (`minimal_ms`).
    #[arg(long)]
    pub minimal_tree: bool,
    /// Run only the I-th (from 0) of N deterministic slices of the jobs (`--shard 0/4` … `3/4`), or
    /// `--shard slurm` for the slice of a Slurm array task; `harness merge` joins the shards.
    #[arg(long, value_name = "I/N|slurm", value_parser = parse_shard)]
    pub shard: Option<lab::shard::Shard>,
    /// With --shard: cut the slices by the nodes each job took in an earlier run DIR of these jobs
    /// (longest first to the least loaded), instead of interleaving them.
    #[arg(long, value_name = "DIR", requires = "shard")]
    pub cost_from: Option<PathBuf>,
}

impl PlanArgs {
    /// The plan arguments of a command that gives none (their defaults).
    pub fn none() -> Self {
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            plan: PlanArgs,
        }
        Only::parse_from(["harness"]).plan
    }
}

/// `harness match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The players: each configuration of the grid (the first is the baseline), or the named
    /// players.
    #[command(flatten)]
    pub who: PlayersArgs,
    /// The baseline player (`p00`, …, or a named player's name). Default: the first.
    #[arg(long, value_name = "ID")]
    pub baseline: Option<String>,
    /// Every player against every other, instead of the baseline against each.
    #[arg(long)]
    pub round_robin: bool,
    /// A factorial design over the base player: `KEY` (a switch or boolean) or `KEY=OFF/ON`,
    /// comma-separated, at least two; every point is a named player, in a round robin, and the
    /// report fits main effects and two-factor interactions (`effects.csv`).
    #[arg(long, value_name = "KEY[=OFF/ON],...", value_delimiter = ',')]
    pub factorial: Vec<String>,
    /// With --factorial: play the 2^(k−P) fraction of resolution ≥ V from the standard tables
    /// (k = 5, 6, 7: P = 1; k = 8, 9: 2; k = 10: 3). Default 0, the full design.
    #[arg(long, value_name = "P", default_value_t = 0, requires = "factorial")]
    pub fraction: usize,
    /// A budget ladder `KEY=V1,V2,…` (`nodes=2000,8000,32000`, or depth, movetime, tc): the
    /// match once per limit, each in its own directory, and each effect (or joint rating)
    /// compared across them with its trend per doubling of the budget.
    #[arg(long, value_name = "KEY=V1,V2,...")]
    pub ladder: Option<String>,
    /// Per-move limit, `nodes=N`, `depth=D`, `movetime=MS` or `tc=BASE+INC` (seconds); prefix
    /// `ID:` for one player's own (`--limit p01:nodes=10000`). Default `nodes=5000`.
    #[arg(long = "limit", value_name = "[ID:]LIMIT")]
    pub limits: Vec<String>,
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
    /// Where in the book pair 1 starts: reruns with one seed play the same openings, shards
    /// with different seeds disjoint ones.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Play only the I-th (from 0) of N disjoint ranges of the game pairs, in job order
    /// (`--shard 0/4` … `3/4`, or `slurm`); `harness merge` joins them. Not with --sprt.
    #[arg(long, value_name = "I/N|slurm", value_parser = parse_shard)]
    pub shard: Option<lab::shard::Shard>,
    /// Game pairs per pairing (at most, with --sprt).
    #[arg(long, default_value_t = 100)]
    pub pairs: u64,
    /// How games end: ply limit and adjudication.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Sequential test `ELO0,ELO1` per pairing: it stops when the LLR leaves Wald's bounds.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// Pin worker thread i (and the engines it starts) to the i-th core of CPU-LIST (`0,1` or
    /// `0-3`), as fastchess's -use-affinity; at least as many cores as --threads.
    #[arg(long, value_name = "CPU-LIST")]
    pub affinity: Option<String>,
    /// Scale every clock and movetime by REF_NPS / this machine's `harness bench` NPS (median of
    /// 5, measured when the match starts and recorded; a resume keeps it), as fishtest scales its
    /// workers' clocks, so a time control means the same search on any machine.
    #[arg(long, value_name = "REF_NPS")]
    pub nps_scale: Option<f64>,
    /// fishtest's test: `stc` ([0, 2] nElo at 10 + 0.1), `ltc` ([0.5, 2.5] at 60 + 0.6) or
    /// `nonreg` ([−1.75, 0.25] at 10 + 0.1), α = β = 0.05; its clock unless --limit is given.
    /// Recipe: run the LTC only after the STC passed.
    #[arg(long, value_enum, conflicts_with_all = ["sprt", "alpha", "beta", "model"])]
    pub sprt_preset: Option<lab::elo::sprt_setup::SprtPreset>,
    /// The SPRT's error rates and model.
    #[command(flatten)]
    pub sprt_options: SprtOptions,
    /// Name of the match (PGN Event, output directory).
    #[arg(long, default_value = "match")]
    pub name: String,
    /// How long UCI players may take.
    #[command(flatten)]
    pub uci: lab::uci::bounds::UciBoundsArgs,
    /// Output, resume (after the last complete pair), threads, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `harness texel`.
#[derive(Debug, Args)]
pub struct TexelArgs {
    /// Games to learn from (repeatable): PGN, or PGN gzipped (`.pgn.gz`), from any program (the
    /// harness's own `games.pgn` included). Each move's comment score (`{+0.35/6}`) is the
    /// reference `--lambda` blends toward.
    #[arg(long = "pgn", value_name = "FILE", required = true)]
    pub pgn: Vec<PathBuf>,
    /// Base preset whose evaluation is fitted (its switched-on terms, from its weights).
    #[arg(long, default_value = "modern")]
    pub preset: String,
    /// `KEY=VALUE` changes to the preset, in order (`eval.mobility=on`, `eval.tempo=off`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Positions before this ply of each game are left out (the book and the first moves).
    #[arg(long, default_value_t = 16)]
    pub skip_plies: usize,
    /// Weight of the game's own score in a label: (1 − λ) × result + λ × σ(K × score).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f64,
    /// The sigmoid's scale K, given instead of fitted on the results with the starting weights:
    /// one K for several fits makes their losses against the same labels comparable.
    #[arg(long, value_name = "K")]
    pub k: Option<f64>,
    /// Share of games held out to measure the fit on (whole games, chosen by --seed).
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes of Adam over the training positions.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam's step size, centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Which epoch's weights are written: `best` (lowest validation loss: early stopping) or
    /// `last`.
    #[arg(long, value_enum, default_value = "best")]
    pub keep: play::texel::Keep,
    /// Worker threads. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (new or empty). Default `results/<timestamp>-texel/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the plan and exit without reading the games.
    #[arg(long)]
    pub dry_run: bool,
    /// No line per epoch.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `harness label`.
#[derive(Debug, Args)]
pub struct LabelArgs {
    /// Positions to label (repeatable): PGN games (`.pgn`, `.pgn.gz`: every position where a move
    /// was played) or EPD files (every record).
    #[arg(value_name = "FILE", required_unless_present = "resume")]
    pub inputs: Vec<PathBuf>,
    /// The UCI engine that labels them (Stockfish, Ethereal, the project's `engine`, …).
    #[arg(long, value_name = "PATH", required_unless_present = "resume")]
    pub engine: Option<PathBuf>,
    /// A UCI option `NAME=VALUE` (repeatable; `Threads` is 1 unless given).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Search each position to this depth (deterministic with one thread).
    #[arg(long, conflicts_with = "nodes", required_unless_present_any = ["nodes", "resume"])]
    pub depth: Option<i32>,
    /// Search each position for this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Positions of a game before this ply are left out (PGN inputs).
    #[arg(long, default_value_t = 0)]
    pub skip_plies: usize,
    /// Only the positions `texel` keeps: not in check, no capture or promotion winning material.
    #[arg(long)]
    pub quiet_only: bool,
    /// How long one search may take before the engine counts as hung (the position is skipped,
    /// the engine restarted), seconds.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Engine processes searching side by side, output, resume (the recorded plan), dry run,
    /// quiet.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `harness tune`.
#[derive(Debug, Clone, Args)]
pub struct TuneArgs {
    /// A parameter `KEY=START,MIN,MAX[,C_END[,R_END]]` (repeatable): a numeric SearchConfig key,
    /// or `uci.NAME` (a spin option) with --engine uci:PATH. C_END defaults to (MAX − MIN)/20,
    /// R_END to 0.002 (Stockfish's TUNE).
    #[arg(
        long = "param",
        value_name = "KEY=START,MIN,MAX[,C_END[,R_END]]",
        required_unless_present_any = ["resume", "grid"]
    )]
    pub params: Vec<String>,
    /// SPSA iterations (N).
    #[arg(long, default_value_t = 200)]
    pub iterations: u64,
    /// Game pairs of θ+ against θ− per iteration, played in parallel.
    #[arg(long, default_value_t = 4)]
    pub pairs_per_iteration: u64,
    /// A grid file: its `preset`, `engines`, `[set]` (fixed settings) and `[params]` (`KEY =
    /// [START, MIN, MAX]`; `tuned.toml` is one); the command line adds to it.
    #[arg(long, value_name = "FILE.toml")]
    pub grid: Option<PathBuf>,
    /// Base preset of the builtin engine (`fischerle`, `seeds`, `plain`, `modern`). Default: the
    /// grid file's, else `fischerle`.
    #[arg(long)]
    pub preset: Option<String>,
    /// A fixed setting `KEY=V` of the player tuned (repeatable; `uci.NAME=V` for a UCI engine).
    #[arg(long = "set", value_name = "KEY=V")]
    pub sets: Vec<String>,
    /// The engine tuned: `builtin` or `uci:PATH`. Default: the grid file's, else `builtin`.
    #[arg(long, value_name = "builtin|uci:PATH")]
    pub engine: Option<String>,
    /// Per-move limit of both sides, as `match --limit` (`nodes=N`, `depth=D`, `movetime=MS`,
    /// `tc=BASE+INC`). Default `nodes=5000`.
    #[arg(long, value_name = "LIMIT")]
    pub limit: Option<String>,
    /// Opening book, EPD or PGN. Default: the project's book.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Seed of the perturbations and the rounding, and the book offset of the first pair.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How games end.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// After the last iteration: a match of this many pairs, tuned against start, on the openings
    /// after the tune's (`verify/` in the run directory).
    #[arg(long, value_name = "PAIRS")]
    pub verify: Option<u64>,
    /// The verification's limit per move (e.g. a clock, `tc=0.5+0.005`), into `verify-LIMIT/`.
    /// Default: the tune's, into `verify/`.
    #[arg(long, value_name = "LIMIT")]
    pub verify_limit: Option<String>,
    /// The verification's openings (EPD or PGN), positions also in the tune's book left out.
    /// Default: the tune's book from the offset after its pairs.
    #[arg(long, value_name = "FILE")]
    pub verify_openings: Option<PathBuf>,
    /// The verification's SPRT `ELO0,ELO1`.
    #[arg(
        long,
        value_name = "ELO0,ELO1",
        default_value = "0,5",
        allow_hyphen_values = true
    )]
    pub verify_sprt: String,
    /// Name of the tune (output directory).
    #[arg(long, default_value = "tune")]
    pub name: String,
    /// How long a UCI engine may take.
    #[command(flatten)]
    pub uci: lab::uci::bounds::UciBoundsArgs,
    /// Output, resume (after the last complete iteration), threads, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
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

/// `harness sprt`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("results").required(true).args(["pentanomial", "wdl"])))]
pub struct SprtCalcArgs {
    /// Game-pair counts `LL,LD,DD,WD,WW` (DD counts draw-draw and win-loss pairs).
    #[arg(long, value_name = "LL,LD,DD,WD,WW", value_parser = counts::<5>)]
    pub pentanomial: Option<Counts>,
    /// Game counts `W,D,L` (when pairs were not recorded).
    #[arg(long, value_name = "W,D,L", value_parser = counts::<3>)]
    pub wdl: Option<Counts>,
    /// Elo under H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo under H1.
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Error rates and model.
    #[command(flatten)]
    pub sprt: SprtOptions,
}

/// A search depth: a whole number of 1 or more (a negative one said as such, not taken for an
/// option).
fn depth(text: &str) -> Result<i32, String> {
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
fn counts<const N: usize>(text: &str) -> Result<Counts, String> {
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

/// `harness perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Perft EPD file.
    pub file: PathBuf,
    /// Deepest `Dn` to check (deeper counts in the file are skipped).
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
}

/// `harness suite …`.
#[derive(Debug, Subcommand)]
pub enum SuiteCommand {
    /// Validate EPD files: positions, unreadable lines (file:line), moves that do not parse.
    Check {
        /// EPD files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Make a suite: candidate positions (EPD, PGN, or seeded self-play of the project's engine)
    /// labelled by a reference UCI engine at MultiPV 2; keeps those whose best move beats the
    /// second by a margin, with `bm`, `id` and a `c0` recording origin, engine, depth and margin.
    Make(Box<SuiteMakeArgs>),
}

/// `harness suite make`.
#[derive(Debug, Args)]
pub struct SuiteMakeArgs {
    /// The EPD file to write.
    #[arg(long, value_name = "FILE.epd")]
    pub out: PathBuf,
    /// Candidates: every position of an EPD file (repeatable).
    #[arg(long = "from-epd", value_name = "FILE")]
    pub from_epd: Vec<PathBuf>,
    /// Candidates: the positions of every game of a PGN file (repeatable).
    #[arg(long = "from-pgn", value_name = "FILE")]
    pub from_pgn: Vec<PathBuf>,
    /// Candidates: this many games of the project's engine against itself from seeded openings.
    #[arg(long, value_name = "GAMES")]
    pub selfplay: Option<u64>,
    /// Candidates: N double-Fischer-random start positions (a Chess960 book in Shredder-FEN):
    /// all 921,600 (960 × 960) or a sample seeded by --seed. A source of its own.
    #[arg(long, value_name = "N", conflicts_with_all = ["from_epd", "from_pgn", "selfplay", "select"])]
    pub dfrc: Option<usize>,
    /// Candidates: the positions of a grid run whose node ratio between two configurations is at
    /// least --min-ratio (with --select-pair).
    #[arg(long, value_name = "RUN_DIR", requires = "select_pair")]
    pub select: Option<PathBuf>,
    /// Selection: the configurations whose node ratio is taken, `FROM/TO` (e.g. `c03/c04`).
    #[arg(long, value_name = "FROM/TO", requires = "select")]
    pub select_pair: Option<String>,
    /// Selection: least node ratio TO / FROM kept.
    #[arg(long, value_name = "FACTOR", default_value_t = 2.0)]
    pub min_ratio: f64,
    /// Self-play: seed of the random opening plies; --dfrc: seed of the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Self-play: uniformly random legal plies from the start position.
    #[arg(long, default_value_t = 6)]
    pub random_plies: usize,
    /// Self-play: search depth of every move.
    #[arg(long, default_value_t = 5, value_parser = depth, allow_hyphen_values = true)]
    pub play_depth: i32,
    /// Self-play: longest game in plies.
    #[arg(long, default_value_t = 120)]
    pub max_plies: usize,
    /// Self-play: the engine's preset.
    #[arg(long, default_value = "fischerle")]
    pub preset: String,
    /// Games (PGN, self-play): candidates from this ply on.
    #[arg(long, default_value_t = 16)]
    pub from_ply: usize,
    /// Games: every n-th ply from --from-ply (2 keeps one side to move).
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// EPD files: every n-th position from the first (a systematic sample).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub sample: usize,
    /// Games: most positions kept per game (the first that pass). Default: all.
    #[arg(long, value_name = "N")]
    pub per_game: Option<usize>,
    /// Most positions kept in all (in source order).
    #[arg(long, value_name = "N")]
    pub max: Option<usize>,
    /// Only candidates of this phase: `endgame` (at most a quarter of the opening's piece
    /// material, e.g. R+B vs R+N) or `middlegame`.
    #[arg(long, value_name = "PHASE")]
    pub phase: Option<lab::suite_make::phase::Phase>,
    /// Keep every candidate without asking a reference (no `bm`): an unselected population.
    #[arg(long, conflicts_with_all = ["balanced", "margin"])]
    pub unlabelled: bool,
    /// The reference UCI engine.
    #[arg(long, value_name = "PATH", default_value = "/usr/games/stockfish")]
    pub reference: PathBuf,
    /// Depth of the reference's analysis.
    #[arg(long, default_value_t = 14, value_parser = depth, allow_hyphen_values = true)]
    pub depth: i32,
    /// Least lead in centipawns of the best move over the second.
    #[arg(long, default_value_t = 150)]
    pub margin: i32,
    /// Keep balanced positions instead (an opening book): those whose best move scores within
    /// ±CP, no mate; no `bm` is written.
    #[arg(long, value_name = "CP")]
    pub balanced: Option<i32>,
    /// The reference's hash, MiB (it runs with one thread).
    #[arg(long, default_value_t = 64)]
    pub hash: u32,
    /// Seconds one analysis may take before the reference counts as hung.
    #[arg(long, value_name = "S", default_value_t = 300)]
    pub timeout: u64,
    /// `id` prefix (`PREFIX.001`, …). Default: the output file's stem.
    #[arg(long)]
    pub id_prefix: Option<String>,
    /// Worker threads, one reference process each. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `harness bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = lab::bench::DEPTH, value_parser = depth, allow_hyphen_values = true)]
    pub depth: i32,
    /// Time the joint-ratings fit instead of the search: 64 players, about 100,000 simulated
    /// games, the fit and 1,000 bootstrap resamples.
    #[arg(long)]
    pub ratings: bool,
    /// The configuration timed (the signature is `fischerle`'s).
    #[arg(long, default_value = "fischerle")]
    pub preset: String,
    /// `KEY=VALUE` changes to the preset, in order (`--set eval.mobility=on`): a term's cost.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

impl BenchArgs {
    /// The `--set` pairs.
    pub fn settings(&self) -> anyhow::Result<Vec<(String, String)>> {
        key_values(&self.sets)
    }
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

/// `harness tree`: one position, one configuration, one limit; or `harness tree diff A B`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TreeArgs {
    /// `diff A B`: two recordings compared.
    #[command(subcommand)]
    pub command: Option<TreeCommand>,
    /// The position, as FEN (4 to 6 fields).
    #[arg(long, value_name = "FEN", conflicts_with_all = ["suite", "id"])]
    pub fen: Option<String>,
    /// An EPD suite to take the position from (with `--id`).
    #[arg(long, value_name = "FILE", requires = "id")]
    pub suite: Option<PathBuf>,
    /// The position's id in `--suite` (its `id` operation, or `file:line` without one).
    #[arg(long, value_name = "ID", requires = "suite")]
    pub id: Option<String>,
    /// Base configuration (a preset name).
    #[arg(long, default_value = "fischerle")]
    pub preset: String,
    /// A setting of the configuration, `KEY=VALUE` (repeatable; one value each).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Search to this depth (default 6 when no limit is given).
    #[arg(long, value_name = "N", conflicts_with = "nodes", value_parser = depth, allow_hyphen_values = true)]
    pub depth: Option<i32>,
    /// Search this many nodes.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Which iterations to keep: the last one (default) or all.
    #[arg(long, value_enum, default_value = "last")]
    pub iteration: lab::tree::Iterations,
    /// Keep only the subtree under this line of moves from the root (UCI, space- or
    /// comma-separated: `e2e4,e7e5`).
    #[arg(long, value_name = "MOVES")]
    pub under: Option<String>,
    /// The most nodes recorded: a search that visits more is refused (or, with `--truncate`,
    /// recorded up to the cap).
    #[arg(long, value_name = "N", default_value_t = lab::tree::DEFAULT_MAX_NODES)]
    pub max_nodes: usize,
    /// Keep the first `--max-nodes` nodes of a larger search instead of refusing it.
    #[arg(long)]
    pub truncate: bool,
    /// Output directory. Default `results/<timestamp>-tree/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// What `harness tree` does besides recording.
#[derive(Debug, Subcommand)]
pub enum TreeCommand {
    /// Two recordings of one position and limit (different configurations) aligned by move path:
    /// where the nodes were added, and what decided it.
    Diff(TreeDiffArgs),
}

/// `harness tree diff`.
#[derive(Debug, Args)]
pub struct TreeDiffArgs {
    /// The first recording (the baseline): a `harness tree` output directory.
    pub before: PathBuf,
    /// The second recording.
    pub after: PathBuf,
    /// Output directory for diff.md and diff.csv. Default `results/<timestamp>-tree-diff/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Lines listed in the report's table of growing lines.
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub lines: usize,
}

/// `harness report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Run directory (with manifest.json, runs.csv, iterations.csv).
    pub dir: PathBuf,
    /// Configuration id the others are compared with; recorded in the manifest, so that a later
    /// `harness report DIR` compares with it too. Default: the one the manifest records, else the
    /// grid's first.
    #[arg(long, value_name = "CONFIG")]
    pub baseline: Option<String>,
    /// Only render the committed report.md as report.html and report.json, recomputing nothing
    /// (for a run whose tables are not all kept, or written before report.json existed).
    #[arg(long, conflicts_with = "baseline")]
    pub page: bool,
}

/// `--shard I/N` or `--shard slurm` (read from the array task's environment).
fn parse_shard(text: &str) -> Result<lab::shard::Shard, String> {
    lab::shard::Shard::parse(text).map_err(|e| e.to_string())
}

/// `harness merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard directories (any order).
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<PathBuf>,
    /// The merged run directory (must not hold a run yet).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge what is there: shards missing or unfinished are reported, not refused (to look at a
    /// long study while it runs).
    #[arg(long)]
    pub partial: bool,
}

/// `harness compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The run taken as baseline ("before").
    pub before: PathBuf,
    /// The run compared with it ("after").
    pub after: PathBuf,
    /// Also write compare.md and the sorted-ratio figure into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Compare even if the two runs' configurations, suites or limits differ (the differences
    /// are still listed). Without it such a comparison exits with code 3.
    #[arg(long)]
    pub allow_mismatch: bool,
}

/// `harness kpk …`.
#[derive(Debug, Subcommand)]
pub enum KpkCommand {
    /// Build KQK, KRK and KPK by retrograde analysis and write every legal KPK position with its
    /// value from the side to move (`fen,wdl,dtm`; dtm in plies, Gaviota's convention).
    Table {
        /// Output CSV.
        #[arg(long, value_name = "FILE.csv")]
        out: PathBuf,
    },
    /// Check the engine's KPK rules and its search at each depth against every position.
    Check(KpkCheckArgs),
    /// The 1989 text's validation of its KPK rules by interval search over every legal position
    /// (seed 004, §3), checked in turn against the retrograde table; and the nodes the interval
    /// search needs against the scalar search, both with the rules.
    Validate(KpkValidateArgs),
}

/// `harness kpk validate`.
#[derive(Debug, Args)]
pub struct KpkValidateArgs {
    /// Validate every Nth legal position in table order (1: all of them). A sample's cycle search
    /// only sees support among the sampled positions.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Deepest iteration of a position's searches.
    #[arg(long, default_value_t = 40)]
    pub max_depth: u16,
    /// Node budget of one position's searches (the text's "tolerable effort").
    #[arg(long, default_value_t = 50_000)]
    pub max_nodes: u64,
    /// Depth of the interval-against-scalar comparison (repeatable). Default: 1 to 6.
    #[arg(long = "compare-depth")]
    pub compare_depths: Vec<u16>,
    /// The comparison takes every Nth legal position.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub compare_every: u64,
    /// Put a deliberately wrong rule before the text's rules, to measure what the procedure
    /// catches (the text's rules are never wrong as draws).
    #[arg(long, value_enum)]
    pub mutant: Option<play::kpk::mutant::Mutant>,
    /// Worker threads. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (validation.csv, comparison.csv, report.md). Default
    /// `results/<timestamp>-kpk-validate/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `harness kpk check`.
#[derive(Debug, Args)]
pub struct KpkCheckArgs {
    /// Base preset. Without --preset and --set: the axis preset=fischerle,plain.
    #[arg(long)]
    pub preset: Option<String>,
    /// An axis: `KEY=V1,V2,...` (repeatable), as for `grid` (e.g. `kpk.square=false,true`).
    #[arg(long = "set", value_name = "KEY=V1,V2,...")]
    pub sets: Vec<String>,
    /// Search depth (repeatable). Default: 1, 2 and 3.
    #[arg(long = "depth", value_parser = depth, allow_hyphen_values = true)]
    pub depths: Vec<i32>,
    /// Worker threads. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (positions.csv, report.md). Default `results/<timestamp>-kpk/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}
