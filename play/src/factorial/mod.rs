//! Factorial designs of search features: `match --factorial KEY[=OFF/ON],…` over a base player
//! plays every point of a 2^k design, or of a regular 2^(k−p) fraction of resolution ≥ V
//! ([`fraction`]), as named players in a round robin (balanced — every point meets every other
//! equally often — and connected), and [`effects`] fits each main effect and two-factor
//! interaction in Elo by the joint-ratings likelihood; [`report`] writes `effects.csv` and the
//! report's section.

pub mod best;
pub mod effects;
pub mod figures;
pub mod fraction;
pub mod report;

use engine::SearchConfig;
use lab::grid::players::NamedPlayer;
use serde::{Deserialize, Serialize};

/// One two-level factor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Factor {
    /// The dotted key.
    pub key: String,
    /// Its value at level −1.
    pub off: String,
    /// Its value at level +1.
    pub on: String,
    /// Its short name in player names and effect labels.
    pub name: String,
}

/// A design: its factors, generators and points, recorded in the match's manifest so that
/// `harness report` refits it from the games alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Design {
    /// The factors, letter A first.
    pub factors: Vec<Factor>,
    /// The generators of the fraction (`ABCD` makes the fifth factor); empty for a full design.
    pub generators: Vec<String>,
    /// Each point's levels (−1/+1), in player order.
    pub points: Vec<Vec<i8>>,
}

impl Design {
    /// The design over the one builtin player `spec` describes (`--factorial` with the rest of a
    /// match's command line): refused with named players, several configurations or a UCI base.
    pub fn over(
        spec: &lab::grid::GridSpec,
        specs: &[String],
        fraction: usize,
    ) -> anyhow::Result<Self> {
        use anyhow::bail;
        if !spec.players.is_empty() {
            bail!("--factorial makes the players from the design's points: give no named players (--player, [[players]])");
        }
        let points = spec.expand()?;
        let [point] = &points[..] else {
            bail!(
                "--factorial varies one base player, but the axes give {} configurations: give each --set one value",
                points.len()
            );
        };
        let Some(base) = point.config() else {
            bail!("--factorial varies the builtin engine's keys: the base player must be builtin");
        };
        Self::new(specs, fraction, base).map_err(anyhow::Error::msg)
    }

    /// The design of `factors` (`KEY` or `KEY=OFF/ON`) over `base`, with `fraction` generated
    /// factors (0: the full design).
    pub fn new(specs: &[String], fraction: usize, base: &SearchConfig) -> Result<Self, String> {
        if specs.len() < 2 {
            return Err(format!(
                "--factorial needs at least two factors (found {}): one factor is a plain match",
                specs.len()
            ));
        }
        if specs.len() > fraction::LETTERS.len() {
            return Err(format!(
                "--factorial takes at most {} factors, found {}",
                fraction::LETTERS.len(),
                specs.len()
            ));
        }
        let mut factors = specs
            .iter()
            .map(|s| Factor::parse(s, base))
            .collect::<Result<Vec<_>, _>>()?;
        name_uniquely(&mut factors)?;
        let generators = fraction::generators(factors.len(), fraction)?;
        let points = fraction::points(factors.len(), &generators);
        Ok(Self {
            factors,
            generators,
            points,
        })
    }

    /// The points as named players (`+lmr-singular…`), each with its factors' values.
    pub fn players(&self) -> Vec<NamedPlayer> {
        self.points
            .iter()
            .map(|levels| NamedPlayer {
                name: self.point_name(levels),
                preset: None,
                engine: None,
                set: self
                    .factors
                    .iter()
                    .zip(levels)
                    .map(|(f, &l)| (f.key.clone(), if l > 0 { &f.on } else { &f.off }.clone()))
                    .collect(),
            })
            .collect()
    }

    /// A point's name, `+lmr-singular…`: each factor with its level's sign.
    pub fn point_name(&self, levels: &[i8]) -> String {
        self.factors
            .iter()
            .zip(levels)
            .map(|(f, &l)| format!("{}{}", if l > 0 { '+' } else { '-' }, f.name))
            .collect()
    }

    /// `2^5` or `2^(6−1)`, with the generators as letters (`F = ABCDE`) and the resolution.
    pub fn describe(&self) -> String {
        let k = self.factors.len();
        if self.generators.is_empty() {
            return format!("full 2^{k} design, {} points", self.points.len());
        }
        let base = k - self.generators.len();
        let gens: Vec<String> = self
            .generators
            .iter()
            .enumerate()
            .map(|(i, g)| format!("{} = {g}", fraction::LETTERS[base + i] as char))
            .collect();
        let resolution = fraction::resolution(k, &self.generators).unwrap_or(0);
        format!(
            "2^({k}−{}) fraction, {} points, generators {} (resolution {})",
            self.generators.len(),
            self.points.len(),
            gens.join(", "),
            roman(resolution)
        )
    }
}

impl Factor {
    /// `KEY` (a switch: `off`/`on`, or a boolean: `false`/`true`) or `KEY=OFF/ON`.
    fn parse(spec: &str, base: &SearchConfig) -> Result<Self, String> {
        let (key, values) = match spec.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v)),
            None => (spec.trim(), None),
        };
        let (off, on) = match values {
            Some(v) => v.split_once('/').map(|(a, b)| (a.trim(), b.trim())).ok_or_else(|| {
                format!("--factorial `{spec}`: expected KEY=OFF/ON, two values split by `/`")
            })?,
            None => two_levels(key, base).ok_or_else(|| {
                format!("--factorial `{key}`: not a switch (on/off) or a boolean of the base player; give two values: {key}=OFF/ON")
            })?,
        };
        if off == on || off.is_empty() || on.is_empty() {
            return Err(format!(
                "--factorial `{spec}`: the two levels must be two different values"
            ));
        }
        if !key.starts_with(lab::grid::UCI_KEY) {
            for v in [off, on] {
                base.clone()
                    .set(key, v)
                    .map_err(|e| format!("--factorial `{spec}`: {e}"))?;
            }
        }
        Ok(Self {
            key: key.to_string(),
            off: off.to_string(),
            on: on.to_string(),
            name: key.rsplit('.').next().unwrap_or(key).to_string(),
        })
    }
}

/// The levels of a bare key: a switch's `off`/`on` or a boolean's `false`/`true`.
fn two_levels(key: &str, base: &SearchConfig) -> Option<(&'static str, &'static str)> {
    let accepts = |v: &str| base.clone().set(key, v).is_ok();
    if accepts("off") && accepts("on") {
        Some(("off", "on"))
    } else if accepts("false") && accepts("true") {
        Some(("false", "true"))
    } else {
        None
    }
}

/// Short names (the key's last part) unless two collide, then the whole key; a key twice, or a
/// key under another factor's, is an error.
fn name_uniquely(factors: &mut [Factor]) -> Result<(), String> {
    for (i, f) in factors.iter().enumerate() {
        if factors[..i].iter().any(|g| g.key == f.key) {
            return Err(format!(
                "--factorial names `{}` twice: each factor once",
                f.key
            ));
        }
        // Setting `lmr.base` switches LMR back on: the two factors would not be independent.
        let nested = factors
            .iter()
            .find(|g| f.key.starts_with(&format!("{}.", g.key)));
        if let Some(g) = nested {
            return Err(format!(
                "--factorial `{}` is a parameter of the factor `{}`: setting it where `{}` is off would switch it on, so the two are not independent factors",
                f.key, g.key, g.key
            ));
        }
    }
    let names: Vec<String> = factors.iter().map(|f| f.name.clone()).collect();
    for f in factors.iter_mut() {
        if names.iter().filter(|n| **n == f.name).count() > 1 {
            f.name = f.key.clone();
        }
    }
    Ok(())
}

fn roman(n: u32) -> String {
    match n {
        3 => "III",
        4 => "IV",
        5 => "V",
        6 => "VI",
        7 => "VII",
        8 => "VIII",
        _ => return n.to_string(),
    }
    .to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use lab::elo::ratings::Pair;

    /// A design of k factors `f0`, `f1`, … with levels 0 and 1.
    pub(crate) fn design(k: usize, generators: &[&str]) -> Design {
        let generators: Vec<String> = generators.iter().map(|g| g.to_string()).collect();
        Design {
            factors: (0..k)
                .map(|i| Factor {
                    key: format!("f{i}"),
                    off: "0".into(),
                    on: "1".into(),
                    name: format!("f{i}"),
                })
                .collect(),
            points: crate::factorial::fraction::points(k, &generators),
            generators,
        }
    }

    /// Games of a round robin between the design's points, simulated from known effects.
    pub(crate) fn simulate(d: &Design, truth: &[f64], pairs: usize, seed: u64) -> Vec<Vec<Pair>> {
        let rating: Vec<f64> = crate::factorial::effects::model_matrix(d)
            .iter()
            .map(|row| row.iter().zip(truth).map(|(a, b)| a * b / 2.0).sum())
            .collect();
        lab::elo::ratings::simulate_round_robin(&rating, 1.0, pairs, seed)
    }

    fn specs(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn switches_booleans_and_explicit_levels_make_factors() {
        let base = SearchConfig::modern();
        let d = Design::new(
            &specs(&["lmr", "check_extension", "aspiration.window=25/100"]),
            0,
            &base,
        )
        .unwrap();
        let levels: Vec<(&str, &str, &str)> = d
            .factors
            .iter()
            .map(|f| (f.name.as_str(), f.off.as_str(), f.on.as_str()))
            .collect();
        assert_eq!(
            levels,
            [
                ("lmr", "off", "on"),
                ("check_extension", "false", "true"),
                ("window", "25", "100")
            ]
        );
        assert_eq!(d.points.len(), 8);
    }

    #[test]
    fn bad_factors_are_refused_with_what_was_expected() {
        let base = SearchConfig::modern();
        let err = |s: &[&str], p: usize| Design::new(&specs(s), p, &base).unwrap_err();
        assert!(err(&["lmr"], 0).contains("at least two factors"));
        assert!(err(&["lmr", "lmr.base"], 0).contains("not a switch"));
        assert!(err(&["lmr", "lmr"], 0).contains("twice"));
        assert!(err(&["lmr", "lmr.base=0.5/1"], 0).contains("a parameter of the factor `lmr`"));
        assert!(err(&["lmr", "singular=on"], 0).contains("KEY=OFF/ON"));
        assert!(err(&["lmr", "aspiration.window=x/10"], 0).contains("aspiration.window"));
        assert!(err(&["lmr", "singular", "see"], 1).contains("2^(3−1)"));
    }

    #[test]
    fn points_are_named_by_their_levels_and_set_their_values() {
        let base = SearchConfig::modern();
        let d = Design::new(&specs(&["lmr", "check_extension"]), 0, &base).unwrap();
        let players = d.players();
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "-lmr-check_extension",
                "-lmr+check_extension",
                "+lmr-check_extension",
                "+lmr+check_extension"
            ]
        );
        assert_eq!(
            players[1].set,
            [
                ("lmr".to_string(), "off".to_string()),
                ("check_extension".to_string(), "true".to_string())
            ]
        );
        assert_eq!(d.describe(), "full 2^2 design, 4 points");
    }
}
