//! How each wrapper's own arguments end and the command it runs starts
//! ([`Wrapper`]). Every wrapper is [`PLAIN`] with what it adds: options
//! that take a value, plain words before the command, sub-commands.

use super::Wrapper;

/// A wrapper that runs the command after its own options, none of which
/// take a value; `--help` and `--version` run nothing (`nohup`, `env`,
/// `valgrind`, `firejail`).
pub(super) const PLAIN: Wrapper = Wrapper {
    with_value: &[],
    positionals: 0,
    no_command: &["--help", "--version"],
    command_string: &[],
    assignments: false,
    verbs: &[],
    moves_cwd: false,
    shell_flags: &[],
};

pub(super) const SUDO: Wrapper = Wrapper {
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
    // `-k` with a command runs it (credentials forgotten first).
    no_command: &["-l", "--list", "-v", "--validate", "-K", "-V", "--version"],
    assignments: true,
    shell_flags: &["-s", "--shell", "-i", "--login"],
    ..PLAIN
};
pub(super) const DOAS: Wrapper = Wrapper {
    with_value: &["-u", "-C"],
    no_command: &[],
    ..PLAIN
};
pub(super) const TIMEOUT: Wrapper = Wrapper {
    with_value: &["-s", "--signal", "-k", "--kill-after"],
    positionals: 1,
    ..PLAIN
};
pub(super) const NICE: Wrapper = Wrapper {
    with_value: &["-n", "--adjustment"],
    ..PLAIN
};
/// GNU parallel's `niceload`: runs its command under a load limit.
pub(super) const NICELOAD: Wrapper = Wrapper {
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
    no_command: &["--help", "-h", "--version", "-V"],
    ..PLAIN
};
pub(super) const TIME: Wrapper = Wrapper {
    with_value: &["-f", "--format", "-o", "--output"],
    ..PLAIN
};
pub(super) const EXEC: Wrapper = Wrapper {
    with_value: &["-a"],
    no_command: &[],
    ..PLAIN
};
pub(super) const COMMAND: Wrapper = Wrapper {
    no_command: &["-v", "-V"],
    ..PLAIN
};
pub(super) const STDBUF: Wrapper = Wrapper {
    with_value: &["-i", "--input", "-o", "--output", "-e", "--error"],
    ..PLAIN
};
pub(super) const IONICE: Wrapper = Wrapper {
    with_value: &["-c", "--class", "-n", "--classdata"],
    no_command: &["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
    ..PLAIN
};
pub(super) const TASKSET: Wrapper = Wrapper {
    positionals: 1,
    no_command: &["-p", "--pid"],
    ..PLAIN
};
pub(super) const FLOCK: Wrapper = Wrapper {
    with_value: &["-w", "--timeout", "-E", "--conflict-exit-code"],
    positionals: 1,
    no_command: &[],
    command_string: &["-c", "--command"],
    ..PLAIN
};
pub(super) const NPX: Wrapper = Wrapper {
    with_value: &["-p", "--package", "--cache", "-w", "--workspace"],
    command_string: &["-c", "--call"],
    ..PLAIN
};
pub(super) const UVX: Wrapper = Wrapper {
    with_value: &[
        "--from",
        "--with",
        "-p",
        "--python",
        "--index-url",
        "--index",
    ],
    ..PLAIN
};

// Wrappers found by the peers' classes and a hunt past them: project
// runners (`uv run`, `poetry run`, `npm exec`, `pnpm exec`, `bundle exec`,
// `direnv exec DIR`), tracers and sandboxes (`strace`, `ltrace`,
// `valgrind`, `firejail`, `unshare`, `nsenter`, `chroot ROOT`),
// `systemd-run`, `caffeinate`, `dotenv`: each runs the command after its
// own options.

/// `git-fararoni run [--net|--no-net] [--session ID] -- CMD`: our own
/// containment runs CMD, and CMD is judged like any command (a model may
/// type the wrapper itself to slip past).
pub(super) const FARARONI_RUN: Wrapper = Wrapper {
    with_value: &["--session"],
    verbs: &["run"],
    ..PLAIN
};
pub(super) const UV_RUN: Wrapper = Wrapper {
    with_value: &[
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
    verbs: &["run"],
    ..PLAIN
};
pub(super) const POETRY_RUN: Wrapper = Wrapper {
    with_value: &["-C", "--directory", "-P", "--project"],
    verbs: &["run"],
    ..PLAIN
};
pub(super) const NPM_EXEC: Wrapper = Wrapper {
    with_value: &["-p", "--package", "-w", "--workspace"],
    command_string: &["-c", "--call"],
    verbs: &["exec", "x"],
    ..PLAIN
};
pub(super) const PNPM_EXEC: Wrapper = Wrapper {
    with_value: &["-C", "--dir", "--filter", "-F"],
    verbs: &["exec", "dlx"],
    ..PLAIN
};
pub(super) const BUNDLE_EXEC: Wrapper = Wrapper {
    with_value: &["--gemfile"],
    verbs: &["exec"],
    ..PLAIN
};
pub(super) const DIRENV_EXEC: Wrapper = Wrapper {
    positionals: 1,
    verbs: &["exec"],
    ..PLAIN
};
pub(super) const STRACE: Wrapper = Wrapper {
    with_value: &[
        "-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-U",
    ],
    ..PLAIN
};
pub(super) const LTRACE: Wrapper = Wrapper {
    with_value: &[
        "-o", "-e", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-F", "-l", "-x", "-w",
    ],
    ..PLAIN
};
pub(super) const CHROOT: Wrapper = Wrapper {
    with_value: &["--userspec", "--groups"],
    positionals: 1,
    moves_cwd: true,
    ..PLAIN
};
pub(super) const UNSHARE: Wrapper = Wrapper {
    with_value: &[
        "-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd",
    ],
    ..PLAIN
};
pub(super) const NSENTER: Wrapper = Wrapper {
    with_value: &["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
    ..PLAIN
};
pub(super) const SYSTEMD_RUN: Wrapper = Wrapper {
    with_value: &[
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
    moves_cwd: true,
    ..PLAIN
};
pub(super) const CAFFEINATE: Wrapper = Wrapper {
    with_value: &["-t", "-w"],
    ..PLAIN
};
pub(super) const DOTENV: Wrapper = Wrapper {
    with_value: &["-e", "-v", "-c"],
    ..PLAIN
};
