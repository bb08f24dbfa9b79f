//! Reading the files users name (games, records, positions): only regular files, and
//! at most [`MAX_FILE_BYTES`], so that a FIFO, a device such as `/dev/zero` or a
//! directory is refused at once instead of blocking or being read for ever.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

pub use rulesi::syntax::MAX_FILE_BYTES;

/// Why a user's file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system refused (no such file, permission denied...).
    Io(io::Error),
    /// It is not a regular file: what it is (`a directory`, `a FIFO (named pipe)`...).
    NotRegular(&'static str),
    /// It is longer than [`MAX_FILE_BYTES`]; the bytes read, the limit and one more.
    TooLarge(Vec<u8>),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{}", os_reason(e)),
            ReadError::NotRegular(what) => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge(_) => {
                write!(f, "it is larger than the largest accepted, {} MiB", MAX_FILE_BYTES >> 20)
            }
        }
    }
}

/// Reads a file the user named: a regular file (or a link to one) of at most
/// [`MAX_FILE_BYTES`]. Opening does not wait for a writer (a FIFO is opened without
/// blocking, then refused).
pub fn read_user_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if let Some(what) = not_regular(&meta) {
        return Err(ReadError::NotRegular(what));
    }
    read_at_most(file)
}

/// Reads an open regular file, up to one byte past the limit.
fn read_at_most(file: File) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(bytes));
    }
    Ok(bytes)
}

/// What a file is when it is not a regular file, in words; `None` for a regular file.
pub fn not_regular(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a directory")
    } else if t.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if t.is_char_device() {
        Some("a character device")
    } else if t.is_block_device() {
        Some("a block device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        Some("a special file")
    }
}

/// The operating system's reason, without Rust's "(os error N)" suffix.
pub fn os_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused() {
        assert!(matches!(read_user_file(Path::new("/dev/zero")), Err(ReadError::NotRegular("a character device"))));
        assert!(matches!(read_user_file(Path::new("/")), Err(ReadError::NotRegular("a directory"))));
        assert!(matches!(read_user_file(Path::new("/no/such/file")), Err(ReadError::Io(_))));
    }
}
