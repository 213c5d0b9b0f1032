//! The match's players from a grid spec: an entry per point (named by its axis values), UCI
//! players told to play Chess960 or warned when their own threads oversubscribe the machine, each
//! player's limit, and the baseline first.

use anyhow::{bail, Context, Result};
use engine::Variant;
use lab::engines::EngineSpec;
use lab::grid::resolve::{resolve, Resolved};
use lab::grid::{GridPoint, GridSpec, Player};
use lab::uci::bounds::UciBounds;

use super::limits::{MoveLimit, NpsScale};
use super::plan::PlayerEntry;
use super::player::PlayerKind;

/// What the players need besides their spec.
#[derive(Debug, Clone, Copy)]
pub struct PlayerSetup<'a> {
    /// Standard chess or Chess960 (UCI players are told).
    pub variant: Variant,
    /// `--limit [ID:]LIMIT` in order (later wins).
    pub limits: &'a [String],
    /// `--baseline`: the player (id, or name of a named player) to put first.
    pub baseline: Option<&'a str>,
    /// A UCI player's time allowances.
    pub slack: UciBounds,
    /// Games played at once (for the oversubscription warning).
    pub games_at_once: usize,
}

/// The players of `spec` resolved and checked, with their limits, the baseline first.
pub fn players(spec: &GridSpec, setup: &PlayerSetup) -> Result<Vec<PlayerEntry>> {
    let Resolved {
        engines,
        points,
        columns,
    } = resolve(spec, setup.slack.handshake)?;
    let mut players: Vec<PlayerEntry> = points
        .iter()
        .enumerate()
        .map(|(i, p)| player_entry(i, p, &columns, &engines, &spec.preset, setup.slack))
        .collect();
    // Before any reordering: players[i] is points[i].
    if setup.variant == Variant::Chess960 {
        tell_chess960(&mut players, &points, &engines)?;
    }
    warn_oversubscribed(&players, &points, &engines, setup.games_at_once);
    if players.len() < 2 {
        bail!(
            "a match needs at least two players, found {}: give an axis (--set KEY=A,B), more engines (--engine) or named players (--player)",
            players.len()
        );
    }
    apply_limits(&mut players, setup.limits)?;
    if let Some(id) = setup.baseline {
        baseline_first(&mut players, id, !spec.players.is_empty())?;
    }
    Ok(players)
}

/// Moves the player `id` (or, with named players, the one named so) to the front.
fn baseline_first(players: &mut Vec<PlayerEntry>, id: &str, named: bool) -> Result<()> {
    let i = players
        .iter()
        .position(|p| p.id == id || (named && p.name == id));
    let i = i.with_context(|| {
        let ids: Vec<&str> = players.iter().map(|p| p.id.as_str()).collect();
        format!(
            "--baseline {id} is not a player (expected one of {})",
            ids.join(", ")
        )
    })?;
    let baseline = players.remove(i);
    players.insert(0, baseline);
    Ok(())
}

fn player_entry(
    i: usize,
    point: &GridPoint,
    columns: &[String],
    engines: &[EngineSpec],
    preset: &str,
    slack: UciBounds,
) -> PlayerEntry {
    let values: Vec<String> = columns
        .iter()
        .zip(&point.values)
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| {
            if k == lab::grid::ENGINE_AXIS || k == lab::grid::players::PLAYER_COLUMN {
                v.clone()
            } else {
                format!("{k}={v}")
            }
        })
        .collect();
    let (kind, description, default_name) = match &point.player {
        Player::Builtin(config) => (
            PlayerKind::Builtin(config.clone()),
            serde_json::to_value(config).expect("configs serialise"),
            preset.to_string(),
        ),
        Player::Uci { engine, options } => {
            let EngineSpec::Uci {
                label,
                path,
                identity,
            } = &engines[*engine]
            else {
                unreachable!("UCI players name UCI engines")
            };
            let described: serde_json::Map<String, serde_json::Value> = options
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect();
            (
                PlayerKind::Uci {
                    path: path.clone(),
                    options: options.clone(),
                    slack,
                },
                serde_json::json!({"engine": label, "path": path, "name": identity.name, "options": described}),
                label.clone(),
            )
        }
    };
    PlayerEntry {
        id: format!("p{i:02}"),
        name: if values.is_empty() {
            default_name
        } else {
            values.join(" ")
        },
        kind,
        limit: super::limits::DEFAULT_LIMIT,
        description,
    }
}

/// A Chess960 match: every UCI player is told `UCI_Chess960 true` (castling written
/// king-takes-rook, Shredder-FEN positions); an engine that does not declare it is refused.
fn tell_chess960(
    players: &mut [PlayerEntry],
    points: &[GridPoint],
    engines: &[EngineSpec],
) -> Result<()> {
    for (player, point) in players.iter_mut().zip(points) {
        let Player::Uci { engine, .. } = &point.player else {
            continue;
        };
        let spec = &engines[*engine];
        let name = spec
            .declared(UCI_CHESS960)
            .map(|d| d.name.clone())
            .with_context(|| {
                format!(
                    "--variant chess960: UCI engine `{}` does not declare {UCI_CHESS960}, so it cannot be told that castling is written king-takes-rook",
                    spec.label()
                )
            })?;
        if let PlayerKind::Uci { options, .. } = &mut player.kind {
            options.retain(|(k, _)| k != &name);
            options.push((name.clone(), "true".into()));
        }
        player.description["options"][&name] = serde_json::Value::String("true".into());
    }
    Ok(())
}

/// Warns when a UCI player's own search threads (its `Threads` as set, else as declared) times
/// the games played at once exceed the machine's cores: such an engine loses time to the
/// scheduler, not to its search (Glaurung 2.2, 2 threads by default, lost 31 of 40 games on time
/// at 2 s + 0.02 s on 2 cores with 2 games at once; none with `uci.Threads=1`).
fn warn_oversubscribed(
    players: &[PlayerEntry],
    points: &[GridPoint],
    engines: &[EngineSpec],
    games: usize,
) {
    let cores = lab::workers::logical_cpus();
    for (player, point) in players.iter().zip(points) {
        let (Player::Uci { engine, .. }, PlayerKind::Uci { options, .. }) =
            (&point.player, &player.kind)
        else {
            continue;
        };
        let Some(decl) = engines[*engine].declared(THREADS) else {
            continue;
        };
        let set = options
            .iter()
            .find(|(k, _)| k == &decl.name)
            .map(|(_, v)| v);
        let own: usize = set
            .or(decl.default.as_ref())
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        if own * games > cores {
            eprintln!(
                "warning: {} ({}) searches with {own} threads while the match plays {games} at once: {} threads on {cores} cores, so its clock pays for the scheduler (set uci.{THREADS}=1 or --threads {})",
                player.id,
                player.name,
                own * games,
                (cores / own).max(1)
            );
        }
    }
}

/// The UCI option of an engine's search threads.
const THREADS: &str = "Threads";

/// The UCI option that switches an engine to Chess960 notation.
const UCI_CHESS960: &str = "UCI_Chess960";

/// `--limit [ID:]LIMIT`: without an id for every player, with one for that player (later wins).
fn apply_limits(players: &mut [PlayerEntry], specs: &[String]) -> Result<()> {
    for spec in specs {
        let (who, text) = match spec.split_once(':') {
            Some((id, rest)) if id.starts_with('p') && !id.contains('=') => (Some(id), rest),
            _ => (None, spec.as_str()),
        };
        let limit: MoveLimit = text
            .parse()
            .map_err(|e: String| anyhow::anyhow!("--limit {spec}: {e}"))?;
        match who {
            None => players.iter_mut().for_each(|p| p.limit = limit),
            Some(id) => {
                let p = players.iter_mut().find(|p| p.id == id).with_context(|| {
                    format!("--limit {spec}: no player `{id}` (players are p00, p01, …)")
                })?;
                p.limit = limit;
            }
        }
    }
    Ok(())
}

/// `--nps-scale REF` (`reference`, if given) of a match; `resumed` names the directory of a
/// resumed one, whose manifest keeps the scale it measured.
pub fn nps_scale(
    reference: Option<f64>,
    resumed: Option<&std::path::Path>,
) -> Result<Option<NpsScale>> {
    let recorded = resumed
        .and_then(|dir| super::manifest::MatchManifest::read(dir).ok())
        .and_then(|m| m.nps_scale);
    reference
        .map(|r| NpsScale::for_machine(r, recorded))
        .transpose()
}
