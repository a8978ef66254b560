//! Changes that write several files (a patch, a commit): code a change
//! adds to its other files was moved there, not removed.
//!
//! The lines every file adds are gathered once, each with the file that
//! adds it, so judging each of `n` files against the `n - 1` others costs
//! one pass over the change, not `n`.

use std::borrow::Cow;

use super::super::lang;
use super::super::removal::{self, Added, Others};
use super::{judge, Report, Thresholds};

/// One file of a change: its path, its content before (none for a new
/// file) and after (empty for a deleted file).
pub type ChangedFile<'a> = (&'a str, Option<&'a [u8]>, &'a [u8]);

/// The code lines the other files of a change add, so that code moved
/// from one file to another is not taken for code removed.
#[derive(Default)]
pub struct Elsewhere<'a> {
    added: Cow<'a, Added>,
    /// The file judged, among those added (its own lines do not count).
    me: Option<u32>,
    /// How many files were added.
    files: u32,
}

impl Elsewhere<'_> {
    /// Notes what the change does to another file, at `path`: the code
    /// lines of `new` that `old` did not have.
    pub fn add(&mut self, path: &str, old: Option<&[u8]>, new: &[u8]) {
        add_to(self.added.to_mut(), self.files, path, old, new);
        self.files = self.files.saturating_add(1);
    }

    /// Returns an [`Elsewhere`] of the other files of a change: every
    /// `(path, old, new)` but the one at `skip`.
    pub fn of_others<'f>(files: &[ChangedFile<'f>], skip: usize) -> Elsewhere<'static> {
        let mut e = Elsewhere::default();
        for f in files {
            e.add(f.0, f.1, f.2);
        }
        e.me = u32::try_from(skip).ok();
        e
    }

    /// The lines of the other files, for the removal judgement of a file
    /// that is `prose` or not.
    pub(super) fn others(&self, prose: bool) -> Others<'_> {
        Others {
            added: &self.added,
            me: self.me,
            prose,
        }
    }
}

/// Adds the code lines `new` has and `old` has not to `added`, as file
/// number `file`; content that is not UTF-8 adds nothing.
fn add_to(added: &mut Added, file: u32, path: &str, old: Option<&[u8]>, new: &[u8]) {
    let lang = lang::of_file(path, old.unwrap_or(new));
    if let Ok(n) = std::str::from_utf8(new) {
        let o = old.and_then(|o| std::str::from_utf8(o).ok()).unwrap_or("");
        removal::added_keys(o, n, lang, file, added);
    }
}

/// Every file of one change (a commit, a multi-file patch), each to be
/// judged with the code the others add counted as moved, not removed.
pub struct Change<'a> {
    files: &'a [ChangedFile<'a>],
    added: Added,
}

impl<'a> Change<'a> {
    /// Gathers what each of `files` adds (nothing for a change of one
    /// file: there is nowhere else).
    pub fn new(files: &'a [ChangedFile<'a>]) -> Change<'a> {
        let mut added = Added::default();
        if files.len() > 1 {
            for (i, f) in files.iter().enumerate() {
                add_to(
                    &mut added,
                    u32::try_from(i).unwrap_or(u32::MAX - 1),
                    f.0,
                    f.1,
                    f.2,
                );
            }
        }
        Change { files, added }
    }

    /// Returns the files of the change.
    pub fn files(&self) -> &'a [ChangedFile<'a>] {
        self.files
    }

    /// Returns what the files other than the one at `i` add.
    pub fn elsewhere(&self, i: usize) -> Elsewhere<'_> {
        Elsewhere {
            added: Cow::Borrowed(&self.added),
            me: u32::try_from(i).ok(),
            files: u32::try_from(self.files.len()).unwrap_or(u32::MAX),
        }
    }

    /// Judges the file at `i` (as [`super::check_in_change`] does) with
    /// what the others add; `None` when there is no file at `i`.
    pub fn check(&self, i: usize, t: &Thresholds) -> Option<Report> {
        let (path, old, new) = *self.files.get(i)?;
        let lang = lang::of_file(path, old.unwrap_or(new));
        Some(judge(lang, old, new, t, true, &self.elsewhere(i)))
    }
}
