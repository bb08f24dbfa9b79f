//! The modules of `src/` form no import cycle: a module may use another only if that
//! one does not use it back, directly or through others. Read from the paths of each
//! file outside comments and tests: `crate::` paths, `super::` paths and paths into
//! the module's own children (a path names the longest module it starts with).
//!
//! One kind of cycle is allowed: a module and the modules declared inside it (the
//! files of its folder) that use each other, as a module split into files does (the
//! closures of `closure` and of `closure::lines` call each other). A child that uses
//! another module which uses its parent is a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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
        let parent = m.rsplit_once("::").map_or("crate", |(p, _)| p);
        let children: Vec<&str> = mods
            .keys()
            .filter_map(|k| k.strip_prefix(m.as_str())?.strip_prefix("::"))
            .filter(|rest| !rest.contains("::"))
            .collect();
        let mut to = BTreeSet::new();
        let bytes = code.as_bytes();
        for (i, _) in code.char_indices() {
            // A path starts where no identifier or `::` goes on before it.
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') || !bytes[i].is_ascii_alphabetic() {
                continue;
            }
            let path: String =
                code[i..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            let mut parts: Vec<String> = path.split("::").filter(|p| !p.is_empty()).map(String::from).collect();
            if !path.contains("::") {
                continue;
            }
            match parts[0].as_str() {
                "crate" => {}
                "super" => {
                    parts.splice(..1, parent.split("::").map(String::from));
                }
                "self" => {
                    parts.splice(..1, m.split("::").map(String::from));
                }
                first if children.contains(&first) => {
                    parts.splice(..0, m.split("::").map(String::from));
                }
                _ => continue,
            }
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
fn no_module_is_in_a_cycle() {
    let mods = modules();
    assert!(mods.len() > 50, "modules found: {}", mods.len());
    let edges = uses(&mods);
    assert!(edges.values().map(BTreeSet::len).sum::<usize>() > 100, "too few uses read");
    // Modules in one cycle reach each other; a cycle is allowed when its modules are
    // one module and modules inside it.
    let reaches: BTreeMap<&String, BTreeSet<String>> = mods.keys().map(|m| (m, reach(&edges, m))).collect();
    let mut in_cycle = Vec::new();
    for m in mods.keys() {
        let cycle: Vec<&String> = mods.keys().filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m)).collect();
        let Some(root) = cycle.iter().min_by_key(|n| n.len()) else { continue };
        if !cycle.iter().all(|n| n == root || n.starts_with(&format!("{root}::"))) {
            in_cycle.push(m.clone());
        }
    }
    // The reading sees the uses inside a module split into files.
    let own = "crate::engine::exec::closure";
    assert!(reaches[&own.to_string()].contains(own), "the closures' own cycle is not seen: is the reading right?");
    assert!(in_cycle.is_empty(), "modules in an import cycle: {in_cycle:?}");
}
