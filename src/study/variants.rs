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

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        let text = "game \"t\"\nplayers a, b\nboard square 3 by 3\npiece p \"p\"\n\
                    option size = small | large\noption speed = 1..3 default 1\n\
                    ruleset quick { speed = 3 }\nruleset slow {}\n\
                    phase play { place p at empty where size == small or speed > 0 }\n";
        rulesi::check_source(text).model.expect("the test game checks")
    }

    fn vary(key: &str, values: &[&str]) -> (String, Vec<String>) {
        (key.to_string(), values.iter().map(|v| v.to_string()).collect())
    }

    #[test]
    fn every_combination_the_last_option_fastest() {
        let m = model();
        let list = variants(
            &m,
            &["quick".into(), "slow".into()],
            &[vary("size", &["small", "large"]), vary("speed", &["1", "2"])],
            &[],
        )
        .expect("variants");
        let labels: Vec<String> = list.iter().map(Variant::label).collect();
        assert_eq!(
            labels,
            [
                "quick size=small speed=1",
                "quick size=small speed=2",
                "quick size=large speed=1",
                "quick size=large speed=2",
                "slow size=small speed=1",
                "slow size=small speed=2",
                "slow size=large speed=1",
                "slow size=large speed=2"
            ]
        );
        // A value varied overrides the ruleset's.
        assert_eq!(list[0].values(&m, &[]).expect("values")[1], Value::Number(1));
        let none = variants(&m, &[], &[], &[]).expect("variants");
        assert_eq!(none.iter().map(Variant::label).collect::<Vec<_>>(), ["defaults"]);
    }

    #[test]
    fn bad_variants_are_refused() {
        let m = model();
        let err = |r: &[String], v: &[(String, Vec<String>)], f: &[(String, String)]| {
            variants(&m, r, v, f).expect_err("refused")
        };
        assert!(err(&[], &[vary("sise", &["small"])], &[]).contains("there is no option `sise`"));
        assert!(err(&[], &[vary("size", &["tiny"])], &[]).contains("has no value `tiny`"));
        assert!(err(&[], &[vary("speed", &["4"])], &[]).contains("has no value `4`"));
        assert!(err(&["fast".into()], &[], &[]).contains("there is no ruleset `fast`"));
        assert!(err(&["slow".into(), "slow".into()], &[], &[]).contains("given twice"));
        assert!(err(&[], &[vary("size", &["small"]), vary("size", &["large"])], &[]).contains("varied twice"));
        let fixed = [("size".to_string(), "small".to_string())];
        assert!(err(&[], &[vary("size", &["large"])], &fixed).contains("both varied"));
        assert_eq!(parse_vary("size=small, large"), Ok(vary("size", &["small", "large"])));
        assert!(parse_vary("size=small,,large").is_err());
        assert!(parse_vary("size=small,small").is_err());
        assert!(parse_vary("size").is_err());
    }
}
