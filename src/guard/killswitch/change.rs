//! Changes that write several files (a patch, a commit): code a change
//! adds to its other files was moved there, not removed.

use super::super::lang;
use super::super::removal;

/// One file of a change: its path, its content before (none for a new
/// file) and after.
pub type ChangedFile<'a> = (&'a str, Option<&'a [u8]>, &'a [u8]);

/// The code lines a change adds to its files, so that code moved from one
/// file to another is not taken for code removed.
#[derive(Default)]
pub struct Elsewhere(pub(super) removal::Keys);

impl Elsewhere {
    /// Notes what the change does to the file at `path`: the code lines of
    /// `new` that `old` did not have.
    pub fn add(&mut self, path: &str, old: Option<&[u8]>, new: &[u8]) {
        let lang = lang::from_path(path).unwrap_or_else(|| lang::sniff(old.unwrap_or(new)));
        if let Ok(n) = std::str::from_utf8(new) {
            let o = old.and_then(|o| std::str::from_utf8(o).ok()).unwrap_or("");
            removal::added_keys(o, n, lang, &mut self.0);
        }
    }

    /// Returns an [`Elsewhere`] of the other files of a change: every
    /// `(path, old, new)` but the one at `skip`.
    pub fn of_others(files: &[ChangedFile<'_>], skip: usize) -> Elsewhere {
        let mut e = Elsewhere::default();
        for (i, (p, o, n)) in files.iter().enumerate() {
            if i != skip {
                e.add(p, *o, n);
            }
        }
        e
    }
}
