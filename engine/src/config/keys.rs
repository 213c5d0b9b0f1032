//! Dotted keys: one field set by its path (`selective.candidate_limit`), as the harness's
//! `--set` and UCI `setoption` do; `on`/`off` switch an optional heuristic.

use super::{ConfigError, SearchConfig};

impl SearchConfig {
    /// Sets one field by its dotted key, as the harness's `--set` and UCI `setoption` do.
    /// `off` turns an optional heuristic off, `on` turns it on with default parameters (one already
    /// on keeps its own); `@FILE` is the TOML table in FILE (a whole section); other values are
    /// read as bool, integer, float, string, `[…]` array or `{…}` table, and serde checks them
    /// against the field.
    ///
    /// ```
    /// let mut c = engine::SearchConfig::fischerle();
    /// c.set("selective.candidate_limit", "4").unwrap();
    /// c.set("killers", "off").unwrap();
    /// c.set("null_move.base", "3").unwrap();
    /// assert_eq!((c.selective.candidate_limit, c.killers.is_none()), (4, true));
    /// assert_eq!(c.null_move.as_ref().unwrap().base, 3);
    /// assert!(c.clone().set("selective.bogus", "1").is_err());
    /// assert!(c.set("see", "maybe").is_err());
    /// ```
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let mut tree = toml::Value::try_from(&*self).expect("a SearchConfig always serialises");
        // The classic evaluation is left out of the TOML; a key inside it starts from it, not
        // from `on`'s (every term on).
        // The same for the classic time manager.
        let eval = toml::Value::try_from(&self.eval).expect("an evaluation always serialises");
        let time = toml::Value::try_from(&self.time).expect("a time manager always serialises");
        if let Some(table) = tree.as_table_mut() {
            table.entry("eval").or_insert(eval);
            table.entry("time").or_insert(time);
        }
        let defaults = toml::Value::try_from(Self::everything_on()).expect("serialises");
        let path: Vec<&str> = key.split('.').collect();
        let unknown = |reason: &str| ConfigError::UnknownKey {
            key: key.to_string(),
            reason: reason.to_string(),
        };
        let (last, parents) = path.split_last().ok_or_else(|| unknown("empty key"))?;
        let mut table = tree.as_table_mut().expect("a struct serialises to a table");
        let mut default = defaults.as_table();
        for part in parents {
            let fallback = default.and_then(|d| d.get(*part)).cloned();
            default = default
                .and_then(|d| d.get(*part))
                .and_then(|v| v.as_table());
            let entry = table.entry(part.to_string());
            let node = match (entry, fallback) {
                (toml::map::Entry::Occupied(o), _) => o.into_mut(),
                (toml::map::Entry::Vacant(v), Some(f)) => v.insert(f),
                (toml::map::Entry::Vacant(_), None) => {
                    return Err(unknown(&format!("no field `{part}`")))
                }
            };
            table = node
                .as_table_mut()
                .ok_or_else(|| unknown(&format!("`{part}` has no sub-keys")))?;
        }
        match value {
            "off" => {
                table.remove(*last);
            }
            // A heuristic already on keeps its parameters: `--set singular.margin=9` then an
            // axis `singular=on,off` compares that margin with off, not the default margin.
            "on" if table.get(*last).is_some_and(|v| v.is_table()) => {}
            "on" => {
                let on = default
                    .and_then(|d| d.get(*last))
                    .filter(|v| v.is_table())
                    .cloned();
                let on = on.ok_or_else(|| unknown("`on` needs an optional heuristic"))?;
                table.insert(last.to_string(), on);
            }
            _ => {
                let parsed = match value.strip_prefix('@') {
                    Some(path) => table_file(path).map_err(|reason| ConfigError::BadValue {
                        key: key.to_string(),
                        value: value.to_string(),
                        reason,
                    })?,
                    None => parse_scalar(value),
                };
                table.insert(last.to_string(), parsed);
            }
        }
        let bad = |reason: String| ConfigError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            reason,
        };
        let updated: Self = tree
            .try_into()
            .map_err(|e: toml::de::Error| bad(e.message().to_string()))?;
        updated.validate().map_err(|e| bad(e.to_string()))?;
        *self = updated;
        Ok(())
    }
}

/// The TOML table in the file at `path`: `KEY=@FILE` sets a whole section from a file (a fitted
/// evaluation, `eval=@eval.toml`).
fn table_file(path: &str) -> Result<toml::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| format!("{path}: {}", e.message()))?;
    Ok(toml::Value::Table(table))
}

/// A command-line value as the TOML scalar it most likely is; `[…]` is an array (a weight
/// `[mg, eg]`), `{…}` an inline table (a whole section, as a grid file's `[set.eval]` gives it).
fn parse_scalar(text: &str) -> toml::Value {
    if text.starts_with('[') || text.starts_with('{') {
        if let Ok(mut t) = toml::from_str::<toml::Table>(&format!("v = {text}")) {
            return t.remove("v").expect("the key just parsed");
        }
    }
    if let Ok(b) = text.parse::<bool>() {
        toml::Value::Boolean(b)
    } else if let Ok(i) = text.parse::<i64>() {
        toml::Value::Integer(i)
    } else if let Ok(f) = text.parse::<f64>() {
        toml::Value::Float(f)
    } else {
        toml::Value::String(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    #[test]
    fn set_reaches_every_kind_of_field() {
        let mut c = SearchConfig::plain();
        c.set("ordering", "fischerle").unwrap();
        c.set("qsearch.promotions", "q").unwrap();
        c.set("qsearch.min_level", "-20").unwrap();
        c.set("tt.size_mb", "4").unwrap();
        c.set("aspiration", "on").unwrap();
        c.set("selective.depth_scaling", "3").unwrap();
        assert_eq!(c.ordering, OrderingScheme::Fischerle);
        assert_eq!(
            (c.qsearch.promotions, c.qsearch.min_level),
            (Promotions::Q, -20)
        );
        assert_eq!(c.tt.as_ref().unwrap().size_mb, 4);
        assert_eq!(
            c.aspiration,
            Some(Aspiration {
                window: 50,
                min_depth: 4,
                one_sided: false,
            })
        );
        assert_eq!(c.selective.depth_scaling, Some(3));
        c.set("tt", "off").unwrap();
        assert_eq!(c.tt, None);
    }

    #[test]
    fn eval_terms_switch_one_at_a_time() {
        let mut c = SearchConfig::fischerle();
        c.set("eval.mobility", "on").unwrap();
        let on = crate::eval::Evaluation::everything_on();
        assert_eq!(c.eval.mobility, on.mobility);
        assert_eq!(c.eval.king_safety, None, "only the term named");
        c.set("eval.tempo.bonus", "[7, 3]").unwrap();
        assert_eq!(
            c.eval.tempo.as_ref().unwrap().bonus,
            crate::eval::Pair::new(7, 3)
        );
        c.set("eval.passed.path", "on").unwrap();
        assert!(c.eval.passed.as_ref().unwrap().path.is_some());
        c.set("eval.material.pawn", "[90, 120]").unwrap();
        assert_eq!(c.eval.material.as_ref().unwrap().pawn.eg, 120);
        for key in [
            "eval.mobility",
            "eval.tempo",
            "eval.passed.path",
            "eval.material",
        ] {
            c.set(key, "off").unwrap();
        }
        assert!(c.eval.is_classic(), "{:?}", c.eval);
        assert_eq!(c, SearchConfig::fischerle());
        assert!(c.set("eval.bogus", "on").is_err());
        let file = std::env::temp_dir().join(format!("eval-{}.toml", std::process::id()));
        std::fs::write(&file, "[tempo]\nbonus = [9, 1]\n").unwrap();
        c.set("eval", &format!("@{}", file.display())).unwrap();
        assert_eq!(
            c.eval.tempo.as_ref().unwrap().bonus,
            crate::eval::Pair::new(9, 1)
        );
        assert!(c.eval.pawns.is_none(), "the file is the whole section");
        let err = c.set("eval", "@/no/such.toml").unwrap_err().to_string();
        assert!(err.contains("cannot read /no/such.toml"), "{err}");
        std::fs::remove_file(file).unwrap();
    }

    #[test]
    fn on_keeps_the_parameters_of_a_heuristic_already_on() {
        let mut c = SearchConfig::modern();
        c.set("singular.margin", "9").unwrap();
        c.set("singular", "on").unwrap();
        assert_eq!(c.singular.as_ref().unwrap().margin, 9);
        c.set("singular", "off").unwrap();
        c.set("singular", "on").unwrap();
        assert_eq!(c.singular, SearchConfig::everything_on().singular);
    }

    #[test]
    fn set_errors_name_the_key_and_the_expectation() {
        let mut c = SearchConfig::fischerle();
        let err = c
            .set("selective.candidate_limit", "-1")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("selective.candidate_limit") && err.contains("-1"),
            "{err}"
        );
        let err = c.set("ordering", "random").unwrap_err().to_string();
        assert!(err.contains("fischerle"), "{err}");
        assert!(matches!(
            c.set("nope.x", "1"),
            Err(ConfigError::UnknownKey { .. })
        ));
        assert!(matches!(
            c.set("see.x", "1"),
            Err(ConfigError::UnknownKey { .. })
        ));
        assert_eq!(c, SearchConfig::fischerle(), "a failed set changes nothing");
    }
}
