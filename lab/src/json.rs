//! The layout of every JSON file the harness writes for people and programs alike (manifests,
//! plans, records): one line per top-level key, and one line per element of a top-level array
//! of objects (a match's players, a ladder's rungs), each compact. `grep`, `diff` and `git` show
//! one field or one player per line; the committed studies' manifests take a third of the space
//! of an indented layout. Any JSON reader reads it.

use serde::Serialize;
use serde_json::Value;

/// `value` as JSON text in the layout above, ending with a newline.
pub fn to_lines(value: &impl Serialize) -> String {
    let value = serde_json::to_value(value).expect("the harness's records serialise");
    let Value::Object(map) = value else {
        return compact(&value) + "\n";
    };
    if map.is_empty() {
        return "{}\n".to_string();
    }
    let fields: Vec<String> = map
        .iter()
        .map(|(key, value)| {
            format!(
                "  {}: {}",
                compact(&Value::from(key.as_str())),
                field(value)
            )
        })
        .collect();
    format!("{{\n{}\n}}\n", fields.join(",\n"))
}

/// A top-level value: an array of objects one element per line, anything else on its line.
fn field(value: &Value) -> String {
    match value {
        Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
            let lines: Vec<String> = items
                .iter()
                .map(|i| format!("    {}", compact(i)))
                .collect();
            format!("[\n{}\n  ]", lines.join(",\n"))
        }
        other => compact(other),
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).expect("a JSON value serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_line_per_key_and_per_object_of_a_top_level_array() {
        let value = json!({
            "command": ["harness", "match"],
            "players": [{"id": "p00", "limit": {"nodes": 5}}, {"id": "p01"}],
            "seed": 1,
            "empty": [],
        });
        assert_eq!(
            to_lines(&value),
            "{\n  \"command\": [\"harness\",\"match\"],\n  \"players\": [\n    {\"id\":\"p00\",\"limit\":{\"nodes\":5}},\n    {\"id\":\"p01\"}\n  ],\n  \"seed\": 1,\n  \"empty\": []\n}\n"
        );
        let back: Value = serde_json::from_str(&to_lines(&value)).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn not_an_object_is_one_line() {
        assert_eq!(to_lines(&json!([1, 2])), "[1,2]\n");
        assert_eq!(to_lines(&json!({})), "{}\n");
    }
}
