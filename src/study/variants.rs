//! The variants of a study: every combination of a ruleset and the values of the
//! options varied.

use rulesi::check::model::{Model, Value};
use rulesi::engine::compile::options::{parse_setting, resolve};

/// One variant: a ruleset (or the defaults) and a value for each option varied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The ruleset, or `None` for the game's defaults.
    pub ruleset: Option<String>,
    /// The options varied, `(key, value)`, in the order they were given.
    pub settings: Vec<(String, String)>,
}

impl Variant {
    /// Its name: `RULESET KEY=VALUE KEY=VALUE`, or `defaults`.
    pub fn label(&self) -> String {
        let mut words: Vec<String> = self.ruleset.iter().cloned().collect();
        words.extend(self.settings.iter().map(|(k, v)| format!("{k}={v}")));
        if words.is_empty() { "defaults".to_string() } else { words.join(" ") }
    }

    /// Its option values: the defaults, the ruleset, the options fixed for the whole
    /// study (`fixed`), then the values varied.
    pub fn values(&self, model: &Model, fixed: &[(String, String)]) -> Result<Vec<Value>, String> {
        let settings: Vec<(String, String)> = fixed.iter().chain(&self.settings).cloned().collect();
        resolve(model, self.ruleset.as_deref(), &settings)
    }
}

/// The most variants a study may have.
pub const MAX_VARIANTS: usize = 1000;

/// One `--vary KEY=V1,V2,...`: the option and its values.
pub fn parse_vary(text: &str) -> Result<(String, Vec<String>), String> {
    let (key, values) = parse_setting(text)
        .map_err(|_| format!("`{text}` is not of the form KEY=VALUE,VALUE,... (e.g. size=small,large)"))?;
    let mut list: Vec<String> = Vec::new();
    for v in values.split(',').map(str::trim) {
        if v.is_empty() {
            return Err(format!("`{text}` has an empty value (values are separated by single commas)"));
        }
        if list.iter().any(|w| w == v) {
            return Err(format!("`{text}` gives the value `{v}` twice"));
        }
        list.push(v.to_string());
    }
    Ok((key, list))
}

/// Every combination of a ruleset (each of `rulesets`, or the defaults when there is
/// none) and a value of each option varied, the last option varied fastest. Each
/// ruleset, option and value is checked against the game first: an unknown one is an
/// error (naming those the game has), and so is an option varied twice or also fixed.
pub fn variants(
    model: &Model,
    rulesets: &[String],
    vary: &[(String, Vec<String>)],
    fixed: &[(String, String)],
) -> Result<Vec<Variant>, String> {
    for (i, (key, values)) in vary.iter().enumerate() {
        if vary[..i].iter().any(|(k, _)| k == key) {
            return Err(format!("the option `{key}` is varied twice; give all its values in one --vary"));
        }
        if fixed.iter().any(|(k, _)| k == key) {
            return Err(format!("the option `{key}` is both varied (--vary) and fixed (--option)"));
        }
        for v in values {
            resolve(model, None, &[(key.clone(), v.clone())])?;
        }
    }
    for (i, r) in rulesets.iter().enumerate() {
        if rulesets[..i].contains(r) {
            return Err(format!("the ruleset `{r}` is given twice"));
        }
        resolve(model, Some(r), &[])?;
    }
    resolve(model, None, fixed)?;
    let count = vary.iter().fold(rulesets.len().max(1), |n, (_, values)| n.saturating_mul(values.len()));
    if count > MAX_VARIANTS {
        return Err(format!("{count} variants are too many (at most {MAX_VARIANTS}): vary fewer options or values"));
    }
    let bases: Vec<Option<String>> =
        if rulesets.is_empty() { vec![None] } else { rulesets.iter().cloned().map(Some).collect() };
    let mut out = Vec::new();
    for base in bases {
        let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for (key, values) in vary {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((key.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        out.extend(combos.into_iter().map(|settings| Variant { ruleset: base.clone(), settings }));
    }
    Ok(out)
}
