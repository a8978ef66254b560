//! Verified directory handles. The store's folder is untrusted input: anyone
//! who can write the working tree can plant a symlink, a FIFO or a hard link
//! under `.fararoni/`, or turn a folder on the way to a target into a
//! symlink between our check and our write. Every store path, and every
//! folder on the way to a target, is therefore reached one name at a time
//! from a directory already open ([`Dir`]), never following a symlink, so
//! what was checked is what is used.
//!
//! On Linux a [`Dir`] is a descriptor and every step is an `*at` call with
//! `O_NOFOLLOW`. Elsewhere a portable fallback checks each name with
//! `lstat` before using it by path: it refuses the same things, but cannot
//! close the window between the check and the use.
//!
//! Files are opened non-blocking, so a FIFO planted in place of a file
//! cannot hang the process (a regular file ignores the flag); anything that
//! is not a regular file is refused, and a file written in place (journal,
//! size, lock) must have no other name.
//!
//! Never prints.

use std::ffi::OsString;
use std::fmt;
use std::io;

#[cfg(target_os = "linux")]
pub(crate) use linux::Dir;
#[cfg(not(target_os = "linux"))]
pub(crate) use portable::Dir;

/// Why a name under a verified directory is refused; carried inside an
/// [`io::Error`] so that the store can tell tampering from a failing disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Untrusted(pub(crate) &'static str);

impl fmt::Display for Untrusted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Untrusted {}

/// Returns an error saying why a name is refused.
pub(crate) fn untrusted(why: &'static str) -> io::Error {
    io::Error::other(Untrusted(why))
}

/// Returns why `e` refused a name, when it is such a refusal.
pub(crate) fn why_untrusted(e: &io::Error) -> Option<&'static str> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Untrusted>())
        .map(|u| u.0)
}

/// The reasons, worded once.
pub(crate) mod why {
    /// A symlink where a file or folder of ours should be.
    pub(crate) const SYMLINK: &str = "it is a symlink";
    /// Something else where a folder should be.
    pub(crate) const NOT_A_DIR: &str = "it is not a directory";
    /// A FIFO, socket, device or folder where a file should be.
    pub(crate) const NOT_A_FILE: &str = "it is not a regular file";
    /// A file written in place that has another name somewhere.
    pub(crate) const HARD_LINKED: &str = "it has other hard links";
    /// A folder of the store on another file system than the worktree.
    pub(crate) const OTHER_DEVICE: &str = "it is on another file system than the working tree";
}

/// What a name is, without following it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

/// The metadata of a name, without following it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    /// What it is.
    pub(crate) kind: Kind,
    /// Its size in bytes.
    pub(crate) size: u64,
    /// How many names it has.
    pub(crate) nlink: u64,
    /// Its permission bits.
    pub(crate) mode: u32,
    /// Its device and inode (0 where the platform has none).
    pub(crate) id: (u64, u64),
}

/// How [`Dir::open`] opens a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Read an existing file.
    Read,
    /// Read and append, creating it; it must have no other name.
    Append,
    /// Read and write in place, creating it; it must have no other name.
    Update,
    /// Create a file that must not exist yet.
    CreateNew,
}

/// Checks that `name` is one plain component: not empty, `.` or `..`, no
/// separator, no NUL.
fn check_name(name: &str) -> io::Result<()> {
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name.contains('/')
        || name.contains('\0')
        || (cfg!(windows) && name.contains('\\'));
    if bad {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{name}` is not a single file name"),
        ));
    }
    Ok(())
}

/// Checks an opened file: regular, and for in-place writes, one name only.
fn check_opened(stat: &Stat, access: Access) -> io::Result<()> {
    if stat.kind != Kind::File {
        return Err(untrusted(why::NOT_A_FILE));
    }
    if matches!(access, Access::Append | Access::Update) && stat.nlink > 1 {
        return Err(untrusted(why::HARD_LINKED));
    }
    Ok(())
}

/// The accessors both implementations of `Dir` share: where the
/// directory is (its `path` and `dev` fields), for messages and checks.
macro_rules! where_it_is {
    () => {
        /// Returns the path this directory was reached by (for messages).
        pub(crate) fn path(&self) -> &Path {
            &self.path
        }

        /// Returns the device the directory is on.
        pub(crate) fn dev(&self) -> u64 {
            self.dev
        }

        /// Returns the path of `name` in this directory (for messages).
        pub(crate) fn join(&self, name: &str) -> PathBuf {
            self.path.join(name)
        }
    };
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{CStr, CString, OsString};
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd as _, FromRawFd as _};
    use std::os::unix::ffi::OsStringExt as _;
    use std::path::{Path, PathBuf};

    use super::{check_name, check_opened, untrusted, why, Access, Kind, Stat};

    /// A directory open as a descriptor; every name under it is reached
    /// with an `*at` call that never follows a symlink.
    #[derive(Debug)]
    pub(crate) struct Dir {
        file: File,
        path: PathBuf,
        dev: u64,
    }

    fn cname(name: &str) -> io::Result<CString> {
        check_name(name)?;
        CString::new(name).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
    }

    fn stat_of(st: &libc::stat) -> Stat {
        let kind = match st.st_mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Symlink,
            _ => Kind::Other,
        };
        #[allow(clippy::unnecessary_cast)] // field widths differ by libc
        Stat {
            kind,
            size: st.st_size as u64,
            nlink: st.st_nlink as u64,
            mode: (st.st_mode & 0o7777) as u32,
            id: (st.st_dev as u64, st.st_ino as u64),
        }
    }

    fn fstat(file: &File) -> io::Result<Stat> {
        // SAFETY: `fstat` writes only the plain-data struct it is given.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if unsafe { libc::fstat(file.as_raw_fd(), &mut st) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(stat_of(&st))
    }

    /// Returns the result of a libc call that reports failure with -1.
    fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
        if ret == -1 {
            Err(io::Error::last_os_error())
        } else {
            Ok(ret)
        }
    }

    impl Dir {
        /// Opens the directory at `path` (the working tree's top, or a git
        /// dir: trusted locations, found by git's own rules).
        pub(crate) fn open_root(path: &Path) -> io::Result<Dir> {
            use std::os::unix::fs::OpenOptionsExt as _;
            let file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
                .open(path)?;
            let dev = fstat(&file)?.id.0;
            Ok(Dir {
                file,
                path: path.to_path_buf(),
                dev,
            })
        }

        /// Returns another handle to the same directory (not reopened by
        /// path).
        pub(crate) fn try_clone(&self) -> io::Result<Dir> {
            Ok(Dir {
                file: self.file.try_clone()?,
                path: self.path.clone(),
                dev: self.dev,
            })
        }

        where_it_is!();

        fn openat(&self, name: &CStr, flags: libc::c_int, mode: libc::mode_t) -> io::Result<File> {
            // SAFETY: a plain syscall; the descriptor it returns is owned by
            // the `File` made from it right away.
            let fd = check(unsafe {
                libc::openat(
                    self.file.as_raw_fd(),
                    name.as_ptr(),
                    flags | libc::O_CLOEXEC | libc::O_NOFOLLOW,
                    libc::c_uint::from(mode),
                )
            })?;
            Ok(unsafe { File::from_raw_fd(fd) })
        }

        /// Returns what `name` is, without following it (`None`: absent).
        pub(crate) fn stat(&self, name: &str) -> io::Result<Option<Stat>> {
            let c = cname(name)?;
            // SAFETY: `fstatat` writes only the plain-data struct it is given.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            let ret = unsafe {
                libc::fstatat(
                    self.file.as_raw_fd(),
                    c.as_ptr(),
                    &mut st,
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            };
            match check(ret) {
                Ok(_) => Ok(Some(stat_of(&st))),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            }
        }

        /// The reason a name that failed to open as `wanted` is refused,
        /// when it exists as something else.
        fn refusal(&self, name: &str, e: io::Error, wanted: Kind) -> io::Error {
            match self.stat(name) {
                Ok(Some(s)) if s.kind == Kind::Symlink => untrusted(why::SYMLINK),
                Ok(Some(s)) if s.kind != wanted => untrusted(if wanted == Kind::Dir {
                    why::NOT_A_DIR
                } else {
                    why::NOT_A_FILE
                }),
                _ => e,
            }
        }

        /// Opens the folder `name` (`None`: absent), creating it first when
        /// `create`. A symlink or anything but a folder is refused.
        pub(crate) fn sub(&self, name: &str, create: bool) -> io::Result<Option<Dir>> {
            let c = cname(name)?;
            let open = || self.openat(&c, libc::O_RDONLY | libc::O_DIRECTORY, 0);
            let file = match open() {
                Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                    // SAFETY: a plain syscall on a valid C string.
                    let made =
                        check(unsafe { libc::mkdirat(self.file.as_raw_fd(), c.as_ptr(), 0o777) });
                    match made {
                        Ok(_) => open(),
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => open(),
                        Err(e) => Err(e),
                    }
                }
                other => other,
            };
            match file {
                Ok(file) => {
                    let dev = fstat(&file)?.id.0;
                    Ok(Some(Dir {
                        file,
                        path: self.path.join(name),
                        dev,
                    }))
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(self.refusal(name, e, Kind::Dir)),
            }
        }

        /// Opens the file `name` for `access` (`None`: absent, for `Read`).
        pub(crate) fn open(&self, name: &str, access: Access) -> io::Result<Option<File>> {
            Ok(self.open_stat(name, access)?.map(|(f, _)| f))
        }

        /// Opens the file `name` for `access` and returns it with what it is
        /// (a file created now reports its size as 0 and its mode as 0).
        pub(crate) fn open_stat(
            &self,
            name: &str,
            access: Access,
        ) -> io::Result<Option<(File, Stat)>> {
            let c = cname(name)?;
            let flags = libc::O_NONBLOCK
                | match access {
                    Access::Read => libc::O_RDONLY,
                    Access::Append => libc::O_RDWR | libc::O_APPEND | libc::O_CREAT,
                    Access::Update => libc::O_RDWR | libc::O_CREAT,
                    Access::CreateNew => libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL,
                };
            let file = match self.openat(&c, flags, 0o666) {
                Ok(f) => f,
                Err(e) if e.kind() == io::ErrorKind::NotFound && access == Access::Read => {
                    return Ok(None)
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(e),
                Err(e) => return Err(self.refusal(name, e, Kind::File)),
            };
            if access == Access::CreateNew {
                // O_CREAT | O_EXCL made a new regular file, or failed.
                let stat = Stat {
                    kind: Kind::File,
                    size: 0,
                    nlink: 1,
                    mode: 0,
                    id: (self.dev, 0),
                };
                return Ok(Some((file, stat)));
            }
            let stat = fstat(&file)?;
            check_opened(&stat, access)?;
            Ok(Some((file, stat)))
        }

        /// Renames `from` (here) to `to` in `dir`, replacing what is there.
        pub(crate) fn rename(&self, from: &str, dir: &Dir, to: &str) -> io::Result<()> {
            let (a, b) = (cname(from)?, cname(to)?);
            // SAFETY: a plain syscall on valid C strings.
            check(unsafe {
                libc::renameat(
                    self.file.as_raw_fd(),
                    a.as_ptr(),
                    dir.file.as_raw_fd(),
                    b.as_ptr(),
                )
            })
            .map(drop)
        }

        /// Gives the file `from` (here; a symlink is linked, not followed)
        /// the new name `to` in `dir`.
        pub(crate) fn link(&self, from: &str, dir: &Dir, to: &str) -> io::Result<()> {
            let (a, b) = (cname(from)?, cname(to)?);
            // SAFETY: a plain syscall on valid C strings.
            check(unsafe {
                libc::linkat(
                    self.file.as_raw_fd(),
                    a.as_ptr(),
                    dir.file.as_raw_fd(),
                    b.as_ptr(),
                    0,
                )
            })
            .map(drop)
        }

        /// Removes the name `name` (never a folder, never what a symlink
        /// points to).
        pub(crate) fn unlink(&self, name: &str) -> io::Result<()> {
            let c = cname(name)?;
            // SAFETY: a plain syscall on a valid C string.
            check(unsafe { libc::unlinkat(self.file.as_raw_fd(), c.as_ptr(), 0) }).map(drop)
        }

        /// Returns the names in the directory with what each is. Reads the
        /// descriptor itself with `getdents64` from its start (no second
        /// descriptor, no `DIR` stream: three system calls for a small
        /// folder).
        pub(crate) fn entries(&self) -> io::Result<Vec<(OsString, Kind)>> {
            let fd = self.file.as_raw_fd();
            // SAFETY: a plain syscall on a descriptor we own.
            if unsafe { libc::lseek(fd, 0, libc::SEEK_SET) } == -1 {
                return Err(io::Error::last_os_error());
            }
            let mut buf = vec![0u8; 32 * 1024];
            let mut out = Vec::new();
            loop {
                // SAFETY: the kernel writes at most `buf.len()` bytes of
                // `linux_dirent64` records into `buf`.
                let n = unsafe {
                    libc::syscall(
                        libc::SYS_getdents64,
                        fd,
                        buf.as_mut_ptr().cast::<libc::c_void>(),
                        buf.len(),
                    )
                };
                if n < 0 {
                    return Err(io::Error::last_os_error());
                }
                let n = usize::try_from(n).unwrap_or(0);
                if n == 0 {
                    return Ok(out);
                }
                let mut at = 0;
                // Each record: d_ino u64, d_off i64, d_reclen u16, d_type u8,
                // then the NUL-terminated name.
                while at + 19 <= n {
                    let reclen = usize::from(u16::from_ne_bytes([buf[at + 16], buf[at + 17]]));
                    let d_type = buf[at + 18];
                    let end = (at + reclen).min(n);
                    if reclen == 0 {
                        break;
                    }
                    let name_bytes = &buf[at + 19..end];
                    let len = name_bytes
                        .iter()
                        .position(|&b| b == 0)
                        .unwrap_or(name_bytes.len());
                    let name = &name_bytes[..len];
                    at += reclen;
                    if name == b"." || name == b".." {
                        continue;
                    }
                    let name = OsString::from_vec(name.to_vec());
                    let kind = match d_type {
                        libc::DT_REG => Kind::File,
                        libc::DT_DIR => Kind::Dir,
                        libc::DT_LNK => Kind::Symlink,
                        libc::DT_UNKNOWN => match name.to_str().map(|n| self.stat(n)) {
                            Some(Ok(Some(s))) => s.kind,
                            _ => Kind::Other,
                        },
                        _ => Kind::Other,
                    };
                    out.push((name, kind));
                }
            }
        }

        /// Makes the names created, renamed or removed here durable.
        pub(crate) fn sync(&self) -> io::Result<()> {
            self.file.sync_all()
        }
    }
}

#[cfg(any(not(target_os = "linux"), test))]
#[cfg_attr(target_os = "linux", allow(dead_code))]
mod portable {
    use std::ffi::OsString;
    use std::fs::{self, File, OpenOptions};
    use std::io;
    use std::path::{Path, PathBuf};

    use super::{check_name, check_opened, untrusted, why, Access, Kind, Stat};

    /// A directory by path, each name checked with `lstat` before use.
    #[derive(Debug)]
    pub(crate) struct Dir {
        path: PathBuf,
        dev: u64,
    }

    fn stat_of(m: &fs::Metadata) -> Stat {
        let ft = m.file_type();
        let kind = if ft.is_symlink() {
            Kind::Symlink
        } else if ft.is_dir() {
            Kind::Dir
        } else if ft.is_file() {
            Kind::File
        } else {
            Kind::Other
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Stat {
                kind,
                size: m.len(),
                nlink: m.nlink(),
                mode: m.mode() & 0o7777,
                id: (m.dev(), m.ino()),
            }
        }
        #[cfg(not(unix))]
        {
            Stat {
                kind,
                size: m.len(),
                nlink: 1,
                mode: if m.permissions().readonly() {
                    0o444
                } else {
                    0o644
                },
                id: (0, 0),
            }
        }
    }

    impl Dir {
        /// Opens the directory at `path`.
        pub(crate) fn open_root(path: &Path) -> io::Result<Dir> {
            let m = fs::metadata(path)?;
            if !m.is_dir() {
                return Err(untrusted(why::NOT_A_DIR));
            }
            Ok(Dir {
                path: path.to_path_buf(),
                dev: stat_of(&m).id.0,
            })
        }

        /// Returns another handle to the same directory.
        pub(crate) fn try_clone(&self) -> io::Result<Dir> {
            Ok(Dir {
                path: self.path.clone(),
                dev: self.dev,
            })
        }

        where_it_is!();

        /// Returns what `name` is, without following it.
        pub(crate) fn stat(&self, name: &str) -> io::Result<Option<Stat>> {
            check_name(name)?;
            match fs::symlink_metadata(self.path.join(name)) {
                Ok(m) => Ok(Some(stat_of(&m))),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            }
        }

        /// Opens the folder `name`, creating it first when `create`.
        pub(crate) fn sub(&self, name: &str, create: bool) -> io::Result<Option<Dir>> {
            let mut st = self.stat(name)?;
            if st.is_none() && create {
                match fs::create_dir(self.path.join(name)) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(e),
                }
                st = self.stat(name)?;
            }
            match st {
                None => Ok(None),
                Some(s) if s.kind == Kind::Symlink => Err(untrusted(why::SYMLINK)),
                Some(s) if s.kind != Kind::Dir => Err(untrusted(why::NOT_A_DIR)),
                Some(s) => Ok(Some(Dir {
                    path: self.path.join(name),
                    dev: s.id.0,
                })),
            }
        }

        /// Opens the file `name` for `access`.
        pub(crate) fn open(&self, name: &str, access: Access) -> io::Result<Option<File>> {
            Ok(self.open_stat(name, access)?.map(|(f, _)| f))
        }

        /// Opens the file `name` for `access` and returns it with what it is.
        pub(crate) fn open_stat(
            &self,
            name: &str,
            access: Access,
        ) -> io::Result<Option<(File, Stat)>> {
            match self.stat(name)? {
                Some(s) if s.kind == Kind::Symlink => return Err(untrusted(why::SYMLINK)),
                // Never opened, so a FIFO cannot block.
                Some(s) if s.kind != Kind::File && access != Access::CreateNew => {
                    return Err(untrusted(why::NOT_A_FILE))
                }
                None if access == Access::Read => return Ok(None),
                _ => {}
            }
            let mut o = OpenOptions::new();
            match access {
                Access::Read => o.read(true),
                Access::Append => o.read(true).append(true).create(true),
                Access::Update => o.read(true).write(true).create(true),
                Access::CreateNew => o.write(true).create_new(true),
            };
            let file = o.open(self.path.join(name))?;
            let stat = stat_of(&file.metadata()?);
            check_opened(&stat, access)?;
            Ok(Some((file, stat)))
        }

        /// Renames `from` (here) to `to` in `dir`.
        pub(crate) fn rename(&self, from: &str, dir: &Dir, to: &str) -> io::Result<()> {
            check_name(from)?;
            check_name(to)?;
            fs::rename(self.path.join(from), dir.path.join(to))
        }

        /// Gives the file `from` (here) the new name `to` in `dir`.
        pub(crate) fn link(&self, from: &str, dir: &Dir, to: &str) -> io::Result<()> {
            if self.stat(from)?.is_some_and(|s| s.kind == Kind::Symlink) {
                return Err(untrusted(why::SYMLINK));
            }
            check_name(to)?;
            fs::hard_link(self.path.join(from), dir.path.join(to))
        }

        /// Removes the name `name`.
        pub(crate) fn unlink(&self, name: &str) -> io::Result<()> {
            check_name(name)?;
            fs::remove_file(self.path.join(name))
        }

        /// Returns the names in the directory with what each is.
        pub(crate) fn entries(&self) -> io::Result<Vec<(OsString, Kind)>> {
            let mut out = Vec::new();
            for e in fs::read_dir(&self.path)? {
                let e = e?;
                let ft = e.file_type()?;
                let kind = if ft.is_symlink() {
                    Kind::Symlink
                } else if ft.is_dir() {
                    Kind::Dir
                } else if ft.is_file() {
                    Kind::File
                } else {
                    Kind::Other
                };
                out.push((e.file_name(), kind));
            }
            Ok(out)
        }

        /// Makes the names created, renamed or removed here durable.
        pub(crate) fn sync(&self) -> io::Result<()> {
            #[cfg(unix)]
            {
                File::open(&self.path)?.sync_all()
            }
            #[cfg(not(unix))]
            {
                Ok(())
            }
        }
    }
}

/// Reads the whole of an open file whose size was `size` when opened
/// (reading on to its end if it grew). Sized up front, so the standard
/// library does not probe the file's size and position again.
pub(crate) fn read_all(mut file: std::fs::File, size: u64) -> io::Result<Vec<u8>> {
    use std::io::Read as _;
    let size = usize::try_from(size).unwrap_or(0);
    let mut buf = vec![0u8; size];
    let mut filled = 0;
    while filled < size {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(filled);
    if filled == size {
        // Whatever was appended since it was opened.
        let mut more = [0u8; 4096];
        loop {
            match file.read(&mut more) {
                Ok(0) => break,
                Ok(n) => buf.extend_from_slice(&more[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(buf)
}

/// The names of a directory listing that are UTF-8, with their kinds.
pub(crate) fn utf8_entries(list: Vec<(OsString, Kind)>) -> impl Iterator<Item = (String, Kind)> {
    list.into_iter()
        .filter_map(|(n, k)| n.into_string().ok().map(|n| (n, k)))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The two implementations share no trait (the store uses one of them),
    // so the checks are written once as a macro body over either type.
    macro_rules! checks {
        ($open:expr) => {{
            use std::io::Write as _;
            let outside = tempfile::tempdir().expect("tempdir");
            let dir = tempfile::tempdir().expect("tempdir");
            let root = $open(dir.path()).expect("open root");
            std::fs::write(outside.path().join("victim"), "precious").expect("write");
            // A folder created and reopened; a symlinked one refused.
            let sub = root.sub("store", true).expect("mkdir").expect("exists");
            assert!(root.sub("absent", false).expect("no error").is_none());
            #[cfg(target_os = "linux")]
            {
                std::os::unix::fs::symlink(outside.path(), dir.path().join("link"))
                    .expect("symlink");
                let e = root.sub("link", true).expect_err("symlink refused");
                assert_eq!(why_untrusted(&e), Some(why::SYMLINK));
                std::os::unix::fs::symlink(
                    outside.path().join("victim"),
                    dir.path().join("store/journal"),
                )
                .expect("symlink");
                for access in [Access::Read, Access::Append, Access::Update] {
                    let e = sub.open("journal", access).expect_err("symlink refused");
                    assert_eq!(why_untrusted(&e), Some(why::SYMLINK), "{access:?}");
                }
                assert!(sub.open("journal", Access::CreateNew).is_err());
                // A FIFO is refused without blocking.
                let fifo =
                    std::ffi::CString::new(dir.path().join("store/fifo").to_str().expect("utf-8"))
                        .expect("c string");
                // SAFETY: a plain syscall on a valid C string.
                assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
                for access in [Access::Read, Access::Append, Access::Update] {
                    let e = sub.open("fifo", access).expect_err("fifo refused");
                    assert_eq!(why_untrusted(&e), Some(why::NOT_A_FILE), "{access:?}");
                }
                // A file with another name is not written in place.
                std::fs::hard_link(outside.path().join("victim"), dir.path().join("store/hl"))
                    .expect("hard link");
                let e = sub
                    .open("hl", Access::Append)
                    .expect_err("hard link refused");
                assert_eq!(why_untrusted(&e), Some(why::HARD_LINKED));
                assert!(sub.open("hl", Access::Read).expect("read ok").is_some());
            }
            // Create, append, rename, link, list, unlink.
            let mut f = sub
                .open("a", Access::CreateNew)
                .expect("create")
                .expect("file");
            f.write_all(b"x").expect("write");
            assert!(sub.open("a", Access::CreateNew).is_err(), "exists");
            let mut j = sub
                .open("j", Access::Append)
                .expect("append")
                .expect("file");
            j.write_all(b"line\n").expect("write");
            sub.rename("a", &root, "b").expect("rename");
            root.link("b", &sub, "c").expect("link");
            assert_eq!(sub.stat("c").expect("stat").expect("exists").nlink, 2);
            let names: Vec<String> = utf8_entries(sub.entries().expect("list"))
                .filter(|(_, k)| *k == Kind::File)
                .map(|(n, _)| n)
                .collect();
            assert!(names.contains(&"c".to_string()) && names.contains(&"j".to_string()));
            sub.unlink("c").expect("unlink");
            assert!(sub.stat("c").expect("stat").is_none());
            let read = {
                let (f, st) = root
                    .open_stat("b", Access::Read)
                    .expect("read")
                    .expect("file");
                read_all(f, st.size).expect("read")
            };
            assert_eq!(read, b"x");
            assert!(root.open("..", Access::Read).is_err());
            assert!(root.open("a/b", Access::Read).is_err());
            sub.sync().expect("sync");
            assert_eq!(
                std::fs::read_to_string(outside.path().join("victim")).expect("read"),
                "precious"
            );
        }};
    }

    #[test]
    fn native_refuses_symlinks_fifos_and_hard_links() {
        checks!(super::Dir::open_root);
    }

    #[test]
    fn portable_refuses_symlinks_fifos_and_hard_links() {
        checks!(super::portable::Dir::open_root);
    }
}
