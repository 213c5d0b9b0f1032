//! `--param KEY=START,MIN,MAX[,C_END[,R_END]]`: what a tune moves, checked against the player it
//! tunes before any game — a numeric `SearchConfig` key of the builtin engine, or a `spin` option
//! of a UCI engine (`uci.NAME`).

use anyhow::{bail, Context, Result};
use lab::uci::client::OptionDecl;

use super::spsa::{Param, C_END_DIVISOR, DEFAULT_R_END};

/// The player a tune starts from.
#[derive(Debug, Clone)]
pub enum Base {
    /// The project's engine with this configuration.
    Builtin(Box<engine::SearchConfig>),
    /// A UCI engine: its declared options and the fixed ones (`--set uci.NAME=V`).
    Uci {
        /// What it declared in its handshake.
        declared: Vec<OptionDecl>,
    },
}

/// The prefix of a UCI option key.
pub const UCI_KEY: &str = "uci.";

/// Every `--param` text parsed against `base`; a key given twice is refused.
pub fn parse_all(texts: &[String], base: &Base) -> Result<Vec<Param>> {
    let mut params: Vec<Param> = Vec::new();
    for text in texts {
        let p = parse(text, base)?;
        if params.iter().any(|q| q.key == p.key) {
            bail!("--param {}: given twice", p.key);
        }
        params.push(p);
    }
    Ok(params)
}

/// Reads one `--param` and checks it against `base`.
pub fn parse(text: &str, base: &Base) -> Result<Param> {
    let expected = "expected KEY=START,MIN,MAX[,C_END[,R_END]]";
    let (key, values) = text
        .split_once('=')
        .with_context(|| format!("--param {text}: {expected}"))?;
    let key = key.trim().to_string();
    let numbers: Vec<f64> = values
        .split(',')
        .map(|v| v.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect::<Option<_>>()
        .filter(|v: &Vec<f64>| (3..=5).contains(&v.len()))
        .with_context(|| format!("--param {key}: {expected} (numbers), found `{values}`"))?;
    let (start, min, max) = (numbers[0], numbers[1], numbers[2]);
    if min >= max {
        bail!("--param {key}: MIN must be below MAX, found MIN {min} and MAX {max}");
    }
    if !(min..=max).contains(&start) {
        bail!("--param {key}: START must lie in [MIN, MAX] = [{min}, {max}], found {start}");
    }
    let c_end = numbers
        .get(3)
        .copied()
        .unwrap_or((max - min) / C_END_DIVISOR);
    if c_end <= 0.0 {
        bail!("--param {key}: C_END must be above 0, found {c_end}");
    }
    let r_end = numbers.get(4).copied().unwrap_or(DEFAULT_R_END);
    if r_end <= 0.0 {
        bail!("--param {key}: R_END must be above 0, found {r_end}");
    }
    let integer = is_integer(&key, min, max, base)?;
    Ok(Param {
        key,
        start,
        min,
        max,
        c_end,
        r_end,
        integer,
    })
}

/// Whether `key` takes whole numbers; an error if `base` has no such numeric key.
fn is_integer(key: &str, min: f64, max: f64, base: &Base) -> Result<bool> {
    match base {
        Base::Builtin(config) => builtin_kind(key, min, max, config),
        Base::Uci { declared } => {
            let name = key.strip_prefix(UCI_KEY).with_context(|| {
                format!("--param {key}: a UCI engine's parameters are `uci.NAME` spin options")
            })?;
            uci_kind(key, name, min, max, declared)
        }
    }
}

fn builtin_kind(key: &str, min: f64, max: f64, config: &engine::SearchConfig) -> Result<bool> {
    if key.starts_with(UCI_KEY) {
        bail!("--param {key}: `uci.` keys need a UCI engine (--engine uci:PATH)");
    }
    let tree = toml::Value::try_from(config).expect("a SearchConfig serialises");
    let mut node = &tree;
    let mut path = Vec::new();
    for part in key.split('.') {
        path.push(part);
        node = match node.get(part) {
            Some(next) => next,
            None if config.clone().set(&path.join("."), "on").is_ok() => {
                bail!("--param {key}: `{}` is off in the configuration tuned; switch it on with --set {}=on", path.join("."), path.join("."))
            }
            None => bail!("--param {key}: not a SearchConfig key (see `harness config`)"),
        };
    }
    let integer = match node {
        toml::Value::Integer(_) => true,
        toml::Value::Float(_) => false,
        other => bail!(
            "--param {key}: expected a numeric key, found a {} (`{other}`)",
            other.type_str()
        ),
    };
    for value in [min, max] {
        let mut probe = config.clone();
        probe
            .set(key, &format_value(value, integer))
            .and_then(|()| probe.validate())
            .map_err(|e| anyhow::anyhow!("--param {key}: {value} is not a valid value: {e}"))?;
    }
    Ok(integer)
}

fn uci_kind(key: &str, name: &str, min: f64, max: f64, declared: &[OptionDecl]) -> Result<bool> {
    let option = declared
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .with_context(|| format!("--param {key}: the engine declares no option `{name}`"))?;
    if option.kind != "spin" {
        bail!(
            "--param {key}: expected a spin option, `{}` is a {}",
            option.name,
            option.kind
        );
    }
    let (low, high) = (
        option.min.unwrap_or(i64::MIN),
        option.max.unwrap_or(i64::MAX),
    );
    if min < low as f64 || max > high as f64 {
        bail!(
            "--param {key}: [MIN, MAX] = [{min}, {max}] leaves the engine's range [{low}, {high}]"
        );
    }
    Ok(true)
}

/// A value as `--set` and `setoption` take it: whole numbers without a decimal point.
pub fn format_value(value: f64, integer: bool) -> String {
    if integer {
        format!("{}", value.round() as i64)
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modern() -> Base {
        Base::Builtin(Box::new(engine::SearchConfig::modern()))
    }

    #[test]
    fn a_param_takes_defaults_from_its_range() {
        let p = parse("futility.frontier=100,20,300", &modern()).unwrap();
        assert_eq!(
            (p.start, p.min, p.max, p.c_end, p.r_end),
            (100.0, 20.0, 300.0, 14.0, 0.002)
        );
        assert!(p.integer);
        let p = parse("lmr.divisor=2.25,1,4,0.2,0.001", &modern()).unwrap();
        assert_eq!((p.c_end, p.r_end, p.integer), (0.2, 0.001, false));
    }

    #[test]
    fn bad_params_name_the_parameter_and_what_was_expected() {
        let cases = [
            ("bogus.key=1,0,2", "not a SearchConfig key"),
            ("see=1,0,2", "expected a numeric key"),
            (
                "futility.frontier=400,20,300",
                "START must lie in [MIN, MAX]",
            ),
            ("futility.frontier=100,300,20", "MIN must be below MAX"),
            ("futility.frontier=100,20,300,0", "C_END must be above 0"),
            ("futility.frontier=100,20", "expected KEY=START,MIN,MAX"),
            ("futility.frontier", "expected KEY=START,MIN,MAX"),
            ("uci.Hash=16,1,64", "need a UCI engine"),
        ];
        for (text, message) in cases {
            let error = parse(text, &modern()).unwrap_err().to_string();
            assert!(error.contains(message), "{text}: {error}");
            assert!(error.contains(text.split('=').next().unwrap()), "{error}");
        }
        let off = parse(
            "reverse_futility.margin=100,20,300",
            &Base::Builtin(Box::new(engine::SearchConfig::fischerle())),
        );
        assert!(off
            .unwrap_err()
            .to_string()
            .contains("switch it on with --set reverse_futility=on"));
    }

    #[test]
    fn uci_params_must_be_declared_spins_within_their_range() {
        let declared = [
            "Futility Margin type spin default 100 min 0 max 500",
            "Futility Pruning type check default true",
        ]
        .map(OptionDecl::parse)
        .to_vec();
        let toga = Base::Uci { declared };
        assert!(
            parse("uci.futility margin=300,0,500", &toga)
                .unwrap()
                .integer
        );
        for (text, message) in [
            ("uci.Futility Pruning=1,0,1", "expected a spin option"),
            ("uci.Delta Margin=1,0,5", "declares no option"),
            (
                "uci.Futility Margin=300,0,900",
                "leaves the engine's range [0, 500]",
            ),
            ("Futility Margin=300,0,500", "`uci.NAME` spin options"),
        ] {
            let error = parse(text, &toga).unwrap_err().to_string();
            assert!(error.contains(message), "{text}: {error}");
        }
    }
}
