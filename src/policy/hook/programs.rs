//! What the judge knows about programs, as tables: which only read, which
//! run another command (and how to find it), which interpret inline code,
//! which destroy or change files, which fetch from the network or hand out
//! a shell. A program in none of them is "another program": allowed
//! (after the dirty-set snapshot) unless `fararoni.hook.unknownPrograms`
//! is `deny`.

/// How the judge treats a program.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Reads only (or changes only the shell's own state).
    ReadOnly,
    /// Runs the command that follows its own options.
    Wrapper(&'static Wrapper),
    /// A shell: `-c STRING` is a command line; stdin may be one.
    Shell,
    /// `eval`, `trap`: its words joined are a command line.
    Eval,
    /// `xargs`.
    Xargs,
    /// GNU `parallel`: a command template filled from `:::` words, files
    /// or stdin, or (with no template) the words themselves as commands.
    Parallel,
    /// `busybox`, `toybox`: the first word is the program (the applet).
    Multicall,
    /// `pwsh -c`, `powershell -Command`, `cmd /c`: a command string in
    /// another shell's language.
    WindowsShell,
    /// `find`.
    Find,
    /// `ssh HOST CMD`, `watch CMD`, `su -c CMD`: joined words are a
    /// command line run elsewhere (judged as if here).
    Remote,
    /// Runs text it is given as commands in ways too varied to read
    /// exactly: a terminal multiplexer's shell-command, `script -c`,
    /// entr's utility, at's stdin. Whatever command its arguments could
    /// hold is judged.
    Runner,
    /// `git`.
    Git,
    /// An interpreter of inline code.
    Interpreter(Lang),
    /// Deletes, overwrites or changes the files it is given.
    Files,
    /// Fetches from the network (piped into a shell: vetoed).
    Fetcher,
    /// Can hand out a shell to the network (`nc -e`, `socat EXEC:`).
    Listener,
    /// `cd`, `pushd`, `popd`: moves the judge's cwd.
    Cd,
    /// Formats, partitions or wipes disks (`mkfs.*`, `wipefs`, `fdisk`):
    /// only its listing options read.
    Disk,
    /// `alias NAME=VALUE`.
    Alias,
    /// `crontab`: only `-l` reads.
    Crontab,
    /// `source FILE`, `. FILE`: runs a script the guard cannot see.
    Source,
}

/// The language of inline code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Python.
    Python,
    /// JavaScript (node, deno, bun).
    Node,
    /// Perl.
    Perl,
    /// Ruby.
    Ruby,
    /// PHP.
    Php,
}

/// How a wrapper's own arguments end and the wrapped command starts.
#[derive(Debug)]
pub struct Wrapper {
    /// Options that take the next word as their value (short or long).
    pub with_value: &'static [&'static str],
    /// Plain words the wrapper takes before the command (`timeout 5`).
    pub positionals: usize,
    /// Options after which there is no command to run (`command -v`).
    pub no_command: &'static [&'static str],
    /// Options whose value is a command line (`npx -c`, `flock -c`).
    pub command_string: &'static [&'static str],
    /// Whether `NAME=VALUE` words before the command set its environment
    /// (`sudo GIT_PAGER=… git log`), as they do for `env`.
    pub assignments: bool,
    /// The sub-commands that run the command (`uv run`, `npm exec`);
    /// empty when the wrapper always does. With another sub-command the
    /// program is just another program.
    pub verbs: &'static [&'static str],
    /// Whether the command runs in another folder (chroot's new root,
    /// systemd-run's unit: `/` or the home): its relative paths are not
    /// the ones here.
    pub moves_cwd: bool,
    /// Options after which the command's words are joined and run by a
    /// shell (`sudo -s CMD`, `sudo -i CMD`).
    pub shell_flags: &'static [&'static str],
}

const SUDO: Wrapper = Wrapper {
    with_value: &[
        "-u",
        "--user",
        "-g",
        "--group",
        "-h",
        "--host",
        "-p",
        "--prompt",
        "-C",
        "--close-from",
        "-D",
        "--chdir",
        "-r",
        "--role",
        "-t",
        "--type",
        "-T",
        "--command-timeout",
        "-U",
        "--other-user",
        "-R",
        "--chroot",
    ],
    positionals: 0,
    // `-k` with a command runs it (credentials forgotten first).
    no_command: &["-l", "--list", "-v", "--validate", "-K", "-V", "--version"],
    command_string: &[],
    assignments: true,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &["-s", "--shell", "-i", "--login"],
};
const DOAS: Wrapper = Wrapper {
    with_value: &["-u", "-C"],
    positionals: 0,
    no_command: &[],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const TIMEOUT: Wrapper = Wrapper {
    with_value: &["-s", "--signal", "-k", "--kill-after"],
    positionals: 1,
    no_command: &["--help", "--version"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const NICE: Wrapper = Wrapper {
    with_value: &["-n", "--adjustment"],
    positionals: 0,
    no_command: &["--help", "--version"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
/// GNU parallel's `niceload`: runs its command under a load limit.
const NICELOAD: Wrapper = Wrapper {
    with_value: &[
        "-n",
        "--nice",
        "-f",
        "--factor",
        "-I",
        "--io",
        "-L",
        "--load",
        "-m",
        "--mem",
        "-p",
        "--pid",
        "--prg",
        "-t",
        "--recheck",
        "-s",
        "--suspend",
        "--sensor",
        "--run-io",
        "--ri",
        "--run-load",
        "--rl",
        "--run-mem",
        "--rm",
        "--start-io",
        "--si",
        "--start-load",
        "--sl",
        "--start-mem",
        "--sm",
    ],
    positionals: 0,
    no_command: &["--help", "-h", "--version", "-V"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const PLAIN: Wrapper = Wrapper {
    with_value: &[],
    positionals: 0,
    no_command: &["--help", "--version"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const TIME: Wrapper = Wrapper {
    with_value: &["-f", "--format", "-o", "--output"],
    positionals: 0,
    no_command: &["--help", "--version"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const EXEC: Wrapper = Wrapper {
    with_value: &["-a"],
    positionals: 0,
    no_command: &[],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const COMMAND: Wrapper = Wrapper {
    with_value: &[],
    positionals: 0,
    no_command: &["-v", "-V"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const STDBUF: Wrapper = Wrapper {
    with_value: &["-i", "--input", "-o", "--output", "-e", "--error"],
    positionals: 0,
    no_command: &["--help", "--version"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const IONICE: Wrapper = Wrapper {
    with_value: &["-c", "--class", "-n", "--classdata"],
    positionals: 0,
    no_command: &["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const TASKSET: Wrapper = Wrapper {
    with_value: &[],
    positionals: 1,
    no_command: &["-p", "--pid"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const FLOCK: Wrapper = Wrapper {
    with_value: &["-w", "--timeout", "-E", "--conflict-exit-code"],
    positionals: 1,
    no_command: &[],
    command_string: &["-c", "--command"],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};

const NPX: Wrapper = Wrapper {
    with_value: &["-p", "--package", "--cache", "-w", "--workspace"],
    positionals: 0,
    no_command: &["--help", "--version"],
    command_string: &["-c", "--call"],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};
const UVX: Wrapper = Wrapper {
    with_value: &[
        "--from",
        "--with",
        "-p",
        "--python",
        "--index-url",
        "--index",
    ],
    positionals: 0,
    no_command: &["--help", "--version"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};

/// Wrappers found by the peers' classes and a hunt past them: project
/// runners (`uv run`, `poetry run`, `npm exec`, `pnpm exec`, `bundle exec`,
/// `direnv exec DIR`), tracers and sandboxes (`strace`, `ltrace`,
/// `valgrind`, `firejail`, `unshare`, `nsenter`, `chroot ROOT`),
/// `systemd-run`, `caffeinate`, `dotenv`: each runs the command after its
/// own options.
const fn runs_after(
    with_value: &'static [&'static str],
    positionals: usize,
    verbs: &'static [&'static str],
) -> Wrapper {
    Wrapper {
        with_value,
        positionals,
        no_command: &["--help", "--version"],
        command_string: &[],
        assignments: false,
        verbs,
        moves_cwd: false,
        shell_flags: &[],
    }
}
/// Our own program: its verbs are judged by a table of their own, `run`
/// as a wrapper.
pub const OURS: &str = "git-fararoni";
/// Our other binaries (`git-fararoni-saga`, `git-fararoni-shadow`): never
/// for agents.
pub const OURS_SIBLINGS: &str = "git-fararoni-";

/// `git-fararoni run [--net|--no-net] [--session ID] -- CMD`: our own
/// containment runs CMD, and CMD is judged like any command (a model may
/// type the wrapper itself to slip past).
const FARARONI_RUN: Wrapper = runs_after(&["--session"], 0, &["run"]);
const UV_RUN: Wrapper = runs_after(
    &[
        "--with",
        "--python",
        "-p",
        "--package",
        "--project",
        "--directory",
        "--env-file",
        "--extra",
        "--group",
        "--index",
        "--from",
        "-w",
    ],
    0,
    &["run"],
);
const POETRY_RUN: Wrapper = runs_after(&["-C", "--directory", "-P", "--project"], 0, &["run"]);
const NPM_EXEC: Wrapper = Wrapper {
    command_string: &["-c", "--call"],
    ..runs_after(&["-p", "--package", "-w", "--workspace"], 0, &["exec", "x"])
};
const PNPM_EXEC: Wrapper = runs_after(&["-C", "--dir", "--filter", "-F"], 0, &["exec", "dlx"]);
const BUNDLE_EXEC: Wrapper = runs_after(&["--gemfile"], 0, &["exec"]);
const DIRENV_EXEC: Wrapper = runs_after(&[], 1, &["exec"]);
const STRACE: Wrapper = runs_after(
    &[
        "-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-U",
    ],
    0,
    &[],
);
const LTRACE: Wrapper = runs_after(
    &[
        "-o", "-e", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-F", "-l", "-x", "-w",
    ],
    0,
    &[],
);
const CHROOT: Wrapper = Wrapper {
    moves_cwd: true,
    shell_flags: &[],
    ..runs_after(&["--userspec", "--groups"], 1, &[])
};
const UNSHARE: Wrapper = runs_after(
    &[
        "-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd",
    ],
    0,
    &[],
);
const NSENTER: Wrapper = runs_after(
    &["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
    0,
    &[],
);
const SYSTEMD_RUN: Wrapper = Wrapper {
    moves_cwd: true,
    shell_flags: &[],
    ..runs_after(
        &[
            "-u",
            "--unit",
            "-p",
            "--property",
            "-E",
            "--setenv",
            "-M",
            "--machine",
            "--description",
            "--slice",
            "--working-directory",
            "-H",
            "--host",
            "--uid",
            "--gid",
            "--nice",
            "--on-calendar",
            "--on-active",
        ],
        0,
        &[],
    )
};
const CAFFEINATE: Wrapper = runs_after(&["-t", "-w"], 0, &[]);
const DOTENV: Wrapper = runs_after(&["-e", "-v", "-c"], 0, &[]);
const TRACED: Wrapper = runs_after(&[], 0, &[]);

/// Programs, by name (after any directory: `/bin/rm` is `rm`).
pub const PROGRAMS: &[(&str, Kind)] = &[
    ("git", Kind::Git),
    // Wrappers, looked through.
    ("sudo", Kind::Wrapper(&SUDO)),
    ("doas", Kind::Wrapper(&DOAS)),
    ("timeout", Kind::Wrapper(&TIMEOUT)),
    ("nice", Kind::Wrapper(&NICE)),
    ("niceload", Kind::Wrapper(&NICELOAD)),
    ("nohup", Kind::Wrapper(&PLAIN)),
    ("time", Kind::Wrapper(&TIME)),
    ("exec", Kind::Wrapper(&EXEC)),
    ("command", Kind::Wrapper(&COMMAND)),
    ("builtin", Kind::Wrapper(&PLAIN)),
    ("stdbuf", Kind::Wrapper(&STDBUF)),
    ("ionice", Kind::Wrapper(&IONICE)),
    ("taskset", Kind::Wrapper(&TASKSET)),
    ("flock", Kind::Wrapper(&FLOCK)),
    ("setsid", Kind::Wrapper(&PLAIN)),
    ("unbuffer", Kind::Wrapper(&PLAIN)),
    ("chronic", Kind::Wrapper(&PLAIN)),
    ("env", Kind::Wrapper(&PLAIN)),
    // Package runners run the program they name.
    ("npx", Kind::Wrapper(&NPX)),
    ("pnpx", Kind::Wrapper(&NPX)),
    ("bunx", Kind::Wrapper(&NPX)),
    ("uvx", Kind::Wrapper(&UVX)),
    ("uv", Kind::Wrapper(&UV_RUN)),
    ("git-fararoni", Kind::Wrapper(&FARARONI_RUN)),
    ("poetry", Kind::Wrapper(&POETRY_RUN)),
    ("npm", Kind::Wrapper(&NPM_EXEC)),
    ("pnpm", Kind::Wrapper(&PNPM_EXEC)),
    ("yarn", Kind::Wrapper(&BUNDLE_EXEC)),
    ("bundle", Kind::Wrapper(&BUNDLE_EXEC)),
    ("direnv", Kind::Wrapper(&DIRENV_EXEC)),
    ("strace", Kind::Wrapper(&STRACE)),
    ("ltrace", Kind::Wrapper(&LTRACE)),
    ("valgrind", Kind::Wrapper(&TRACED)),
    ("firejail", Kind::Wrapper(&TRACED)),
    ("chroot", Kind::Wrapper(&CHROOT)),
    ("unshare", Kind::Wrapper(&UNSHARE)),
    ("nsenter", Kind::Wrapper(&NSENTER)),
    ("systemd-run", Kind::Wrapper(&SYSTEMD_RUN)),
    ("caffeinate", Kind::Wrapper(&CAFFEINATE)),
    ("dotenv", Kind::Wrapper(&DOTENV)),
    // Shells and string evaluation.
    ("bash", Kind::Shell),
    ("sh", Kind::Shell),
    ("zsh", Kind::Shell),
    ("dash", Kind::Shell),
    ("ksh", Kind::Shell),
    ("mksh", Kind::Shell),
    ("fish", Kind::Shell),
    ("busybox", Kind::Multicall),
    ("toybox", Kind::Multicall),
    ("eval", Kind::Eval),
    ("trap", Kind::Eval),
    ("xargs", Kind::Xargs),
    ("parallel", Kind::Parallel),
    // GNU parallel's `sem` is `parallel --semaphore`: it runs its command.
    ("sem", Kind::Parallel),
    ("env_parallel", Kind::Parallel),
    ("find", Kind::Find),
    ("ssh", Kind::Remote),
    ("scp", Kind::Remote),
    ("sftp", Kind::Remote),
    ("watch", Kind::Remote),
    // Terminal multiplexers and job runners: `tmux new -d "CMD"`,
    // `screen -dm CMD`, `script -qc CMD /dev/null`, `entr -s CMD`,
    // `echo CMD | at now`.
    ("tmux", Kind::Runner),
    ("screen", Kind::Runner),
    ("script", Kind::Runner),
    ("entr", Kind::Runner),
    ("at", Kind::Runner),
    ("batch", Kind::Runner),
    ("expect", Kind::Runner),
    // Tools that run the command after their own options or sub-command
    // (`pipenv run CMD`, `nix-shell --run CMD`, `hyperfine CMD`,
    // `cross-env X=1 CMD`…), read the same way: whatever their options,
    // the command is among the words or is a word.
    ("chrt", Kind::Runner),
    ("numactl", Kind::Runner),
    ("prlimit", Kind::Runner),
    ("cgexec", Kind::Runner),
    ("runuser", Kind::Runner),
    ("pkexec", Kind::Runner),
    ("setpriv", Kind::Runner),
    ("sg", Kind::Runner),
    ("chpst", Kind::Runner),
    ("bwrap", Kind::Runner),
    ("fakeroot", Kind::Runner),
    ("proot", Kind::Runner),
    ("catchsegv", Kind::Runner),
    ("xvfb-run", Kind::Runner),
    ("dbus-run-session", Kind::Runner),
    ("ssh-agent", Kind::Runner),
    ("gdb", Kind::Runner),
    ("perf", Kind::Runner),
    ("hyperfine", Kind::Runner),
    ("rlwrap", Kind::Runner),
    ("torsocks", Kind::Runner),
    ("proxychains", Kind::Runner),
    ("proxychains4", Kind::Runner),
    ("tsp", Kind::Runner),
    ("nq", Kind::Runner),
    ("pueue", Kind::Runner),
    ("daemonize", Kind::Runner),
    ("start-stop-daemon", Kind::Runner),
    ("nix-shell", Kind::Runner),
    ("nix", Kind::Runner),
    ("devbox", Kind::Runner),
    ("mise", Kind::Runner),
    ("asdf", Kind::Runner),
    ("pipenv", Kind::Runner),
    ("pdm", Kind::Runner),
    ("hatch", Kind::Runner),
    ("conda", Kind::Runner),
    ("mamba", Kind::Runner),
    ("micromamba", Kind::Runner),
    ("rye", Kind::Runner),
    ("pixi", Kind::Runner),
    ("cross-env", Kind::Runner),
    ("env-cmd", Kind::Runner),
    ("dotenvx", Kind::Runner),
    ("op", Kind::Runner),
    ("doppler", Kind::Runner),
    ("aws-vault", Kind::Runner),
    ("infisical", Kind::Runner),
    ("watchexec", Kind::Runner),
    ("nodemon", Kind::Runner),
    ("concurrently", Kind::Runner),
    ("distrobox", Kind::Runner),
    ("toolbox", Kind::Runner),
    ("flatpak-spawn", Kind::Runner),
    // make runs recipes (`--eval=…` gives one on the line); editors run
    // `:!CMD` and `(shell-command …)` given with `-c`, `+` or `--eval`.
    ("make", Kind::Runner),
    ("gmake", Kind::Runner),
    ("vim", Kind::Runner),
    ("vi", Kind::Runner),
    ("nvim", Kind::Runner),
    ("ex", Kind::Runner),
    ("view", Kind::Runner),
    ("emacs", Kind::Runner),
    // bash's `coproc CMD` runs CMD.
    ("coproc", Kind::Wrapper(&PLAIN)),
    ("su", Kind::Remote),
    ("source", Kind::Source),
    (".", Kind::Source),
    // Interpreters.
    ("python", Kind::Interpreter(Lang::Python)),
    ("python2", Kind::Interpreter(Lang::Python)),
    ("python3", Kind::Interpreter(Lang::Python)),
    ("pypy", Kind::Interpreter(Lang::Python)),
    ("pypy3", Kind::Interpreter(Lang::Python)),
    ("node", Kind::Interpreter(Lang::Node)),
    ("nodejs", Kind::Interpreter(Lang::Node)),
    ("bun", Kind::Interpreter(Lang::Node)),
    ("deno", Kind::Interpreter(Lang::Node)),
    ("perl", Kind::Interpreter(Lang::Perl)),
    ("ruby", Kind::Interpreter(Lang::Ruby)),
    ("php", Kind::Interpreter(Lang::Php)),
    // Lua's `-e CODE` and `-l NAME` read like Perl's; its file calls
    // (`os.remove`, `os.rename`, `io.open`, `os.execute`) are in the
    // inline tables.
    ("lua", Kind::Interpreter(Lang::Perl)),
    ("luajit", Kind::Interpreter(Lang::Perl)),
    // Windows' shells: their command strings are read for the commands
    // in `WINDOWS_DESTROYS` and for git.
    ("pwsh", Kind::WindowsShell),
    ("powershell", Kind::WindowsShell),
    ("cmd", Kind::WindowsShell),
    // File changers (see `files`).
    ("rm", Kind::Files),
    ("rimraf", Kind::Files),
    ("rmdir", Kind::Files),
    ("unlink", Kind::Files),
    ("truncate", Kind::Files),
    ("mkfs", Kind::Disk),
    ("mke2fs", Kind::Disk),
    ("mkswap", Kind::Disk),
    ("mkdosfs", Kind::Disk),
    ("mkntfs", Kind::Disk),
    ("wipefs", Kind::Disk),
    ("blkdiscard", Kind::Disk),
    ("cryptsetup", Kind::Disk),
    ("fdisk", Kind::Disk),
    ("sfdisk", Kind::Disk),
    ("cfdisk", Kind::Disk),
    ("gdisk", Kind::Disk),
    ("sgdisk", Kind::Disk),
    ("parted", Kind::Disk),
    ("badblocks", Kind::Disk),
    ("shred", Kind::Files),
    ("dd", Kind::Files),
    ("mv", Kind::Files),
    ("cp", Kind::Files),
    ("ln", Kind::Files),
    ("install", Kind::Files),
    ("rsync", Kind::Files),
    ("sed", Kind::Files),
    ("tee", Kind::Files),
    ("chmod", Kind::Files),
    ("chown", Kind::Files),
    ("chgrp", Kind::Files),
    ("touch", Kind::Files),
    ("mkdir", Kind::Files),
    ("sort", Kind::Files),
    // Network.
    ("curl", Kind::Fetcher),
    ("wget", Kind::Fetcher),
    ("fetch", Kind::Fetcher),
    ("aria2c", Kind::Fetcher),
    ("http", Kind::Fetcher),
    ("https", Kind::Fetcher),
    ("xh", Kind::Fetcher),
    ("nc", Kind::Listener),
    ("ncat", Kind::Listener),
    ("netcat", Kind::Listener),
    ("socat", Kind::Listener),
    ("telnet", Kind::Listener),
    // Shell state.
    ("cd", Kind::Cd),
    ("pushd", Kind::Cd),
    ("popd", Kind::Cd),
    ("alias", Kind::Alias),
    ("crontab", Kind::Crontab),
];

/// Programs that only read, or change only the shell's own state (unless
/// given an option of [`READ_ONLY_ESCAPES`]). `uniq IN OUT` and
/// `xxd IN OUT` write OUT and `mount` hides folders: they are other
/// programs, allowed after the dirty-set snapshot.
pub const READ_ONLY: &[&str] = &[
    "ls",
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "wc",
    "echo",
    "printf",
    "pwd",
    "which",
    "type",
    "whereis",
    "file",
    "stat",
    "du",
    "df",
    "tree",
    "cut",
    "tr",
    "diff",
    "cmp",
    "comm",
    "jq",
    "yq",
    "date",
    "whoami",
    "uname",
    "id",
    "hostname",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "seq",
    "true",
    "false",
    "test",
    "[",
    "sleep",
    "printenv",
    "ps",
    "column",
    "nl",
    "od",
    "hexdump",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "cksum",
    "b2sum",
    "base64",
    "tac",
    "rev",
    "fold",
    "fmt",
    "paste",
    "join",
    "expand",
    "unexpand",
    "strings",
    "awk",
    "gawk",
    "mawk",
    "export",
    "unset",
    "local",
    "declare",
    "typeset",
    "readonly",
    "read",
    "mapfile",
    "readarray",
    "exit",
    "return",
    "shift",
    "wait",
    "jobs",
    "dirs",
    "set",
    "shopt",
    "let",
    ":",
    "hash",
    "ulimit",
    "umask",
    "history",
    "help",
    "man",
    "info",
    "lsof",
    "tput",
    "clear",
    "reset",
    "nproc",
    "free",
    "uptime",
    "whatis",
    "apropos",
    "locale",
    "getconf",
    "fd",
    "fdfind",
    "bat",
    "batcat",
    "delta",
    "exa",
    "eza",
    "zcat",
    "gzcat",
    "zgrep",
    "bzcat",
    "xzcat",
    "lscpu",
    "lsblk",
    "findmnt",
    "groups",
    "users",
    "who",
    "w",
    "last",
    "sha224sum",
    "sha384sum",
    "cal",
    "bc",
    "expr",
    "numfmt",
    "shuf",
    "tsort",
    "pr",
];

/// Commands of PowerShell (cmdlets and their aliases) and cmd.exe that
/// delete, move or overwrite files, lower-case: a Windows shell's command
/// string that runs one is vetoed (the guard does not parse those
/// languages, so it cannot ask what would be lost).
pub const WINDOWS_DESTROYS: &[&str] = &[
    // PowerShell.
    "remove-item",
    "ri",
    "rm",
    "rmdir",
    "del",
    "erase",
    "rd",
    "move-item",
    "mi",
    "move",
    "mv",
    "copy-item",
    "cpi",
    "copy",
    "cp",
    "clear-content",
    "clc",
    "set-content",
    "sc",
    "out-file",
    "clear-item",
    "cli",
    "rename-item",
    "rni",
    "ren",
    "remove-itemproperty",
    // cmd.exe.
    "rename",
    "xcopy",
    "robocopy",
    "format",
    "cipher",
];

/// The name a program is known by: as written, or as a case-insensitive
/// file system finds it (`RM`, `Git` run rm and git on macOS and
/// Windows) and without Windows' `.exe` (Git Bash runs `rm.exe`).
pub fn canonical(name: &str) -> String {
    if kind(name).is_some() {
        return name.to_string();
    }
    let lower = name.to_ascii_lowercase();
    let bare = lower.strip_suffix(".exe").unwrap_or(&lower).to_string();
    if kind(&bare).is_some() {
        bare
    } else {
        name.to_string()
    }
}

/// Looks a program up by name (a path's last name, see [`canonical`]).
pub fn kind(name: &str) -> Option<Kind> {
    if let Some((_, k)) = PROGRAMS.iter().find(|(n, _)| *n == name) {
        return Some(*k);
    }
    if READ_ONLY.contains(&name) {
        return Some(Kind::ReadOnly);
    }
    // `mkfs.ext4`, `mkfs.vfat`, `mkfs.btrfs`, …
    if name.starts_with("mkfs.") {
        return Some(Kind::Disk);
    }
    // `python3.12`, `perl5.36`, `ruby3.2`, `node18`.
    for (prefix, lang) in [
        ("python", Lang::Python),
        ("perl", Lang::Perl),
        ("ruby", Lang::Ruby),
        ("node", Lang::Node),
        ("php", Lang::Php),
    ] {
        if let Some(v) = name.strip_prefix(prefix) {
            if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return Some(Kind::Interpreter(lang));
            }
        }
    }
    None
}

/// The options with which a disk tool only lists or reports (`fdisk -l`,
/// `sfdisk --dump`, `parted -l`, `wipefs` without `-a` only lists too).
pub const DISK_LISTING: &[&str] = &[
    "-l",
    "--list",
    "-d",
    "--dump",
    "-J",
    "--json",
    "-V",
    "--version",
    "-h",
    "--help",
];

/// Whether a program reads a script from stdin with these arguments (no
/// script operand, or `-`), for shells and interpreters.
pub fn reads_code_from_stdin(args: &[String], kind: Kind) -> bool {
    match kind {
        Kind::Shell => {
            if args.iter().any(|a| a == "-s") {
                return true;
            }
            !args.iter().any(|a| {
                (a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
                    || !a.starts_with('-')
            })
        }
        Kind::Interpreter(_) => {
            let code_opt = |a: &str| {
                matches!(
                    a,
                    "-c" | "-e" | "-E" | "-r" | "-m" | "--eval" | "-p" | "--print" | "eval"
                ) || (a.starts_with('-')
                    && !a.starts_with("--")
                    && (a.ends_with('e') || a.ends_with('c')))
            };
            if args.iter().any(|a| code_opt(a)) {
                return false;
            }
            args.iter().all(|a| a.starts_with('-')) || args.iter().any(|a| a == "-")
        }
        _ => false,
    }
}

/// Words that, first in a [`Kind::Runner`]'s text, run or type the rest:
/// expect's `spawn`, `exec`, `system` and `send`, screen's `stuff`,
/// emacs's `(shell-command …)` and its kin too.
pub const RUNS_THE_REST: &[&str] = &[
    "spawn",
    "exec",
    "system",
    "send",
    "stuff",
    "shell-command",
    "async-shell-command",
    "call-process-shell-command",
];

/// What a program started with an environment variable does with its
/// value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarRuns {
    /// The value is a command line run here (`GIT_SSH_COMMAND`, `PAGER`,
    /// `RSYNC_RSH`): judged as one.
    Line,
    /// The value is expanded by a shell before use (`BASH_ENV`, `PS4`):
    /// its substitutions run.
    Expanded,
    /// less's input preprocessor: a command line after `|` or `||` (a
    /// leading `-` too), with `%s` for the file.
    LessPipe,
    /// Where programs and code are looked up or preloaded from (`PATH`,
    /// `LD_PRELOAD`, zsh's `ZDOTDIR`): what runs is no longer what the
    /// line names, so it counts as another program — allowed after the
    /// dirty-set snapshot.
    Loads,
}

/// Environment variables whose value some program runs here. An
/// assignment of one — before a command, alone, through `export`,
/// `declare`, `env` or `sudo` — is judged as the command it would run,
/// whatever the program: git, rsync, ssh and less are not the only ones
/// to start git, rsync, ssh or a pager.
pub const COMMAND_VARS: &[(&str, VarRuns)] = &[
    // git (git(1) ENVIRONMENT; the config keys behind them are refused
    // by the git policy's `-c` allow-list).
    ("GIT_SSH_COMMAND", VarRuns::Line),
    ("GIT_SSH", VarRuns::Line),
    ("GIT_ASKPASS", VarRuns::Line),
    ("GIT_EDITOR", VarRuns::Line),
    ("GIT_SEQUENCE_EDITOR", VarRuns::Line),
    ("GIT_PAGER", VarRuns::Line),
    ("GIT_EXTERNAL_DIFF", VarRuns::Line),
    ("GIT_PROXY_COMMAND", VarRuns::Line),
    // Read by git, man, less, crontab, sudoedit and most terminal tools.
    ("EDITOR", VarRuns::Line),
    ("VISUAL", VarRuns::Line),
    ("PAGER", VarRuns::Line),
    ("MANPAGER", VarRuns::Line),
    ("SYSTEMD_PAGER", VarRuns::Line),
    ("BROWSER", VarRuns::Line),
    ("SSH_ASKPASS", VarRuns::Line),
    ("SUDO_ASKPASS", VarRuns::Line),
    // less runs `|CMD %s` input preprocessors.
    ("LESSOPEN", VarRuns::LessPipe),
    ("LESSCLOSE", VarRuns::LessPipe),
    // rsync: the remote shell (as `-e`), and the program that connects
    // to an `rsync://` daemon (run through `sh -c`).
    ("RSYNC_RSH", VarRuns::Line),
    ("RSYNC_CONNECT_PROG", VarRuns::Line),
    // bash and sh expand these (command substitution included) before
    // use: BASH_ENV/ENV in every non-interactive/interactive shell, PS4
    // under `set -x`, PROMPT_COMMAND before each prompt.
    ("BASH_ENV", VarRuns::Expanded),
    ("ENV", VarRuns::Expanded),
    ("PS4", VarRuns::Expanded),
    ("PROMPT_COMMAND", VarRuns::Line),
    // `PATH=./bin:$PATH ls` runs ./bin/ls; the loader runs LD_PRELOAD's
    // code in every program; zsh sources $ZDOTDIR/.zshenv even for
    // `zsh -c`; glibc loads iconv modules from GCONV_PATH.
    ("PATH", VarRuns::Loads),
    ("LD_PRELOAD", VarRuns::Loads),
    ("LD_LIBRARY_PATH", VarRuns::Loads),
    ("LD_AUDIT", VarRuns::Loads),
    ("ZDOTDIR", VarRuns::Loads),
    ("GCONV_PATH", VarRuns::Loads),
];

/// Whether `name`'s value is run (see [`COMMAND_VARS`]).
pub fn command_var(name: &str) -> Option<VarRuns> {
    COMMAND_VARS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, r)| *r)
}

/// Options of multi-call binaries that write files themselves, and where
/// they write without a folder named: `busybox --install [-s] [DIR]`
/// links every applet into DIR, or else into the system folders and
/// `/linuxrc` (confirmed by effect, BusyBox 1.35). Their other options
/// (`--list`, `--help`; toybox's `--long`) only print.
pub const MULTICALL_INSTALLS: &[(&str, &str, &[&str])] = &[(
    "busybox",
    "--install",
    &["/bin", "/sbin", "/usr/bin", "/usr/sbin", "/linuxrc"],
)];

/// What an option does to a program that otherwise only reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// Its value is a file the program writes (`tree -o FILE`).
    Output,
    /// Its value is a command line run here (`man -P CMD`).
    Line,
    /// Its value is a program run on each file read (`rg --pre PROG`).
    PerFile,
    /// The words after it, up to `;` or the end, are a command run on
    /// each file found, `{}` standing for it (`fd -x CMD`).
    Exec,
    /// The program's operands are rewritten in place (`yq -i`).
    InPlace,
    /// It runs code from a file or library the guard does not read
    /// (`awk -f prog.awk`, `less +!CMD`): another program, allowed after
    /// the dirty-set snapshot.
    Unseen,
}

/// Options that make a program of [`READ_ONLY`] write files or run
/// commands. A short option matches with its value attached (`-fprog`),
/// a long one with `=`; an entry ending in nothing but `+` matches every
/// word starting with `+`.
pub const READ_ONLY_ESCAPES: &[(&str, &[(&str, Escape)])] = &[
    ("awk", AWK_ESCAPES),
    ("gawk", AWK_ESCAPES),
    ("mawk", AWK_ESCAPES),
    ("tree", &[("-o", Escape::Output)]),
    (
        "shuf",
        &[("-o", Escape::Output), ("--output", Escape::Output)],
    ),
    (
        "yq",
        &[("-i", Escape::InPlace), ("--inplace", Escape::InPlace)],
    ),
    ("rg", &[("--pre", Escape::PerFile)]),
    (
        "fd",
        &[
            ("-x", Escape::Exec),
            ("--exec", Escape::Exec),
            ("-X", Escape::Exec),
            ("--exec-batch", Escape::Exec),
        ],
    ),
    (
        "fdfind",
        &[
            ("-x", Escape::Exec),
            ("--exec", Escape::Exec),
            ("-X", Escape::Exec),
            ("--exec-batch", Escape::Exec),
        ],
    ),
    ("bat", &[("--pager", Escape::Line)]),
    ("batcat", &[("--pager", Escape::Line)]),
    ("delta", &[("--pager", Escape::Line)]),
    (
        "man",
        &[
            ("-P", Escape::Line),
            ("--pager", Escape::Line),
            ("-H", Escape::Line),
            ("--html", Escape::Line),
        ],
    ),
    ("less", &[("+", Escape::Unseen)]),
    ("more", &[("+", Escape::Unseen)]),
    ("history", &[("-w", Escape::Unseen), ("-a", Escape::Unseen)]),
    ("hash", &[("-p", Escape::Unseen)]),
];

/// awk's program from a file (`-f`, `-E`), gawk's extensions and
/// libraries (`-l`, `-i`; `-i inplace` is judged on its own).
const AWK_ESCAPES: &[(&str, Escape)] = &[
    ("-f", Escape::Unseen),
    ("--file", Escape::Unseen),
    ("-E", Escape::Unseen),
    ("--exec", Escape::Unseen),
    ("-l", Escape::Unseen),
    ("--load", Escape::Unseen),
    ("-i", Escape::Unseen),
    ("--include", Escape::Unseen),
];

/// The options of [`READ_ONLY_ESCAPES`] in `args` (program first): each
/// escape with its value (attached or the next word; `None` at the end)
/// and the index of the word after it.
pub fn read_only_escapes(name: &str, args: &[String]) -> Vec<(Escape, Option<String>, usize)> {
    let Some((_, table)) = READ_ONLY_ESCAPES.iter().find(|(n, _)| *n == name) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "--" {
            break;
        }
        for (opt, escape) in table.iter() {
            let value = if *opt == "+" {
                a.strip_prefix('+').map(|v| Some(v.to_string()))
            } else if a == *opt {
                let v = args.get(i).cloned();
                if *escape != Escape::Exec && *escape != Escape::InPlace {
                    i += 1;
                }
                Some(v)
            } else if opt.starts_with("--") {
                a.strip_prefix(&format!("{opt}="))
                    .map(|v| Some(v.to_string()))
            } else if opt.len() == 2 && !a.starts_with("--") && a.starts_with(opt) {
                Some(Some(a[2..].to_string()))
            } else {
                None
            };
            if let Some(v) = value {
                out.push((*escape, v, i));
                break;
            }
        }
    }
    out
}

/// Archive extractors: the options naming the folder they extract into,
/// and the options that let members be written at their own absolute
/// paths. Extracting is another program (allowed after the dirty-set
/// snapshot), but not into a protected place or an existing folder
/// outside the working tree and the temp folder (`tar -xf x.tar -C ~`
/// plants `~/.ssh/config`).
pub const EXTRACTORS: &[Extractor] = &[
    Extractor {
        program: "tar",
        extracts: &["-x", "--extract", "--get"],
        into: &["-C", "--directory"],
        absolute: &["-P", "--absolute-names"],
    },
    Extractor {
        program: "bsdtar",
        extracts: &["-x"],
        into: &["-C", "--cd", "--directory"],
        absolute: &["-P", "--absolute-paths"],
    },
    Extractor {
        program: "unzip",
        extracts: &[],
        into: &["-d"],
        absolute: &[],
    },
];

/// One row of [`EXTRACTORS`]. Short options are also found inside a
/// cluster (`-xPf`) and tar's old style first word (`xPf`).
#[derive(Debug)]
pub struct Extractor {
    /// The program.
    pub program: &'static str,
    /// Options that make it extract (empty: it always does).
    pub extracts: &'static [&'static str],
    /// Options whose value is the folder written into.
    pub into: &'static [&'static str],
    /// Options that write members at their absolute paths.
    pub absolute: &'static [&'static str],
}

impl Extractor {
    /// Whether `option` is given in `args` (as a word, inside a short
    /// cluster, or in tar's old-style first word).
    fn given(&self, args: &[String], option: &str) -> bool {
        args.iter().enumerate().any(|(k, a)| {
            if a == option || (option.starts_with("--") && a.starts_with(&format!("{option}="))) {
                return true;
            }
            let Some(letter) = option.strip_prefix('-').filter(|l| l.len() == 1) else {
                return false;
            };
            let old_style = k == 0 && self.program == "tar" && !a.starts_with('-');
            let cluster = a.starts_with('-') && !a.starts_with("--");
            (old_style || cluster) && a.trim_start_matches('-').contains(letter)
        })
    }

    /// What `args` (without the program) extract into: `None` when they do
    /// not extract; the folders named (empty: the current one); whether
    /// members keep absolute paths.
    pub fn reading(&self, args: &[String]) -> Option<(Vec<String>, bool)> {
        if !self.extracts.is_empty() && !self.extracts.iter().any(|o| self.given(args, o)) {
            return None;
        }
        let mut dirs = Vec::new();
        for (k, a) in args.iter().enumerate() {
            for o in self.into {
                if a == o {
                    dirs.extend(args.get(k + 1).cloned());
                } else if let Some(v) = a.strip_prefix(&format!("{o}=")) {
                    dirs.push(v.to_string());
                } else if o.len() == 2 && !a.starts_with("--") && a.len() > 2 && a.starts_with(o) {
                    dirs.push(a[2..].to_string());
                }
            }
        }
        let absolute = self.absolute.iter().any(|o| self.given(args, o));
        Some((dirs, absolute))
    }
}

/// OpenSSH's clients, read alike: (program, short options that take a
/// value, those whose value is a program run here, whether a command for
/// the host follows the host). All read `-o ProxyCommand=…`,
/// `LocalCommand`, `KnownHostsCommand` and a `-F` file, which run here;
/// `scp -S PROG`, `sftp -S PROG` run PROG instead of ssh and
/// `sftp -D CMD` runs a local sftp server (ssh(1), scp(1), sftp(1)).
pub const SSH_CLIENTS: &[(&str, &str, &str, bool)] = &[
    ("ssh", "bcDEeFIiJLlmOopQRSWw", "", true),
    ("scp", "cDFiJlMoPSX", "S", false),
    ("sftp", "BbcDFiJlMoPRSsX", "DS", false),
];
