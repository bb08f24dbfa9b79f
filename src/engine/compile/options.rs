//! Choosing option values: the defaults, a ruleset, then `--option key=value`.

use crate::check::Model;
use crate::check::model::{OptionValue, Value};
use crate::suggest::did_you_mean;

/// Resolves the option values for a game: defaults, then the ruleset's settings, then
/// each `key=value` in order. Errors name the unknown key or value and list the valid ones.
pub fn resolve(model: &Model, ruleset: Option<&str>, settings: &[(String, String)]) -> Result<Vec<Value>, String> {
    let mut values: Vec<Value> = model.options.iter().map(|o| o.default).collect();
    if let Some(name) = ruleset {
        let Some(r) = model.rulesets.iter().find(|r| r.name == name) else {
            let names: Vec<&str> = model.rulesets.iter().map(|r| r.name.as_str()).collect();
            let hint = did_you_mean(name, names.iter().copied())
                .map(|h| format!(" (did you mean `{h}`?)"))
                .unwrap_or_default();
            return Err(if names.is_empty() {
                format!("this game has no rulesets, so there is no ruleset `{name}`")
            } else {
                format!("there is no ruleset `{name}`{hint}; the rulesets are {}", crate::check::quote_list(&names))
            });
        };
        for (o, v) in &r.settings {
            values[*o as usize] = *v;
        }
    }
    for (key, text) in settings {
        let Some(i) = model.options.iter().position(|o| o.name == *key) else {
            let names: Vec<&str> = model.options.iter().map(|o| o.name.as_str()).collect();
            let hint =
                did_you_mean(key, names.iter().copied()).map(|h| format!(" (did you mean `{h}`?)")).unwrap_or_default();
            return Err(if names.is_empty() {
                format!("this game has no options, so there is no option `{key}`")
            } else {
                format!("there is no option `{key}`{hint}; the options are {}", crate::check::quote_list(&names))
            });
        };
        let opt = &model.options[i];
        let value = if let Some(j) = opt.value_index(text) {
            Value::Name(j)
        } else if let Ok(n) = text.parse::<i64>()
            && opt.accepts_number(n)
        {
            Value::Number(n)
        } else {
            let names: Vec<&str> = opt
                .values
                .iter()
                .filter_map(|v| if let OptionValue::Name(n) = v { Some(n.as_str()) } else { None })
                .collect();
            let hint = did_you_mean(text, names.iter().copied())
                .map(|h| format!(" (did you mean `{h}`?)"))
                .unwrap_or_default();
            return Err(format!(
                "option `{key}` has no value `{text}`{hint}; its values are {}",
                opt.describe_values()
            ));
        };
        values[i] = value;
    }
    Ok(values)
}

/// Parses `key=value`.
pub fn parse_setting(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => {
            Ok((k.trim().to_string(), v.trim().to_string()))
        }
        _ => Err(format!("`{s}` is not of the form key=value (e.g. capture=straight_or_120)")),
    }
}
