//! Helpers shared by the test binaries: running the `rulesi` command, the games of
//! the project, games built from text and positions along random games.
//!
//! Each binary uses some of them, so the ones it does not use are not dead code.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A temporary directory, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new empty directory, named after the test binary's process and `name`.
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rulesi-test-{}-{name}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("make a temporary directory");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path of `name` in the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes a file in the directory; returns its path.
    pub fn write(&self, name: &str, contents: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, contents).expect("write a temporary file");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        // Directories made read-only by a test must be writable again to be removed.
        if let Ok(entries) = std::fs::read_dir(&self.0) {
            for e in entries.flatten() {
                let _ = std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(0o755));
            }
        }
        let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `rulesi ARGS` in the project's folder: (status, stdout, stderr).
pub fn rulesi(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesi"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run the rulesi binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks `text` against the snapshot `snapshots/NAME.snap`.
pub fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name.to_string(), text));
}

/// Every `.game` file in `games/`, sorted (there is at least one).
pub fn games() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("games/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no games in {}", dir.display());
    paths
}

/// Every `.game` file in `games/classic/` (the classic games with published perft
/// counts), sorted.
pub fn classic_games() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join("classic");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("games/classic/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    paths.sort();
    paths
}

/// Every game of `games/`, then every game of `games/classic/`.
pub fn every_game() -> Vec<PathBuf> {
    let mut paths = games();
    paths.extend(classic_games());
    paths
}

/// A game's path from the top of the repository, with `/` between folders
/// (`games/classic/NAME.game`), as the tests' transcripts show it.
pub fn game_label(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The game of `text`, built with its default options.
pub fn build_text(text: &str) -> rulesi::engine::AnyGame {
    let model = rulesi::check_source(text).model.expect("the game checks");
    let values = rulesi::engine::compile::options::resolve(&model, None, &[]).expect("the default options");
    rulesi::engine::build(&model, &values).expect("the game builds")
}

/// Positions along seeded random games, one every `every` turns, `n` of them.
pub fn positions<const W: usize>(
    g: &rulesi::engine::Game<W>,
    seed: u64,
    n: usize,
    every: usize,
) -> Vec<rulesi::engine::State<W>> {
    let mut out = Vec::new();
    let mut rng = rulesi::engine::search::Rng::new(seed);
    let mut sampler = rulesi::engine::Sampler::new();
    while out.len() < n {
        let mut s = g.start();
        for ply in 0.. {
            if ply % every == 0 {
                out.push(s.clone());
            }
            let Some(turn) = g.random_move(&s, &mut rng, &mut sampler).expect("a random move") else { break };
            let turn = turn.to_vec();
            g.play(&mut s, &turn).expect("it plays");
        }
    }
    out.truncate(n);
    out
}
