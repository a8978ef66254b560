//! git-fararoni itself (`git-fararoni VERB` or `git fararoni VERB`), run by
//! the agent it guards: reading its state and guarded writes are ordinary
//! work (the README recommends `guard write` to other agents); switching
//! the guard off or rewriting the agents' hook settings is the user's call.

use super::*;

/// What one of our verbs is, for the agent we guard.
#[derive(Debug, Clone, Copy)]
enum Own {
    /// Reads only.
    Read,
    /// Writes, through our own guard or recoverably (backed up first).
    Write,
    /// Never from the agent: the reason.
    Refuse(&'static str),
}

/// Our verbs, longest first within a verb; the first that matches the
/// leading words wins. A verb not listed is judged like an unknown
/// program (the dirty set is saved before it runs).
const OWN: &[(&str, Own)] = &[
    (
        "hooks uninstall",
        Own::Refuse("removes the guard's own hooks, switching the guard off"),
    ),
    (
        "hooks install",
        Own::Refuse("rewrites the agents' hook settings, which decide whether the guard runs"),
    ),
    ("hooks status", Own::Read),
    ("hooks", Own::Read),
    (
        "shadow prune",
        Own::Refuse("deletes backed-up versions from the store undo relies on"),
    ),
    ("shadow list", Own::Read),
    ("shadow show", Own::Read),
    ("shadow diff", Own::Read),
    ("shadow restore", Own::Write),
    ("shadow snapshot", Own::Write),
    ("shadow", Own::Read),
    ("guard check", Own::Read),
    ("guard write", Own::Write),
    ("guard hook", Own::Read),
    ("guard", Own::Read),
    ("saga status", Own::Read),
    ("saga list", Own::Read),
    ("saga", Own::Write),
    ("session", Own::Read),
    ("doctor", Own::Read),
    ("config", Own::Read),
    ("models", Own::Read),
    ("distill", Own::Read),
    ("completions", Own::Read),
    ("parse-tool-calls", Own::Read),
    ("help", Own::Read),
    ("undo", Own::Write),
    ("ask", Own::Write),
];

impl Judge<'_> {
    /// Judges `git-fararoni ARGS…` (`args[0]` is the program).
    pub(super) fn own(&mut self, args: &[Arg]) {
        let mut words: Vec<&str> = Vec::new();
        for a in &args[1..] {
            let Some(w) = a.lit() else {
                self.deny("`git-fararoni` is given a word computed at run time, so the guard cannot tell which of its verbs would run");
                return;
            };
            if w.starts_with('-') {
                if words.is_empty() && matches!(w, "-h" | "--help" | "-V" | "--version") {
                    return;
                }
                continue;
            }
            words.push(w);
        }
        let Some(verb) = words.first() else {
            return;
        };
        // The sub-verb may follow an option's value (`hooks --agent claude
        // uninstall`), which looks like a word: any later word that is a
        // sub-verb of this verb counts, the refused ones first.
        let sub = |refused: bool| {
            OWN.iter()
                .filter(|(key, own)| {
                    key.split_once(' ').is_some_and(|(k, s)| {
                        k == *verb
                            && words[1..].contains(&s)
                            && matches!(own, Own::Refuse(_)) == refused
                    })
                })
                .map(|(key, own)| (*key, *own))
                .next()
        };
        let verdict = sub(true).or_else(|| sub(false)).or_else(|| {
            OWN.iter()
                .find(|(key, _)| key == verb)
                .map(|(k, o)| (*k, *o))
        });
        let joined = verdict.map_or_else(|| verb.to_string(), |(k, _)| k.to_string());
        match verdict.map(|(_, v)| v) {
            Some(Own::Read) => {}
            Some(Own::Write) | None => self.may_write = true,
            Some(Own::Refuse(why)) => self.deny(format!(
                "`git-fararoni {joined}` {why}; that is for the user to run"
            )),
        }
    }
}
