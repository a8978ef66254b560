//! Atomic file replacement: write a temporary file in the destination's own
//! folder, fsync it, rename it over the destination, fsync the folder. A
//! reader (or a crash) sees the whole old file or the whole new one, never a
//! mix or a truncation.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// Returns the permission bits of `meta` (Unix mode; 0 elsewhere).
pub(crate) fn mode_of(meta: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0
    }
}

pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        file.set_permissions(fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (file, mode);
        Ok(())
    }
}

/// Creates `path` (which must not exist), writes `bytes`, applies `mode`
/// (else the umask's default) and fsyncs it.
pub(crate) fn create_synced(path: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<()> {
    let mut f = OpenOptions::new().write(true).create_new(true).open(path)?;
    f.write_all(bytes)?;
    if let Some(m) = mode {
        set_mode(&f, m)?;
    }
    f.sync_all()
}

/// Fsyncs a directory, making the names created or renamed in it durable.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Returns the folder holding `path` (`.` for a bare name).
pub(crate) fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Returns the temporary name used to replace `target` in operation `id`:
/// `.<name>.fararoni-<id>.tmp`, next to it.
pub(crate) fn temp_for(target: &Path, id: &str) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parent_of(target).join(temp_name(&name, id))
}

/// Returns the temporary name of the file `name` in operation `id`:
/// `.<name>.fararoni-<id>.tmp`, the name cut to 96 bytes.
pub(crate) fn temp_name(name: &str, id: &str) -> String {
    let mut short = name;
    if short.len() > 96 {
        let mut end = 96;
        while !short.is_char_boundary(end) {
            end -= 1;
        }
        short = &short[..end];
    }
    format!(".{short}.fararoni-{id}.tmp")
}

/// Replaces `target` with `bytes` through the temporary file `tmp` (same
/// folder): write, chmod, fsync, rename, fsync the folder. On failure the
/// temporary file is removed and `target` is as it was.
pub(crate) fn replace_via(
    target: &Path,
    tmp: &Path,
    bytes: &[u8],
    mode: Option<u32>,
) -> io::Result<()> {
    let result = create_synced(tmp, bytes, mode).and_then(|()| fs::rename(tmp, target));
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    result?;
    sync_dir(parent_of(target))
}

/// Atomically replaces (or creates) `target` with `bytes`, keeping the
/// existing file's permission bits. This is the plain atomic write, without
/// kill-switch or backup.
pub fn atomic_write(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let mode = match fs::metadata(target) {
        Ok(m) => Some(mode_of(&m)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let id = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    replace_via(target, &temp_for(target, &id), bytes, mode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_keeps_the_mode() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("script with space.sh");
        fs::write(&f, "old").expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            fs::set_permissions(&f, fs::Permissions::from_mode(0o751)).expect("chmod");
        }
        atomic_write(&f, b"new").expect("atomic write");
        assert_eq!(fs::read(&f).expect("read"), b"new");
        #[cfg(unix)]
        assert_eq!(mode_of(&fs::metadata(&f).expect("meta")), 0o751);
        let left: Vec<_> = fs::read_dir(dir.path()).expect("ls").collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn temp_names_stay_short() {
        let long = "é".repeat(200);
        let t = temp_for(Path::new(&long), "1-2");
        assert!(t.file_name().expect("name").len() < 255);
    }
}
