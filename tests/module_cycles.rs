//! The modules of `src/` form no import cycle, but for the one the engine's core still
//! has: a module may use another only if that one does not use it back, directly or
//! through others. Read from the `crate::` paths of each file outside comments and
//! tests (a path names the longest module it starts with).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules of the one cycle left (issue 17): `Game` holds the lowered code, whose
/// closures take the game, and the lowering runs when the game is built. A cycle may
/// only be made of these (and, once it is broken, of fewer).
const CORE: [&str; 8] = [
    "crate::engine::exec::closure",
    "crate::engine::exec::code",
    "crate::engine::exec::context",
    "crate::engine::exec::follow",
    "crate::engine::exec::shifts",
    "crate::engine::exec::state",
    "crate::engine::exec::statement",
    "crate::engine::exec::values",
];

/// Every module of `src/` (by its path, `crate::a::b`) and its file's text, without
/// comments and without its `#[cfg(test)]` part.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, root, out);
                continue;
            }
            let name = path.to_string_lossy().to_string();
            if !name.ends_with(".rs") || name.ends_with("tests.rs") {
                continue;
            }
            let rel = path.strip_prefix(root).expect("under src/").with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().to_string()).collect();
            if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).expect("a readable file");
            let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            let code = code.join("\n");
            let code = code.split("#[cfg(test)]").next().unwrap_or("").to_string();
            out.insert(std::iter::once("crate".to_string()).chain(parts).collect::<Vec<_>>().join("::"), code);
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// Which modules each module uses.
fn uses(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for (m, code) in mods {
        let mut to = BTreeSet::new();
        for (i, _) in code.match_indices("crate::") {
            let path: String =
                code[i..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
            if let Some(k) = (2..=parts.len()).rev().find(|&k| mods.contains_key(&parts[..k].join("::"))) {
                let target = parts[..k].join("::");
                if &target != m {
                    to.insert(target);
                }
            }
        }
        edges.insert(m.clone(), to);
    }
    edges
}

/// The modules `from` reaches through uses.
fn reach(edges: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(m) = stack.pop() {
        for n in edges.get(&m).into_iter().flatten() {
            if seen.insert(n.clone()) {
                stack.push(n.clone());
            }
        }
    }
    seen
}

#[test]
fn no_module_is_in_a_cycle_but_the_cores() {
    let mods = modules();
    assert!(mods.len() > 50, "modules found: {}", mods.len());
    let edges = uses(&mods);
    assert!(edges.values().map(BTreeSet::len).sum::<usize>() > 100, "too few uses read");
    let mut in_cycle = Vec::new();
    for m in mods.keys() {
        if reach(&edges, m).contains(m) && !CORE.contains(&m.as_str()) {
            in_cycle.push(m.clone());
        }
    }
    assert!(in_cycle.is_empty(), "modules in an import cycle: {in_cycle:?}");
    // The test can see a cycle: the core's state and code use each other.
    assert!(reach(&edges, CORE[5]).contains(CORE[5]), "the core's cycle is not seen: is the reading right?");
}
