//! The intent table: for each intent, the concepts a request must and may
//! contain, its slots, the git sequence it runs, the risk that sequence
//! has when typed, and what to say when the policy refuses it.
//!
//! Rows are tried in order and the first one that explains every word of
//! a request wins, so narrower rows (commit only some paths) come before
//! wider ones (commit everything). The sequence is the argv of each step
//! with placeholders: `{name}`, `{message}`, `{count}` become one word;
//! `{paths}`, `{exclude}` (`:(exclude)PATH` each) and `{work}` (the user's
//! work, `git::pathspec::USER_WORK`) become as many words as they hold;
//! `{store_out}` is `git::pathspec::NOT_STORE`, so paths the user names
//! ("commit only ./") never take our store along.
//! Every argv is judged by the command policy before anything runs.

use super::lexicon::C::{self, *};
use super::Intent;
use crate::policy::Risk;

/// Whether a slot is taken, and whether it must be filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// The intent has no such slot: a word that would fill it is left over.
    No,
    /// May be stated.
    Optional,
    /// Must be stated, or the row does not match.
    Required,
}

/// The slots of a row.
#[derive(Debug, Clone, Copy)]
pub struct Slots {
    /// Paths, relative to where the request is typed.
    pub paths: Need,
    /// A branch or tag name.
    pub name: Need,
    /// How many commits.
    pub count: Need,
    /// A second branch: where a new branch starts, or the branch renamed.
    pub from: Need,
    /// The commit message.
    pub message: Need,
}

const NONE: Slots = Slots {
    paths: Need::No,
    name: Need::No,
    count: Need::No,
    from: Need::No,
    message: Need::No,
};

/// How the executor carries a sequence out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    /// Each step in order, stopping at the first failure.
    Steps,
    /// Stage, check what is staged (never our store, not nothing), commit
    /// with the stated or a generated message, then any further steps;
    /// `git init` first when `init`.
    Commit {
        /// Whether the first step is `git init`.
        init: bool,
    },
}

/// What must hold in the repository before the sequence runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Nothing.
    None,
    /// HEAD has a parent to go back to.
    Undoable,
    /// HEAD is on no remote-tracking branch (amending it rewrites nothing
    /// anyone else has).
    Unpublished,
    /// `{name}` is a local branch.
    LocalBranch,
}

/// A variant of a row chosen by a word of the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// `--force`, `-D`.
    Force,
    /// The commit's changes go too.
    Hard,
    /// The index rather than the working tree.
    Staged,
    /// The commit before the last (`HEAD~1`) rather than the last.
    Previous,
}

/// When a step's argv applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// With the flag.
    If(Flag),
    /// Without the flag.
    Unless(Flag),
    /// With paths stated.
    Paths,
    /// With no paths.
    NoPaths,
    /// With exactly one path.
    OnePath,
    /// With several paths.
    ManyPaths,
    /// With a count.
    Count,
    /// With a name.
    Name,
    /// Without a name.
    NoName,
    /// Without a count.
    NoCount,
    /// With a second branch.
    From,
    /// Without one.
    NoFrom,
}

/// One step of a sequence.
pub type Step = (When, &'static [&'static str]);

/// One row of the table.
#[derive(Debug)]
pub struct Row {
    /// The intent.
    pub intent: Intent,
    /// What it does, for `--explain` and docs/ask.md.
    pub does: &'static str,
    /// Sets of concepts, one of which the request must hold entirely.
    pub needs: &'static [&'static [C]],
    /// Further concepts the request may hold.
    pub may: &'static [C],
    /// Concepts that choose a variant.
    pub flags: &'static [(C, Flag)],
    /// Its slots.
    pub slots: Slots,
    /// The sequence; steps whose condition fails are left out.
    pub steps: &'static [Step],
    /// How it runs.
    pub run: Run,
    /// What must hold first.
    pub check: Check,
    /// The risk of the sequence as the policy judges it when typed.
    pub risk: Risk,
    /// Appended when the policy refuses the sequence: what to do instead.
    pub advice: &'static str,
}

const COMMIT_MAY: &[C] = &[
    Do, All, Changes, ToGit, NoPush, Save, Stage, And, Local, Confirm, Create, New, As, Code,
];

const ADD_ALL: &[&str] = &["git", "add", "--all", "{work}"];

/// The table.
#[rustfmt::skip]
pub const ROWS: &[Row] = &[
    Row {
        intent: Intent::InitCommit,
        does: "initialise a repository, stage everything but .fararoni/ and commit",
        needs: &[&[Init, Commit], &[Create, Repo, Commit], &[Init, FirstCommit], &[Create, Repo, FirstCommit]],
        may: &[Do, All, Changes, Repo, Here, And, New, Create, ToGit, NoPush, Stage, Save, FirstCommit, Code],
        flags: &[],
        slots: Slots { message: Need::Optional, ..NONE },
        steps: &[(When::Always, &["git", "init"]), (When::Always, ADD_ALL), (When::Always, &["git", "commit", "-m", "{message}"])],
        run: Run::Commit { init: true },
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::Push,
        does: "commit everything, then push",
        needs: &[&[Commit, Push], &[Commit, Send, Remote]],
        may: &[Do, All, Changes, And, Remote, Up, Force, ToGit, To, Branch, Current, Stage, Save, Commits, Code],
        flags: &[(Force, Flag::Force)],
        slots: Slots { message: Need::Optional, name: Need::Optional, ..NONE },
        steps: &[
            (When::Always, ADD_ALL),
            (When::Always, &["git", "commit", "-m", "{message}"]),
            (When::Unless(Flag::Force), &["git", "push"]),
            (When::If(Flag::Force), &["git", "push", "--force"]),
        ],
        run: Run::Commit { init: false },
        check: Check::None,
        risk: Risk::Remote,
        advice: "commit with `git fararoni ask \"do the commit\"`, then run `git push` yourself",
    },
    Row {
        intent: Intent::Push,
        does: "push the current branch",
        needs: &[&[Push], &[Send, Remote]],
        may: &[Do, All, Changes, Remote, Up, Force, To, Branch, Current, Commits, Commit, Local, Code],
        flags: &[(Force, Flag::Force)],
        slots: Slots { name: Need::Optional, ..NONE },
        steps: &[
            (When::Unless(Flag::Force), &["git", "push"]),
            (When::If(Flag::Force), &["git", "push", "--force"]),
        ],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::Remote,
        advice: "",
    },
    Row {
        intent: Intent::UndoCommit,
        does: "undo the last commits, keeping their changes staged",
        needs: &[&[Undo, Commits], &[Delete, Last, Commits, Keep], &[Delete, Last, Commits, Lose], &[Delete, Recent, Commits, Keep], &[Delete, Recent, Commits, Lose]],
        may: &[Last, Recent, Commits, Keep, Lose, Do, NumberWord],
        flags: &[(Lose, Flag::Hard)],
        slots: Slots { count: Need::Required, ..NONE },
        steps: &[(When::Unless(Flag::Hard), &["git", "reset", "--soft", "{back}"]), (When::If(Flag::Hard), &["git", "reset", "--hard", "{back}"])],
        run: Run::Steps,
        check: Check::Undoable,
        risk: Risk::LocalWrite,
        advice: "`git fararoni ask \"undo the last 2 commits\"` keeps the changes; run `git reset --hard` yourself if you really mean it",
    },
    Row {
        intent: Intent::UndoCommit,
        does: "undo the last commit, keeping its changes staged",
        needs: &[&[Undo, Commit], &[Undo, Last], &[Delete, Last, Commit, Keep], &[Delete, Last, Commit, Lose]],
        may: &[Last, Commit, Keep, Lose, Do, Current],
        flags: &[(Lose, Flag::Hard)],
        slots: NONE,
        steps: &[(When::Unless(Flag::Hard), &["git", "reset", "--soft", "HEAD~1"]), (When::If(Flag::Hard), &["git", "reset", "--hard", "HEAD~1"])],
        run: Run::Steps,
        check: Check::Undoable,
        risk: Risk::LocalWrite,
        advice: "`git fararoni ask \"undo the last commit\"` keeps the changes; run `git reset --hard HEAD~1` yourself if you really mean it",
    },
    Row {
        intent: Intent::Discard,
        does: "throw away uncommitted changes (always refused)",
        needs: &[&[Discard, Changes], &[Discard, All], &[Delete, Changes], &[Delete, All], &[Discard, Local], &[Discard, DiffQ], &[Delete, DiffQ]],
        may: &[All, Changes, Local, Do, DiffQ, PathPrep, FileNoun],
        flags: &[],
        slots: Slots { paths: Need::Optional, ..NONE },
        steps: &[(When::NoPaths, &["git", "reset", "--hard"]), (When::Paths, &["git", "restore", "--", "{paths}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::Destructive,
        advice: "`git stash` sets them aside recoverably; run `git restore` or `git reset --hard` yourself if you really mean it",
    },
    Row {
        intent: Intent::AmendMessage,
        does: "replace the last commit's message (only if no remote branch has that commit)",
        needs: &[&[Amend, MessageNoun, Commit], &[Amend, Last, Commit], &[Amend, MessageNoun, Last]],
        may: &[Last, Commit, MessageNoun, To, Current, Do],
        flags: &[],
        slots: Slots { message: Need::Required, ..NONE },
        steps: &[(When::Always, &["git", "commit", "--amend", "--only", "-m", "{message}"])],
        run: Run::Steps,
        check: Check::Unpublished,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::CommitExcept,
        does: "stage and commit everything but the given paths (and .fararoni/)",
        needs: &[&[Commit, Except]],
        may: COMMIT_MAY,
        flags: &[],
        slots: Slots { paths: Need::Required, message: Need::Optional, ..NONE },
        steps: &[
            (When::Always, &["git", "add", "--all", "{work}", "{exclude}"]),
            (When::Always, &["git", "commit", "-m", "{message}", "{work}", "{exclude}"]),
        ],
        run: Run::Commit { init: false },
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::CommitPaths,
        does: "stage and commit the given paths only",
        needs: &[&[Commit]],
        may: &[Do, Only, Changes, DiffQ, ToGit, NoPush, Save, Stage, And, Confirm, Create, New, As],
        flags: &[],
        slots: Slots { paths: Need::Required, message: Need::Optional, ..NONE },
        steps: &[
            (When::Always, &["git", "add", "--", "{paths}", "{store_out}"]),
            (When::Always, &["git", "commit", "-m", "{message}", "--", "{paths}", "{store_out}"]),
        ],
        run: Run::Commit { init: false },
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::Commit,
        does: "stage everything but .fararoni/ and commit",
        needs: &[&[Commit], &[Confirm, Changes], &[Confirm, All], &[Confirm, ToGit], &[Save, ToGit], &[CheckIn]],
        may: COMMIT_MAY,
        flags: &[],
        slots: Slots { message: Need::Optional, ..NONE },
        steps: &[(When::Always, ADD_ALL), (When::Always, &["git", "commit", "-m", "{message}"])],
        run: Run::Commit { init: false },
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::Stage,
        does: "stage the given paths",
        needs: &[&[Stage]],
        may: &[ToIndex, Changes, Do, And, Only],
        flags: &[],
        slots: Slots { paths: Need::Required, ..NONE },
        steps: &[(When::Always, &["git", "add", "--", "{paths}", "{store_out}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::Stage,
        does: "stage everything but .fararoni/",
        needs: &[&[Stage, All], &[Stage, Changes]],
        may: &[ToIndex, Changes, All, Do, Local],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, ADD_ALL)],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::Unstage,
        does: "unstage the given paths (the working tree is untouched)",
        needs: &[&[Unstage], &[Delete, FromIndex], &[Pop, FromIndex]],
        may: &[FromIndex, Changes, And],
        flags: &[],
        slots: Slots { paths: Need::Required, ..NONE },
        steps: &[(When::Always, &["git", "restore", "--staged", "--", "{paths}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::Unstage,
        does: "unstage everything (the working tree is untouched)",
        needs: &[&[Unstage, All], &[Unstage, Changes], &[Delete, All, FromIndex], &[Pop, All, FromIndex]],
        may: &[FromIndex, Changes, All, Local],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "restore", "--staged", "--", ":(top)"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::StashPop,
        does: "re-apply the last stash entry and drop it if it applied cleanly",
        needs: &[&[Pop, Stash]],
        may: &[Last, Changes, All, Do, Stash, Local],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "stash", "pop"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::StashApply,
        does: "re-apply the last stash entry, keeping it",
        needs: &[&[Apply, Stash]],
        may: &[Last, Changes, All, Do],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "stash", "apply"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::StashList,
        does: "list stash entries",
        needs: &[&[Stash, List], &[Stash, Show], &[Stash, Which, Exist]],
        may: &[All, Exist, Which, Show, List],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "stash", "list"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::Stash,
        does: "set uncommitted work aside in the stash",
        needs: &[&[Stash], &[Save, Aside]],
        may: &[All, Changes, Aside, Do, Save, Local],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "stash", "push"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::BranchDelete,
        does: "delete a branch that is merged (git refuses an unmerged one)",
        needs: &[&[Delete, Branch], &[Delete, Force]],
        may: &[Merged, Local, Force, Called, Do],
        flags: &[(Force, Flag::Force)],
        slots: Slots { name: Need::Required, ..NONE },
        steps: &[(When::Unless(Flag::Force), &["git", "branch", "--delete", "{name}"]), (When::If(Flag::Force), &["git", "branch", "-D", "{name}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "`git fararoni ask \"delete the branch NAME\"` deletes it once it is merged; run `git branch -D` yourself if you really mean it",
    },
    Row {
        intent: Intent::BranchRename,
        does: "rename a branch",
        needs: &[&[Rename, Branch], &[Amend, NameNoun, Branch], &[Rename, NameNoun, Branch]],
        may: &[To, As, NameNoun, Do, Called, Branch],
        flags: &[],
        slots: Slots { name: Need::Required, from: Need::Required, ..NONE },
        steps: &[(When::Always, &["git", "branch", "--move", "{from}", "{name}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::BranchRename,
        does: "rename the current branch",
        needs: &[&[Rename, Branch], &[Amend, NameNoun, Branch], &[Rename, NameNoun, Branch]],
        may: &[Current, To, As, NameNoun, Do, Called],
        flags: &[],
        slots: Slots { name: Need::Required, ..NONE },
        steps: &[(When::Always, &["git", "branch", "--move", "{name}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::BranchCreate,
        does: "create a branch and switch to it, keeping uncommitted work",
        needs: &[&[Create, Branch], &[New, Branch]],
        may: &[Called, New, Do, Switch, To, Create, And, From],
        flags: &[],
        slots: Slots { name: Need::Required, from: Need::Optional, ..NONE },
        steps: &[(When::NoFrom, &["git", "switch", "--create", "{name}"]), (When::From, &["git", "switch", "--create", "{name}", "{from}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::BranchSwitch,
        does: "switch to a branch, keeping uncommitted work",
        needs: &[&[Switch], &[Go, Branch], &[Go]],
        may: &[Branch, To, Do, Go, Switch, Current],
        flags: &[],
        slots: Slots { name: Need::Required, ..NONE },
        steps: &[(When::Always, &["git", "switch", "{name}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::BranchList,
        does: "list branches, marking the current one",
        needs: &[&[List, Branches], &[Show, Branches], &[Which, Branches], &[Which, Branch, OnBranch], &[Which, Branch, Current],
                 &[Current, Branch], &[Branch, OnBranch], &[Branches]],
        may: &[Which, Exist, OnBranch, Current, All, Local, Show, List, Branch],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "branch"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::Merge,
        does: "merge a local branch into the current one",
        needs: &[&[Merge]],
        may: &[Branch, IntoCurrent, Do, Local],
        flags: &[],
        slots: Slots { name: Need::Required, ..NONE },
        steps: &[(When::Always, &["git", "merge", "--no-edit", "{name}"])],
        run: Run::Steps,
        check: Check::LocalBranch,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::TagCreate,
        does: "tag the current commit (or the one before it)",
        needs: &[&[Tag]],
        may: &[Create, New, Called, As, All, Last, Commit, Do, Current, To],
        flags: &[(Previous, Flag::Previous)],
        slots: Slots { name: Need::Required, ..NONE },
        steps: &[(When::Unless(Flag::Previous), &["git", "tag", "{name}"]), (When::If(Flag::Previous), &["git", "tag", "{name}", "HEAD~1"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::LocalWrite,
        advice: "",
    },
    Row {
        intent: Intent::TagList,
        does: "list tags",
        needs: &[&[List, Tags], &[Show, Tags], &[Which, Tags]],
        may: &[Which, Exist, All, Show, List],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "tag"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::RemoteList,
        does: "list remotes and their URLs",
        needs: &[&[List, Remotes], &[Show, Remotes], &[Which, Remotes]],
        may: &[Which, Exist, All, Show, List],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "remote", "--verbose"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::Diff,
        does: "show what is staged",
        needs: &[&[StagedQ], &[Diff, Staged], &[Show, Staged], &[Changes, Staged]],
        may: &[Show, Changes, Staged, StagedQ, Diff, Which, All],
        flags: &[(Staged, Flag::Staged), (StagedQ, Flag::Staged)],
        slots: Slots { paths: Need::Optional, ..NONE },
        steps: &[(When::NoPaths, &["git", "diff", "--cached"]), (When::Paths, &["git", "diff", "--cached", "--", "{paths}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::Diff,
        does: "show uncommitted changes",
        needs: &[&[Diff], &[Show, Changes], &[DiffQ]],
        may: &[Show, Changes, DiffQ, Diff, PathPrep, FileNoun, Local, All, Current],
        flags: &[],
        slots: Slots { paths: Need::Optional, ..NONE },
        steps: &[(When::NoPaths, &["git", "diff"]), (When::Paths, &["git", "diff", "--", "{paths}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::FileHistory,
        does: "show the commits that changed a file",
        needs: &[&[HistoryQ], &[Log, PathPrep], &[Show, Log], &[Log], &[Commits, PathPrep]],
        may: &[Show, Log, PathPrep, FileNoun, Commits, Which],
        flags: &[],
        slots: Slots { paths: Need::Required, ..NONE },
        steps: &[(When::OnePath, &["git", "log", "--follow", "--", "{paths}"]), (When::ManyPaths, &["git", "log", "--", "{paths}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::Blame,
        does: "show who last changed each line of a file",
        needs: &[&[Blame], &[BlameQ]],
        may: &[Show, PathPrep, FileNoun, Do],
        flags: &[],
        slots: Slots { paths: Need::Required, ..NONE },
        steps: &[(When::OnePath, &["git", "blame", "--", "{paths}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::ShowLast,
        does: "show the last commit (or the one before it)",
        needs: &[&[Last, Commit], &[Previous, Commit]],
        may: &[Show, Which, Exist, All],
        flags: &[(Previous, Flag::Previous)],
        slots: NONE,
        steps: &[(When::Unless(Flag::Previous), &["git", "show", "HEAD"]), (When::If(Flag::Previous), &["git", "show", "HEAD~1"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::Log,
        does: "show the commit history",
        needs: &[&[Log], &[Show, Commits], &[Recent, Commits], &[List, Commits], &[Which, Commits]],
        may: &[Show, Recent, Commits, List, Which, Exist, Last, NumberWord, All],
        flags: &[],
        slots: Slots { count: Need::Optional, ..NONE },
        steps: &[(When::NoCount, &["git", "log"]), (When::Count, &["git", "log", "{count}"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
    Row {
        intent: Intent::Status,
        does: "show the working tree status",
        needs: &[&[Status], &[StatusQ]],
        may: &[Show, Repo, Current, Which, Exist, ToGit, Here],
        flags: &[],
        slots: NONE,
        steps: &[(When::Always, &["git", "status"])],
        run: Run::Steps,
        check: Check::None,
        risk: Risk::ReadOnly,
        advice: "",
    },
];
