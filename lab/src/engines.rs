//! The engines of a grid: the project's own search, run in-process (`builtin`), and external UCI
//! engines (`uci:PATH`). Each UCI engine is started once while the plan is validated, so a
//! missing program, a failed handshake or an option it does not have is an error before any
//! search.

use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use crate::uci::client::{Identity, UciEngine, UciError};

/// The name of the in-process engine in `--engine` and in the `engine` column.
pub const BUILTIN: &str = "builtin";
/// The prefix of an external engine.
pub const UCI_PREFIX: &str = "uci:";
/// The prefix of a setting that is a UCI option (`uci.Hash`).
pub const UCI_KEY: &str = "uci.";
/// The UCI option that makes an engine play from its own opening book (set false by default).
pub const OWN_BOOK: &str = "OwnBook";

/// Why an engine cannot be part of a grid.
#[derive(Debug, Error)]
pub enum EngineError {
    /// Neither `builtin` nor `uci:PATH`.
    #[error("expected `--engine builtin` or `--engine uci:PATH`, found `{0}`")]
    Syntax(String),
    /// The handshake failed.
    #[error("UCI engine {path}: {reason}")]
    Handshake {
        /// The program.
        path: PathBuf,
        /// What went wrong.
        reason: UciError,
    },
}

/// One engine of the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineSpec {
    /// The project's search, in-process, configured by `SearchConfig` axes.
    Builtin,
    /// An external engine, configured by `uci.NAME` axes.
    Uci {
        /// Its name in the `engine` column (the program's file name, made unique).
        label: String,
        /// The program.
        path: PathBuf,
        /// What it said in the handshake.
        identity: Identity,
    },
}

impl EngineSpec {
    /// The name in the `engine` column.
    pub fn label(&self) -> &str {
        match self {
            Self::Builtin => BUILTIN,
            Self::Uci { label, .. } => label,
        }
    }

    /// The `setoption` pairs of `uci.NAME` settings, in order: each name as the engine spells it,
    /// each value checked against its declaration ([`OptionDecl::accept`]); an engine that
    /// declares `OwnBook` gets `OwnBook false` first unless the settings name it, so no book move
    /// counts as a search.
    ///
    /// [`OptionDecl::accept`]: crate::uci::client::OptionDecl::accept
    pub fn uci_options<'a>(
        &self,
        settings: impl IntoIterator<Item = (&'a String, &'a String)>,
    ) -> Result<Vec<(String, String)>, String> {
        let label = self.label();
        let mut options = settings
            .into_iter()
            .map(|(key, value)| {
                let name = key.strip_prefix(UCI_KEY).unwrap_or(key);
                let declared = self.declared(name).ok_or_else(|| {
                    format!("`{key}`: UCI engine `{label}` has no option `{name}`")
                })?;
                let value = declared
                    .accept(value)
                    .map_err(|e| format!("`{key}` of `{label}`: {e}"))?;
                Ok((declared.name.clone(), value))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let own_book = self.declared(OWN_BOOK).map(|d| d.name.clone());
        if let Some(name) = own_book.filter(|n| !options.iter().any(|(k, _)| k == n)) {
            options.insert(0, (name, "false".to_string()));
        }
        Ok(options)
    }

    /// The declaration of this engine's option `name` (any case).
    pub fn declared(&self, name: &str) -> Option<&crate::uci::client::OptionDecl> {
        match self {
            Self::Builtin => None,
            Self::Uci { identity, .. } => identity
                .declared
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name)),
        }
    }
}

/// Reads `--engine` arguments, starting each UCI engine once to check it answers; none means the
/// project's engine alone.
pub fn resolve(args: &[String], handshake: Duration) -> Result<Vec<EngineSpec>, EngineError> {
    if args.is_empty() {
        return Ok(vec![EngineSpec::Builtin]);
    }
    let mut engines: Vec<EngineSpec> = Vec::new();
    for arg in args {
        let spec = if arg == BUILTIN {
            EngineSpec::Builtin
        } else {
            let path = arg
                .strip_prefix(UCI_PREFIX)
                .filter(|p| !p.is_empty())
                .ok_or_else(|| EngineError::Syntax(arg.clone()))?;
            let path = PathBuf::from(path);
            let identity = probe(&path, handshake)?;
            let label = unique_label(&engines, &path);
            EngineSpec::Uci {
                label,
                path,
                identity,
            }
        };
        engines.push(spec);
    }
    Ok(engines)
}

fn probe(path: &Path, handshake: Duration) -> Result<Identity, EngineError> {
    UciEngine::start(path, handshake)
        .map(|e| e.identity.clone())
        .map_err(|reason| EngineError::Handshake {
            path: path.to_path_buf(),
            reason,
        })
}

/// The program's file name; `-2`, `-3`… when another engine already has it.
fn unique_label(engines: &[EngineSpec], path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or("uci".to_string(), |s| s.to_string_lossy().to_string());
    let taken = |l: &str| engines.iter().any(|e| e.label() == l);
    if !taken(&stem) && stem != BUILTIN {
        return stem;
    }
    (2..)
        .map(|i| format!("{stem}-{i}"))
        .find(|l| !taken(l))
        .expect("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_say_what_is_expected() {
        let d = Duration::from_secs(1);
        for bad in ["stockfish", "uci:", "ucI:/x"] {
            let e = resolve(&[bad.to_string()], d).unwrap_err();
            assert!(e.to_string().contains("expected `--engine builtin`"), "{e}");
        }
        let e = resolve(&["uci:/no/such/engine".to_string()], d).unwrap_err();
        assert!(
            e.to_string()
                .contains("cannot start UCI engine /no/such/engine"),
            "{e}"
        );
        assert_eq!(
            resolve(&["builtin".into()], d).unwrap(),
            vec![EngineSpec::Builtin]
        );
    }

    #[test]
    fn labels_are_unique() {
        let engines = vec![EngineSpec::Uci {
            label: "sf".into(),
            path: "/a/sf".into(),
            identity: Identity::default(),
        }];
        assert_eq!(unique_label(&engines, Path::new("/b/sf")), "sf-2");
        assert_eq!(unique_label(&[], Path::new("/b/builtin")), "builtin-2");
    }
}
