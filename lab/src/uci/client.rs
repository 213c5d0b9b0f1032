//! One UCI engine process. A reader thread forwards the engine's stdout line by line over a
//! channel, so every wait has a deadline: an engine that hangs is reported, never waited for.
//! Dropping the engine sends `quit` and kills the process if it does not leave at once.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use thiserror::Error;

/// Why talking to an engine failed. Each message says what was awaited and what happened.
#[derive(Debug, Error)]
pub enum UciError {
    /// The program could not be started.
    #[error("cannot start UCI engine {path}: {reason}")]
    Spawn {
        /// The program.
        path: PathBuf,
        /// The operating system's reason.
        reason: std::io::Error,
    },
    /// Nothing arrived in time.
    #[error("timeout: no `{awaited}` within {ms} ms")]
    Timeout {
        /// The line that was awaited.
        awaited: String,
        /// How long was waited.
        ms: u128,
    },
    /// The process ended (crashed or quit).
    #[error("crashed: the engine exited ({status}) {during}")]
    Exited {
        /// Exit status or signal, as the OS reports it.
        status: String,
        /// What the harness was doing: awaiting a line or sending a command.
        during: String,
    },
    /// Writing to the engine failed (its stdin is closed).
    #[error("crashed: cannot write `{line}` to the engine: {reason}")]
    Write {
        /// The command.
        line: String,
        /// The reason.
        reason: std::io::Error,
    },
    /// The engine said something that breaks the protocol.
    #[error("garbage: {0}")]
    Garbage(String),
    /// The engine lacks something the harness needs of it.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A search passed its limit and answered only when told to stop, or not at all.
    #[error("hung: {0}")]
    Hung(String),
}

/// What the engine said in its `uci` handshake.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// `id name`.
    pub name: String,
    /// The options it declares (`option name X type …`), with their type and bounds.
    pub declared: Vec<OptionDecl>,
}

/// One `option name NAME type TYPE [default D] [min A] [max B] [var V]…` declaration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionDecl {
    /// Its name, as the engine spells it.
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: String,
    /// Its default value, if declared (`Fail High`: values may hold spaces).
    pub default: Option<String>,
    /// A spin's smallest value.
    pub min: Option<i64>,
    /// A spin's largest value.
    pub max: Option<i64>,
    /// A combo's values.
    pub vars: Vec<String>,
}

/// The words that start a field of an option declaration.
const FIELDS: [&str; 4] = ["default", "min", "max", "var"];

impl OptionDecl {
    /// Reads the text after `option name `. A field's value runs to the next field word, so
    /// combo values and defaults with spaces (`var Fail High`) stay whole.
    pub fn parse(text: &str) -> Self {
        let (name, rest) = text.split_once(" type ").unwrap_or((text, ""));
        let mut words = rest.split_whitespace();
        let mut decl = Self {
            name: name.trim().to_string(),
            kind: words.next().unwrap_or("").to_string(),
            ..Self::default()
        };
        let mut field: Option<&str> = None;
        let mut value: Vec<&str> = Vec::new();
        let flush = |field: Option<&str>, value: &mut Vec<&str>, decl: &mut Self| {
            let text = value.join(" ");
            match field {
                Some("default") => decl.default = Some(text),
                Some("min") => decl.min = text.parse().ok(),
                Some("max") => decl.max = text.parse().ok(),
                Some("var") => decl.vars.push(text),
                _ => {}
            }
            value.clear();
        };
        for word in words {
            if FIELDS.contains(&word) {
                flush(field, &mut value, &mut decl);
                field = Some(word);
            } else {
                value.push(word);
            }
        }
        flush(field, &mut value, &mut decl);
        decl
    }

    /// `value` as the engine expects it for this option, or what was expected: a check takes
    /// `true`/`false`, a spin an integer within its bounds, a combo one of its values (any case;
    /// sent as the engine spells it), a string anything; a button is pressed (`press`): it is
    /// sent without a value with the other options.
    pub fn accept(&self, value: &str) -> Result<String, String> {
        let name = &self.name;
        match self.kind.as_str() {
            "check" => match value.to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => Ok(v.to_string()),
                _ => Err(format!(
                    "option `{name}` is a check: expected true or false, found `{value}`"
                )),
            },
            "spin" => {
                let n: i64 = value.parse().map_err(|_| {
                    format!("option `{name}` is a spin: expected an integer, found `{value}`")
                })?;
                let (lo, hi) = (self.min.unwrap_or(i64::MIN), self.max.unwrap_or(i64::MAX));
                if n < lo || n > hi {
                    return Err(format!(
                        "option `{name}` is a spin in [{lo}, {hi}]: `{value}` is outside"
                    ));
                }
                Ok(n.to_string())
            }
            "combo" => self
                .vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "option `{name}` is a combo: expected one of {}, found `{value}`",
                        self.vars.join(", ")
                    )
                }),
            "button" => match value.to_ascii_lowercase().as_str() {
                BUTTON_PRESS => Ok(BUTTON_PRESS.to_string()),
                _ => Err(format!(
                    "option `{name}` is a button: expected `{BUTTON_PRESS}` (it is sent without a value), found `{value}`"
                )),
            },
            _ => Ok(value.to_string()),
        }
    }
}

/// The value that presses a `button` option (`--set "uci.Clear Hash=press"`).
pub const BUTTON_PRESS: &str = "press";

/// A running engine.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Name and options from the handshake.
    pub identity: Identity,
}

impl UciEngine {
    /// Starts `path` and completes `uci` … `uciok` within `timeout`.
    pub fn start(path: &Path, timeout: Duration) -> Result<Self, UciError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|reason| UciError::Spawn {
                path: path.to_path_buf(),
                reason,
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Self {
            child,
            stdin,
            lines,
            identity: Identity::default(),
        };
        engine.identity = engine.handshake(timeout).map_err(waited(timeout))?;
        Ok(engine)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<Identity, UciError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        let mut identity = Identity::default();
        loop {
            let line = self.recv(deadline, "uciok")?;
            let line = line.trim();
            if line == "uciok" {
                return Ok(identity);
            }
            if let Some(name) = line.strip_prefix("id name ") {
                identity.name = name.trim().to_string();
            } else if let Some(option) = line.strip_prefix("option name ") {
                let declared = OptionDecl::parse(option);
                identity.declared.push(declared);
            }
            // Anything else (banners, `id author`) is ignored, as the protocol says.
        }
    }

    /// The operating system's process id (to read its CPU time).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        let sent = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        sent.map_err(|reason| match self.wait_exit() {
            // A closed pipe usually means the process is gone: say so, as a read would.
            Some(status) => UciError::Exited {
                status,
                during: format!("before the harness could send `{line}`"),
            },
            None => UciError::Write {
                line: line.to_string(),
                reason,
            },
        })
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant, awaited: &str) -> Result<String, UciError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(UciError::Timeout {
                awaited: awaited.to_string(),
                ms: wait.as_millis(),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(UciError::Exited {
                status: self.wait_exit().unwrap_or_else(|| "stdout closed".into()),
                during: format!("while the harness awaited `{awaited}`"),
            }),
        }
    }

    /// The exit status, if the process ends within half a second (a pipe closes a moment
    /// before the kernel reports the exit).
    fn wait_exit(&mut self) -> Option<String> {
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status.to_string());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// `isready` … `readyok` within `timeout`; other lines before it are ignored.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self
            .recv(deadline, "readyok")
            .map_err(waited(timeout))?
            .trim()
            != "readyok"
        {}
        Ok(())
    }

    /// `setoption name NAME value VALUE`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        let button = self
            .identity
            .declared
            .iter()
            .any(|o| o.name == name && o.kind == "button");
        if button {
            self.send(&format!("setoption name {name}"))
        } else {
            self.send(&format!("setoption name {name} value {value}"))
        }
    }

    /// `ucinewgame` and `isready`: what the harness sends before every position.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }
}

/// A timeout names the whole time allowed, not what was left of it at the last line.
fn waited(timeout: Duration) -> impl Fn(UciError) -> UciError {
    move |e| match e {
        UciError::Timeout { awaited, .. } => UciError::Timeout {
            awaited,
            ms: timeout.as_millis(),
        },
        other => other,
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_keep_values_with_spaces_and_check_what_is_set() {
        // Toga II 3.0's own lines.
        let combo = OptionDecl::parse(
            "NullMove Pruning type combo default Always var Always var Fail High var Never",
        );
        assert_eq!(combo.name, "NullMove Pruning");
        assert_eq!(combo.default.as_deref(), Some("Always"));
        assert_eq!(combo.vars, ["Always", "Fail High", "Never"]);
        assert_eq!(combo.accept("fail high").unwrap(), "Fail High");
        assert!(combo
            .accept("Sometimes")
            .unwrap_err()
            .contains("Always, Fail High, Never"));
        let spin = OptionDecl::parse("Futility Margin type spin default 100 min 0 max 500");
        assert_eq!((spin.min, spin.max), (Some(0), Some(500)));
        assert_eq!(spin.accept("250").unwrap(), "250");
        assert!(spin.accept("501").unwrap_err().contains("[0, 500]"));
        assert!(spin.accept("x").unwrap_err().contains("an integer"));
        let check = OptionDecl::parse("OwnBook type check default true");
        assert_eq!(check.accept("FALSE").unwrap(), "false");
        assert!(check.accept("no").is_err());
        let button = OptionDecl::parse("Clear Hash type button");
        assert_eq!(button.accept("Press").unwrap(), "press");
        assert!(button.accept("x").unwrap_err().contains("expected `press`"));
        let string = OptionDecl::parse("BookFile type string default performance.bin");
        assert_eq!(string.accept("a b.bin").unwrap(), "a b.bin");
    }
}
