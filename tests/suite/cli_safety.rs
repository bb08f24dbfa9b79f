//! End-to-end tests of the command line's safety: files that are not regular files or
//! are too large, numbers out of range, and `rulesi play` never losing a game (`save`
//! never over another record or into a FIFO, Ctrl-C, SIGTERM and SIGHUP saving where
//! they can, a saved file read back before it is trusted).
//!
//! Each run of the binary has a generous time limit: past it the child is killed and
//! the test fails (a hang is the bug these tests look for).

#![cfg(unix)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::common;
use common::TempDir;

/// Past this a run is taken to hang.
const LIMIT: Duration = Duration::from_secs(60);

/// The checker's (and every reading command's) size limit.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn stax() -> String {
    root().join("games/stax.game").display().to_string()
}

/// A FIFO at `path`.
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("a path without NUL");
    // SAFETY: a valid NUL-terminated path.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
    assert_eq!(rc, 0, "mkfifo {}", path.display());
}

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Starts `rulesi ARGS` in `dir` with its standard streams piped and `env` set.
fn spawn(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rulesi"));
    cmd.args(args).current_dir(dir).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run the rulesi binary")
}

/// Waits for a child whose input is written, killing it (and failing) past [`LIMIT`].
fn finish(child: Child, what: &str) -> Run {
    let pid = child.id() as libc::pid_t;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(LIMIT) {
        Ok(out) => {
            let out = out.expect("wait for rulesi");
            Run {
                stdout: String::from_utf8_lossy(&out.stdout).to_string(),
                stderr: String::from_utf8_lossy(&out.stderr).to_string(),
                code: out.status.code().unwrap_or(-1),
            }
        }
        Err(_) => {
            // SAFETY: kill with a pid of our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("`rulesi {what}` did not end within {LIMIT:?}");
        }
    }
}

/// Runs `rulesi ARGS` in `dir` with `input` on standard input.
fn rulesi_env(dir: &Path, args: &[&str], input: &str, env: &[(&str, &Path)]) -> Run {
    let mut child = spawn(dir, args, env);
    let mut stdin = child.stdin.take().expect("stdin");
    // A program that ends early closes its input: not an error here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    finish(child, &args.join(" "))
}

fn rulesi(dir: &Path, args: &[&str], input: &str) -> Run {
    rulesi_env(dir, args, input, &[])
}

/// A record of a game of stax with one move, written at `path`.
fn a_record(path: &Path) {
    std::fs::write(path, format!("rulesi record 1\ngame {}\nmoves\nc3-d4\n", stax())).expect("write a record");
}

/// Every command that reads a file, with `F` standing for the file under test.
fn reading_commands(dir: &TempDir) -> Vec<Vec<String>> {
    let record = dir.join("good.record");
    a_record(&record);
    let (g, r) = (stax(), record.display().to_string());
    let lines = [
        "check F",
        "play F",
        "play --load F",
        "replay F",
        "replay R --game F",
        "perft F 1",
        "perft G 1 --position F",
        "bench F --playouts 1",
        "bench G --playouts 1 --position F",
        "match F --games 1 --max-plies 2",
        "draw F",
        "draw G --position F",
        "explain F",
    ];
    lines.iter().map(|l| l.split(' ').map(|w| w.replace('G', &g).replace('R', &r)).collect::<Vec<String>>()).collect()
}

/// A FIFO, `/dev/zero` and a directory given to any command that reads a file are
/// refused at once, with what they are, and exit status 1.
#[test]
fn special_files_are_refused_by_every_reading_command() {
    let dir = TempDir::new("special");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let sub = dir.join("sub.game");
    std::fs::create_dir(&sub).expect("make a directory");
    for (file, what) in [(&fifo, "a FIFO"), (&PathBuf::from("/dev/zero"), "a character device"), (&sub, "a directory")]
    {
        for command in reading_commands(&dir) {
            let args: Vec<String> = command.iter().map(|w| w.replace('F', &file.display().to_string())).collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = rulesi(dir.path(), &args, "");
            assert_eq!(run.code, 1, "{args:?}: {}{}", run.stdout, run.stderr);
            assert!(run.stderr.contains(&format!("it is {what}")), "{args:?}: {}", run.stderr);
            assert!(run.stderr.contains("not a regular file"), "{args:?}: {}", run.stderr);
        }
    }
}

/// A file over 16 MiB is refused by every command that reads one (without reading it
/// all); `check` reports it as its `file-too-large` diagnostic.
#[test]
fn files_over_the_size_limit_are_refused_by_every_reading_command() {
    let dir = TempDir::new("huge");
    let huge = dir.join("huge");
    // A sparse file: regular, and as long as the limit and one byte.
    std::fs::File::create(&huge).and_then(|f| f.set_len(MAX_FILE_BYTES + 1)).expect("make a large file");
    for command in reading_commands(&dir) {
        let args: Vec<String> = command.iter().map(|w| w.replace('F', &huge.display().to_string())).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = rulesi(dir.path(), &args, "");
        assert_eq!(run.code, 1, "{args:?}: {}{}", run.stdout, run.stderr);
        let said = if args[0] == "check" {
            "larger than the largest accepted"
        } else {
            "larger than the largest accepted, 16 MiB"
        };
        assert!(run.stderr.contains(said), "{args:?}: {}", run.stderr);
    }
    // At the limit exactly, the file is read (and found not to be a game or a record).
    std::fs::File::options().write(true).open(&huge).and_then(|f| f.set_len(MAX_FILE_BYTES)).expect("shrink it");
    let run = rulesi(dir.path(), &["replay", &huge.display().to_string()], "");
    assert_eq!(run.code, 1);
    assert!(!run.stderr.contains("larger than"), "{}", run.stderr);
}

/// Every numeric flag out of its range is a usage error (status 2) that says the range.
#[test]
fn numbers_out_of_range_are_usage_errors() {
    let dir = TempDir::new("numbers");
    let g = stax();
    let g = g.as_str();
    let cases: &[(&[&str], &str)] = &[
        (&["bench", g, "--seconds", "inf"], "at most 86400"),
        (&["bench", g, "--seconds", "1e19"], "at most 86400"),
        (&["bench", g, "--seconds", "-1"], "more than 0"),
        (&["bench", g, "--seconds", "nan"], "more than 0"),
        (&["bench", g, "--seconds", "0"], "more than 0"),
        (&["bench", g, "--playouts", "0"], "1..=1000000"),
        (&["bench", g, "--playouts", "1000001"], "1..=1000000"),
        (&["bench", g, "--max-plies", "0"], "1..=1000000"),
        (&["bench", g, "--max-plies", "-5"], "1..=1000000"),
        (&["perft", g, "0"], "1..=1000"),
        (&["perft", g, "1001"], "1..=1000"),
        (&["perft", g, "1", "--threads", "257"], "0..=256"),
        (&["bench", g, "--threads", "-1"], "0..=256"),
        (&["match", g, "--games", "0"], "1..=1000000"),
        (&["match", g, "--max-plies", "0"], "1..=1000000"),
        (&["match", g, "--playout-plies", "0"], "1..=1000000"),
        (&["match", g, "--think", "3601s"], "from 1ms to 3600s"),
        (&["match", g, "--think", "1000000001"], "from 1 to 1000000000"),
        (&["play", g, "--think", "3600001ms"], "from 1ms to 3600s"),
        (&["play", g, "--think", "1e300ms"], "from 1ms to 3600s"),
        (&["play", g, "--think", "infs"], "from 1ms to 3600s"),
        (&["play", g, "--think", "0"], "from 1 to 1000000000"),
        (&["play", g, "--playout-plies", "0"], "1..=1000000"),
        (&["play", g, "--playout-plies", "1000001"], "1..=1000000"),
    ];
    for (args, range) in cases {
        let run = rulesi(dir.path(), args, "quit\n");
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(range), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("invalid value"), "{args:?}: {}", run.stderr);
    }
    // The bounds themselves are accepted.
    let run = rulesi(dir.path(), &["bench", g, "--playouts", "1", "--max-plies", "1000000"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = rulesi(dir.path(), &["perft", g, "1", "--option", "first=red"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// `save` replaces only this game's record (the one it was loaded from or saved to);
/// when standard input is not a terminal another record, or notes that start like one,
/// are left alone and the game goes on.
#[test]
fn save_does_not_overwrite_another_record() {
    let dir = TempDir::new("foreign");
    let g = stax();
    let other = dir.join("other.record");
    a_record(&other);
    let before = std::fs::read(&other).expect("read it");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "rulesi record 1\nmy notes about the game\n").expect("write notes");
    let run = rulesi(dir.path(), &["play", &g], "a3-b4\nsave other.record\nsave notes.txt\nmoves\nsave mine.record\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("other.record holds a record this game was neither loaded from nor saved to: not overwritten"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("notes.txt holds a record"), "{}", run.stdout);
    assert_eq!(std::fs::read(&other).expect("read it"), before, "the other record is untouched");
    assert!(std::fs::read_to_string(&notes).expect("read it").contains("my notes"));
    assert!(run.stdout.contains("legal moves"), "the game went on: {}", run.stdout);
    assert!(run.stdout.contains("saved 1 move to mine.record"), "{}", run.stdout);

    // The record saved in this session, and the one loaded, are replaced.
    let run = rulesi(dir.path(), &["play", &g], "a3-b4\nsave new.record\nb6-a5\nsave new.record\n");
    assert!(run.stdout.contains("saved 2 moves to new.record"), "{}", run.stdout);
    let run = rulesi(dir.path(), &["play", "--load", "other.record"], "b6-a5\nsave other.record\n");
    assert!(run.stdout.contains("saved 2 moves to other.record"), "{}", run.stdout);
    assert!(std::fs::read_to_string(&other).expect("read it").ends_with("c3-d4\nb6-a5\n"));
    // Not a record at all: refused as before.
    std::fs::write(dir.join("plain.txt"), "hello\n").expect("write");
    let run = rulesi(dir.path(), &["play", &g], "a3-b4\nsave plain.txt\n");
    assert!(run.stdout.contains("plain.txt exists and is not a rulesi record"), "{}", run.stdout);
}

/// `save` to a FIFO, a device or a directory is refused at once (it neither hangs nor
/// reads for ever), and the game goes on.
#[test]
fn save_refuses_special_files_at_once() {
    let dir = TempDir::new("savefifo");
    mkfifo(&dir.join("fifo"));
    let run = rulesi(
        dir.path(),
        &["play", &stax()],
        "a3-b4\nsave fifo\nsave /dev/zero\nsave /dev/null\nsave .\nsave ok.record\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    for said in [
        "cannot save to fifo: it is a FIFO (named pipe), not a regular file",
        "cannot save to /dev/zero: it is a character device, not a regular file",
        "cannot save to /dev/null: it is a character device, not a regular file",
        "cannot save to .: it is a directory, not a regular file",
        "saved 1 move to ok.record",
    ] {
        assert!(run.stdout.contains(said), "{said}: {}", run.stdout);
    }
}

/// A directory where no file can be created: a read-only one, or when the tests run
/// as root (who may write anywhere) `/sys` or `/proc`.
fn unwritable(dir: &TempDir) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let ro = dir.join("read-only");
    std::fs::create_dir(&ro).expect("make a directory");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).expect("make it read-only");
    for candidate in [ro, PathBuf::from("/sys"), PathBuf::from("/proc")] {
        let probe = candidate.join("rulesi-probe");
        if std::fs::File::create(&probe).is_err() {
            return candidate;
        }
        let _ = std::fs::remove_file(&probe);
    }
    panic!("no directory here refuses new files");
}

/// `rulesi play` running with its input kept open, its output collected as it comes.
struct Live {
    child: Child,
    stdin: std::process::ChildStdin,
    seen: Arc<Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
}

impl Live {
    /// Starts `rulesi ARGS` in `dir` with `input` on standard input.
    fn start(dir: &Path, args: &[&str], input: &str, env: &[(&str, &Path)]) -> Live {
        let mut child = spawn(dir, args, env);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write the script");
        let seen = Arc::new(Mutex::new(String::new()));
        let mut stdout = child.stdout.take().expect("stdout");
        let reader = {
            let seen = Arc::clone(&seen);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stdout.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    seen.lock().expect("lock").push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            })
        };
        Live { child, stdin, seen, reader }
    }

    /// Waits until the output shows `text`.
    fn wait_for(&mut self, text: &str) {
        let start = Instant::now();
        while !self.seen.lock().expect("lock").contains(text) {
            if start.elapsed() > LIMIT {
                let _ = self.child.kill();
                panic!("never saw `{text}`: {}", self.seen.lock().expect("lock"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends `signal` and waits for the end.
    fn signal(mut self, signal: i32) -> Run {
        // SAFETY: kill with a pid of our own child, still running (its input is open).
        let rc = unsafe { libc::kill(self.child.id() as libc::pid_t, signal) };
        assert_eq!(rc, 0);
        self.child.stdout = None;
        let run = finish(self.child, "play (signalled)");
        drop(self.stdin);
        self.reader.join().expect("the reader");
        let stdout = self.seen.lock().expect("lock").clone();
        Run { stdout, ..run }
    }
}

/// Starts `rulesi ARGS` in `dir` with `input` on standard input (kept open), waits until
/// its output shows `wait_for`, then sends it `signal`.
fn signal_after(dir: &Path, args: &[&str], input: &str, env: &[(&str, &Path)], wait_for: &str, signal: i32) -> Run {
    let mut live = Live::start(dir, args, input, env);
    live.wait_for(wait_for);
    live.signal(signal)
}

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP in a directory that cannot be written save the
/// game in the user's data directory, `$XDG_DATA_HOME/rulesi`, and say so; when that
/// cannot be written either, in the temporary directory.
#[test]
fn signals_save_the_game_elsewhere_when_the_directory_is_read_only() {
    let dir = TempDir::new("signals");
    let cwd = unwritable(&dir);
    let data = dir.join("data");
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).expect("make a directory");
    let g = stax();
    for (signal, name) in [(libc::SIGINT, "INT"), (libc::SIGTERM, "TERM"), (libc::SIGHUP, "HUP")] {
        let env = [("XDG_DATA_HOME", data.as_path()), ("TMPDIR", tmp.as_path())];
        let run = signal_after(&cwd, &["play", &g], "c3-d4\n", &env, "move 2 ", signal);
        assert_eq!(run.code, 130, "SIG{name}: {}", run.stderr);
        let saved = data.join("rulesi");
        assert!(run.stderr.contains(&format!("the game is saved in {}", saved.display())), "SIG{name}: {}", run.stderr);
        assert!(run.stderr.contains("cannot write in the current directory"), "SIG{name}: {}", run.stderr);
        let files: Vec<PathBuf> =
            std::fs::read_dir(&saved).expect("the data directory").flatten().map(|e| e.path()).collect();
        assert!(!files.is_empty());
        for f in &files {
            let text = std::fs::read_to_string(f).expect("read the autosave");
            assert!(text.ends_with("moves\nc3-d4\n"), "{text}");
            assert!(text.contains(&format!("game {g}\n")), "the game by its full path: {text}");
        }
        // The saved game continues.
        let again = rulesi(dir.path(), &["play", "--load", &files[0].display().to_string()], "quit\n");
        assert!(again.stdout.contains("loaded 1 of the 1 moves"), "{}{}", again.stdout, again.stderr);
    }
    // The data directory cannot be made (its parent is a file): the temporary directory.
    let file = dir.join("a-file");
    std::fs::write(&file, "").expect("write");
    let env = [("XDG_DATA_HOME", file.as_path()), ("TMPDIR", tmp.as_path())];
    let run = signal_after(&cwd, &["play", &g], "c3-d4\nb6-a5\n", &env, "move 3 ", libc::SIGTERM);
    assert_eq!(run.code, 130, "{}", run.stderr);
    let autosave = tmp.join("rulesi-autosave.record");
    assert!(run.stderr.contains(&format!("the game is saved in {}", autosave.display())), "{}", run.stderr);
    assert!(std::fs::read_to_string(&autosave).expect("the autosave").ends_with("moves\nc3-d4\nb6-a5\n"));
}

/// After `save x.record`, Ctrl-C reads the file back: deleted, it is written again;
/// changed by someone else, it is left alone and the game saved in a new file.
#[test]
fn a_saved_record_is_read_back_before_it_is_trusted() {
    let dir = TempDir::new("readback");
    let g = stax();
    let x = dir.join("x.record");

    // Saved and untouched: nothing more is written.
    let run = signal_after(dir.path(), &["play", &g], "c3-d4\nsave x.record\n", &[], "saved 1 move", libc::SIGINT);
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(run.stderr.contains("interrupted: the game is saved in x.record\n"), "{}", run.stderr);
    assert!(!dir.join("rulesi-autosave.record").exists());
    let saved = std::fs::read_to_string(&x).expect("the record");

    // Deleted after the save: written again.
    std::fs::remove_file(&x).expect("remove");
    let mut live = Live::start(dir.path(), &["play", &g], "c3-d4\nsave x.record\n", &[]);
    live.wait_for("saved 1 move");
    std::fs::remove_file(&x).expect("delete the record behind rulesi's back");
    let run = live.signal(libc::SIGINT);
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(
        run.stderr.contains("the game is saved in x.record (written again: the file had been deleted)"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&x).expect("written again"), saved);
    assert!(!dir.join("rulesi-autosave.record").exists());

    // Changed after loading: left as it is, the game saved in a new file.
    let mut live = Live::start(dir.path(), &["play", "--load", "x.record"], "moves\n", &[]);
    live.wait_for("legal moves");
    let edited = "rulesi record 1\n# edited by hand\n";
    std::fs::write(&x, edited).expect("edit the record behind rulesi's back");
    let run = live.signal(libc::SIGINT);
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(run.stderr.contains("the game is saved in rulesi-autosave.record"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&x).expect("the edited record"), edited);
    let autosave = std::fs::read_to_string(dir.join("rulesi-autosave.record")).expect("the autosave");
    assert!(autosave.ends_with("moves\nc3-d4\n"), "{autosave}");
}

/// At a terminal, `save` over another record asks first: `y` replaces it, anything
/// else leaves it (standard input is a pseudo-terminal here).
#[test]
fn save_asks_before_replacing_another_record_at_a_terminal() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let dir = TempDir::new("confirm");
    let other = dir.join("other.record");
    for (answer, replaced) in [("n", false), ("y", true)] {
        a_record(&other);
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two descriptors we then own; the other arguments may be null.
        let rc =
            unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
        assert_eq!(rc, 0, "openpty");
        // SAFETY: both descriptors were just opened and are owned here only.
        let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let child = Command::new(env!("CARGO_BIN_EXE_rulesi"))
            .args(["play", &stax(), "--color", "never"])
            .current_dir(dir.path())
            .stdin(Stdio::from(slave))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run the rulesi binary");
        let mut terminal = std::fs::File::from(master);
        terminal.write_all(format!("a3-b4\nsave other.record\n{answer}\nquit\n").as_bytes()).expect("type");
        let run = finish(child, "play at a terminal");
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("replace it? [y/N]"), "{}", run.stdout);
        let text = std::fs::read_to_string(&other).expect("the record");
        assert_eq!(text.ends_with("moves\na3-b4\n"), replaced, "{answer}: {text}");
        assert_eq!(run.stdout.contains("not saved"), !replaced, "{}", run.stdout);
    }
}
