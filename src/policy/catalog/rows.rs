//! The catalog's rows: every program the product knows, one row each.
//! The hook's part comes first, in its families (wrappers, shells,
//! runners, interpreters, file changers, network, shell state, programs
//! that only read); then the programs only level 1, the router or our
//! agent's builds know.
//!
//! Level 1's option tables are data of their own, in
//! `policy/utils/tables.rs`; a row names the table its program is parsed
//! with.

use super::wrappers::*;
use super::{program, Entry, Escape, Kind, Lang, Operands};
use crate::policy::builds::{build, Build};
use crate::policy::utils::tables::*;
use crate::policy::utils::{reads, Style};

// Options that make a reading program write or run.

/// awk's program from a file (`-f`, `-E`), gawk's extensions and
/// libraries (`-l`, `-i`; `-i inplace` is judged on its own).
const AWK: &[(&str, Escape)] = &[
    ("-f", Escape::Unseen),
    ("--file", Escape::Unseen),
    ("-E", Escape::Unseen),
    ("--exec", Escape::Unseen),
    ("-l", Escape::Unseen),
    ("--load", Escape::Unseen),
    ("-i", Escape::Unseen),
    ("--include", Escape::Unseen),
];
const TREE_OUTPUT: &[(&str, Escape)] = &[("-o", Escape::Output)];
const SHUF_OUTPUT: &[(&str, Escape)] = &[("-o", Escape::Output), ("--output", Escape::Output)];
const YQ_IN_PLACE: &[(&str, Escape)] = &[("-i", Escape::InPlace), ("--inplace", Escape::InPlace)];
const RG_PRE: &[(&str, Escape)] = &[("--pre", Escape::PerFile)];
const FD_EXEC: &[(&str, Escape)] = &[
    ("-x", Escape::Exec),
    ("--exec", Escape::Exec),
    ("-X", Escape::Exec),
    ("--exec-batch", Escape::Exec),
];
const PAGER: &[(&str, Escape)] = &[("--pager", Escape::Line)];
const MAN_PAGER: &[(&str, Escape)] = &[
    ("-P", Escape::Line),
    ("--pager", Escape::Line),
    ("-H", Escape::Line),
    ("--html", Escape::Line),
];
const PLUS_COMMAND: &[(&str, Escape)] = &[("+", Escape::Unseen)];
const HISTORY_FILE: &[(&str, Escape)] = &[("-w", Escape::Unseen), ("-a", Escape::Unseen)];
const HASH_PATH: &[(&str, Escape)] = &[("-p", Escape::Unseen)];

// Builds and tests our agent may run (see `policy::builds`).

/// Builds must not reach the network.
const OFFLINE: &[&str] = &["--offline"];

const MAVEN_REFUSED: &[&str] = &[
    "-f",
    "--file",
    "-s",
    "--settings",
    "-gs",
    "--global-settings",
];

const GRADLE_REFUSED: &[&str] = &[
    "-p",
    "--project-dir",
    "-g",
    "--gradle-user-home",
    "-I",
    "--init-script",
    "-b",
    "--build-file",
];

/// Package managers' options that install elsewhere or read other settings.
const NODE_REFUSED: &[&str] = &[
    "--prefix",
    "-g",
    "--global",
    "--userconfig",
    "--globalconfig",
    "-C",
    "--dir",
];

const CARGO: &[Build] = &[build(
    &[
        &["build"],
        &["check"],
        &["test"],
        &["clippy"],
        &["run"],
        &["bench"],
        &["doc"],
        &["fmt"],
    ],
    OFFLINE,
    true,
    &[
        "--target-dir",
        "--manifest-path",
        "--config",
        "-Z",
        "--artifact-dir",
        "--out-dir",
        "--allow-dirty",
    ],
)];
/// Any target: the Makefile is the repository's, and it runs contained.
const MAKE: &[Build] = &[build(
    &[&[]],
    &[],
    true,
    &[
        "-C",
        "--directory",
        "-f",
        "--file",
        "--makefile",
        "-I",
        "--include-dir",
        "-o",
        "-W",
        "--eval",
    ],
)];
const JUST: &[Build] = &[build(
    &[&[]],
    &[],
    true,
    &[
        "-f",
        "--justfile",
        "-d",
        "--working-directory",
        "--dotenv-path",
        "--shell",
    ],
)];
const NPM: &[Build] = &[build(
    &[&["test"], &["run"], &["run-script"]],
    OFFLINE,
    true,
    NODE_REFUSED,
)];
const PNPM: &[Build] = &[build(&[&["test"], &["run"]], OFFLINE, true, NODE_REFUSED)];
const YARN: &[Build] = &[build(&[&["test"], &["run"]], &[], true, NODE_REFUSED)];
const PYTEST: &[Build] = &[build(
    &[&[]],
    &[],
    true,
    &[
        "--junitxml",
        "--junit-xml",
        "--resultlog",
        "--basetemp",
        "--rootdir",
        "-c",
        "--confcutdir",
        "-p",
    ],
)];
/// `python -m pytest` refuses what pytest does; the other modules take
/// no option that writes elsewhere.
const PYTHON: &[Build] = &[
    build(
        &[&["-m", "pytest"]],
        &[],
        true,
        &[
            "--junitxml",
            "--junit-xml",
            "--basetemp",
            "--rootdir",
            "-c",
            "-p",
        ],
    ),
    build(
        &[
            &["-m", "unittest"],
            &["-m", "py_compile"],
            &["-m", "compileall"],
        ],
        &[],
        true,
        &[],
    ),
];
const NODE: &[Build] = &[build(&[&["--check"], &["-c"]], &[], true, &[])];
const RUFF: &[Build] = &[build(&[&["check"], &["format"]], &[], true, &["--config"])];
const ESLINT: &[Build] = &[build(
    &[&[]],
    &[],
    true,
    &["-c", "--config", "--resolve-plugins-relative-to"],
)];
const MYPY: &[Build] = &[build(&[&[]], &[], true, &["--config-file", "--cache-dir"])];
const GO: &[Build] = &[build(
    &[&["build"], &["test"], &["vet"], &["run"]],
    &[],
    true,
    &["-o", "-exec", "-toolexec", "-modfile", "-C", "-overlay"],
)];
const MAVEN: &[Build] = &[build(&[&[]], OFFLINE, true, MAVEN_REFUSED)];
const GRADLE: &[Build] = &[build(&[&[]], OFFLINE, true, GRADLE_REFUSED)];
const TSC: &[Build] = &[build(
    &[&[]],
    &["--noEmit"],
    true,
    &[
        "--build",
        "-b",
        "--outDir",
        "--outFile",
        "--declarationDir",
        "--watch",
        "-w",
    ],
)];
const DOTNET: &[Build] = &[build(
    &[&["build"], &["test"], &["run"]],
    &["--no-restore"],
    true,
    &["-o", "--output", "-s", "--source", "--configfile"],
)];

/// Every program the product knows, by name (after any directory:
/// `/bin/rm` is `rm`).
pub static CATALOG: &[Entry] = &[
    program("git").hook(Kind::Git).command(),
    // Wrappers, looked through.
    program("sudo").hook(Kind::Wrapper(&SUDO)).command(),
    program("doas").hook(Kind::Wrapper(&DOAS)).command(),
    program("timeout").hook(Kind::Wrapper(&TIMEOUT)).command(),
    program("nice").hook(Kind::Wrapper(&NICE)).command().word(),
    program("niceload").hook(Kind::Wrapper(&NICELOAD)),
    program("nohup").hook(Kind::Wrapper(&PLAIN)).command(),
    program("time").hook(Kind::Wrapper(&TIME)).command().word(),
    program("exec").hook(Kind::Wrapper(&EXEC)).command(),
    program("command").hook(Kind::Wrapper(&COMMAND)).command(),
    program("builtin").hook(Kind::Wrapper(&PLAIN)).command(),
    program("stdbuf").hook(Kind::Wrapper(&STDBUF)),
    program("ionice").hook(Kind::Wrapper(&IONICE)),
    program("taskset").hook(Kind::Wrapper(&TASKSET)),
    program("flock").hook(Kind::Wrapper(&FLOCK)),
    program("setsid").hook(Kind::Wrapper(&PLAIN)).command(),
    program("unbuffer").hook(Kind::Wrapper(&PLAIN)),
    program("chronic").hook(Kind::Wrapper(&PLAIN)),
    program("env").hook(Kind::Wrapper(&PLAIN)).command(),
    // Package runners run the program they name.
    program("npx").hook(Kind::Wrapper(&NPX)).command(),
    program("pnpx").hook(Kind::Wrapper(&NPX)),
    program("bunx").hook(Kind::Wrapper(&NPX)),
    program("uvx").hook(Kind::Wrapper(&UVX)),
    program("uv").hook(Kind::Wrapper(&UV_RUN)),
    program("git-fararoni").hook(Kind::Wrapper(&FARARONI_RUN)),
    program("poetry").hook(Kind::Wrapper(&POETRY_RUN)),
    program("npm")
        .hook(Kind::Wrapper(&NPM_EXEC))
        .command()
        .builds(NPM),
    program("pnpm")
        .hook(Kind::Wrapper(&PNPM_EXEC))
        .command()
        .builds(PNPM),
    program("yarn")
        .hook(Kind::Wrapper(&BUNDLE_EXEC))
        .command()
        .builds(YARN),
    program("bundle").hook(Kind::Wrapper(&BUNDLE_EXEC)),
    program("direnv").hook(Kind::Wrapper(&DIRENV_EXEC)),
    program("strace").hook(Kind::Wrapper(&STRACE)).command(),
    program("ltrace").hook(Kind::Wrapper(&LTRACE)),
    program("valgrind").hook(Kind::Wrapper(&PLAIN)),
    program("firejail").hook(Kind::Wrapper(&PLAIN)),
    program("chroot").hook(Kind::Wrapper(&CHROOT)),
    program("unshare").hook(Kind::Wrapper(&UNSHARE)),
    program("nsenter").hook(Kind::Wrapper(&NSENTER)),
    program("systemd-run").hook(Kind::Wrapper(&SYSTEMD_RUN)),
    program("caffeinate").hook(Kind::Wrapper(&CAFFEINATE)),
    program("dotenv").hook(Kind::Wrapper(&DOTENV)),
    // Shells and string evaluation.
    program("bash").hook(Kind::Shell).command(),
    program("sh").hook(Kind::Shell).command(),
    program("zsh").hook(Kind::Shell).command(),
    program("dash").hook(Kind::Shell).command(),
    program("ksh").hook(Kind::Shell).command(),
    program("mksh").hook(Kind::Shell),
    program("fish").hook(Kind::Shell).command(),
    program("busybox").hook(Kind::Multicall),
    program("toybox").hook(Kind::Multicall),
    program("eval").hook(Kind::Eval).command(),
    program("trap").hook(Kind::Eval).command().word(),
    program("xargs").hook(Kind::Xargs).command(),
    program("parallel").hook(Kind::Parallel),
    // GNU parallel's `sem` is `parallel --semaphore`: it runs its command.
    program("sem").hook(Kind::Parallel),
    program("env_parallel").hook(Kind::Parallel),
    program("find")
        .hook(Kind::Find)
        .utility(files(&[]).style(Style::Find))
        .operands(Operands::PathsThenExpression)
        .word(),
    program("ssh").hook(Kind::Remote).command(),
    program("scp").hook(Kind::Remote).command(),
    program("sftp").hook(Kind::Remote).command(),
    program("watch").hook(Kind::Remote).command().word(),
    // Terminal multiplexers and job runners: `tmux new -d "CMD"`,
    // `screen -dm CMD`, `script -qc CMD /dev/null`, `entr -s CMD`,
    // `echo CMD | at now`.
    program("tmux").hook(Kind::Runner).command(),
    program("screen").hook(Kind::Runner).command().word(),
    program("script").hook(Kind::Runner),
    program("entr").hook(Kind::Runner),
    program("at").hook(Kind::Runner).command().word(),
    program("batch").hook(Kind::Runner),
    program("expect").hook(Kind::Runner),
    // Tools that run the command after their own options or sub-command
    // (`pipenv run CMD`, `nix-shell --run CMD`, `hyperfine CMD`,
    // `cross-env X=1 CMD`…), read the same way: whatever their options,
    // the command is among the words or is a word.
    program("chrt").hook(Kind::Runner),
    program("numactl").hook(Kind::Runner),
    program("prlimit").hook(Kind::Runner),
    program("cgexec").hook(Kind::Runner),
    program("runuser").hook(Kind::Runner),
    program("pkexec").hook(Kind::Runner),
    program("setpriv").hook(Kind::Runner),
    program("sg").hook(Kind::Runner),
    program("chpst").hook(Kind::Runner),
    program("bwrap").hook(Kind::Runner),
    program("fakeroot").hook(Kind::Runner),
    program("proot").hook(Kind::Runner),
    program("catchsegv").hook(Kind::Runner),
    program("xvfb-run").hook(Kind::Runner),
    program("dbus-run-session").hook(Kind::Runner),
    program("ssh-agent").hook(Kind::Runner),
    program("gdb").hook(Kind::Runner).command(),
    program("perf").hook(Kind::Runner),
    program("hyperfine").hook(Kind::Runner),
    program("rlwrap").hook(Kind::Runner),
    program("torsocks").hook(Kind::Runner),
    program("proxychains").hook(Kind::Runner),
    program("proxychains4").hook(Kind::Runner),
    program("tsp").hook(Kind::Runner),
    program("nq").hook(Kind::Runner),
    program("pueue").hook(Kind::Runner),
    program("daemonize").hook(Kind::Runner),
    program("start-stop-daemon").hook(Kind::Runner),
    program("nix-shell").hook(Kind::Runner),
    program("nix").hook(Kind::Runner),
    program("devbox").hook(Kind::Runner),
    program("mise").hook(Kind::Runner),
    program("asdf").hook(Kind::Runner),
    program("pipenv").hook(Kind::Runner),
    program("pdm").hook(Kind::Runner),
    program("hatch").hook(Kind::Runner),
    program("conda").hook(Kind::Runner),
    program("mamba").hook(Kind::Runner),
    program("micromamba").hook(Kind::Runner),
    program("rye").hook(Kind::Runner),
    program("pixi").hook(Kind::Runner),
    program("cross-env").hook(Kind::Runner),
    program("env-cmd").hook(Kind::Runner),
    program("dotenvx").hook(Kind::Runner),
    program("op").hook(Kind::Runner),
    program("doppler").hook(Kind::Runner),
    program("aws-vault").hook(Kind::Runner),
    program("infisical").hook(Kind::Runner),
    program("watchexec").hook(Kind::Runner),
    program("nodemon").hook(Kind::Runner),
    program("concurrently").hook(Kind::Runner),
    program("distrobox").hook(Kind::Runner),
    program("toolbox").hook(Kind::Runner),
    program("flatpak-spawn").hook(Kind::Runner),
    // make runs recipes (`--eval=…` gives one on the line); editors run
    // `:!CMD` and `(shell-command …)` given with `-c`, `+` or `--eval`.
    program("make")
        .hook(Kind::Runner)
        .command()
        .word()
        .builds(MAKE),
    program("gmake").hook(Kind::Runner),
    program("vim").hook(Kind::Runner).command(),
    program("vi").hook(Kind::Runner).command(),
    program("nvim").hook(Kind::Runner).command(),
    program("ex").hook(Kind::Runner),
    program("view").hook(Kind::Runner),
    program("emacs").hook(Kind::Runner).command(),
    // bash's `coproc CMD` runs CMD.
    program("coproc").hook(Kind::Wrapper(&PLAIN)),
    program("su").hook(Kind::Remote).command(),
    program("source").hook(Kind::Source).command().word(),
    program(".").hook(Kind::Source).command(),
    // Interpreters.
    program("python")
        .hook(Kind::Interpreter(Lang::Python))
        .command()
        .builds(PYTHON),
    program("python2").hook(Kind::Interpreter(Lang::Python)),
    program("python3")
        .hook(Kind::Interpreter(Lang::Python))
        .command()
        .builds(PYTHON),
    program("pypy").hook(Kind::Interpreter(Lang::Python)),
    program("pypy3").hook(Kind::Interpreter(Lang::Python)),
    program("node")
        .hook(Kind::Interpreter(Lang::Node))
        .command()
        .word()
        .builds(NODE),
    program("nodejs").hook(Kind::Interpreter(Lang::Node)),
    program("bun").hook(Kind::Interpreter(Lang::Node)).command(),
    program("deno")
        .hook(Kind::Interpreter(Lang::Node))
        .command(),
    program("perl")
        .hook(Kind::Interpreter(Lang::Perl))
        .command(),
    program("ruby")
        .hook(Kind::Interpreter(Lang::Ruby))
        .command(),
    program("php").hook(Kind::Interpreter(Lang::Php)).command(),
    // Lua's `-e CODE` and `-l NAME` read like Perl's; its file calls
    // (`os.remove`, `os.rename`, `io.open`, `os.execute`) are in the
    // inline tables.
    program("lua").hook(Kind::Interpreter(Lang::Perl)),
    program("luajit").hook(Kind::Interpreter(Lang::Perl)),
    // Windows' shells: their command strings are read for the commands
    // in `WINDOWS_DESTROYS` and for git.
    program("pwsh").hook(Kind::WindowsShell),
    program("powershell").hook(Kind::WindowsShell),
    program("cmd").hook(Kind::WindowsShell),
    // File changers (see `files`).
    program("rm").hook(Kind::Files).command(),
    program("rimraf").hook(Kind::Files),
    program("rmdir").hook(Kind::Files).command(),
    program("unlink").hook(Kind::Files),
    program("truncate").hook(Kind::Files).command(),
    program("mkfs").hook(Kind::Disk).command(),
    program("mke2fs").hook(Kind::Disk),
    program("mkswap").hook(Kind::Disk).command(),
    program("mkdosfs").hook(Kind::Disk),
    program("mkntfs").hook(Kind::Disk),
    program("wipefs").hook(Kind::Disk).command(),
    program("blkdiscard").hook(Kind::Disk),
    program("cryptsetup").hook(Kind::Disk),
    program("fdisk").hook(Kind::Disk).command(),
    program("sfdisk").hook(Kind::Disk),
    program("cfdisk").hook(Kind::Disk),
    program("gdisk").hook(Kind::Disk),
    program("sgdisk").hook(Kind::Disk),
    program("parted").hook(Kind::Disk).command(),
    program("badblocks").hook(Kind::Disk),
    program("shred").hook(Kind::Files).command(),
    program("dd").hook(Kind::Files).command(),
    program("mv").hook(Kind::Files).command(),
    program("cp").hook(Kind::Files).command(),
    program("ln").hook(Kind::Files).command(),
    program("install").hook(Kind::Files).command().word(),
    program("rsync").hook(Kind::Files).command(),
    program("sed").hook(Kind::Files).command(),
    program("tee").hook(Kind::Files).command(),
    program("chmod").hook(Kind::Files).command(),
    program("chown").hook(Kind::Files).command(),
    program("chgrp").hook(Kind::Files).command(),
    program("touch").hook(Kind::Files).command().word(),
    program("mkdir").hook(Kind::Files).command(),
    program("sort")
        .hook(Kind::Files)
        .utility(files(&[SORT, GNU]))
        .word(),
    // Network.
    program("curl").hook(Kind::Fetcher).command(),
    program("wget").hook(Kind::Fetcher).command(),
    program("fetch").hook(Kind::Fetcher),
    program("aria2c").hook(Kind::Fetcher),
    program("http").hook(Kind::Fetcher),
    program("https").hook(Kind::Fetcher),
    program("xh").hook(Kind::Fetcher),
    program("nc").hook(Kind::Listener).command(),
    program("ncat").hook(Kind::Listener).command(),
    program("netcat").hook(Kind::Listener).command(),
    program("socat").hook(Kind::Listener),
    program("telnet").hook(Kind::Listener).command(),
    // Shell state.
    program("cd")
        .hook(Kind::Cd)
        .utility(files(&[CD]).decide(cd_rule))
        .operands(Operands::Free),
    program("pushd").hook(Kind::Cd),
    program("popd").hook(Kind::Cd),
    program("alias").hook(Kind::Alias).command().word(),
    program("crontab").hook(Kind::Crontab).command(),
    // Programs that only read, or change only the shell's own state (unless
    // given an option of their `escapes`). `uniq IN OUT` and `xxd IN OUT`
    // write OUT and `mount` hides folders: they are other programs, allowed
    // after the dirty-set snapshot.
    program("ls")
        .hook(Kind::ReadOnly)
        .utility(files(&[LS, GNU])),
    program("cat")
        .hook(Kind::ReadOnly)
        .utility(files(&[CAT, GNU])),
    program("head")
        .hook(Kind::ReadOnly)
        .utility(files(&[HEAD, GNU]).numeric())
        .word(),
    program("tail")
        .hook(Kind::ReadOnly)
        .utility(files(&[TAIL, GNU]).numeric().decide(tail_rule))
        .word(),
    program("less")
        .hook(Kind::ReadOnly)
        .escapes(PLUS_COMMAND)
        .command()
        .word(),
    program("more")
        .hook(Kind::ReadOnly)
        .escapes(PLUS_COMMAND)
        .command()
        .word(),
    program("grep")
        .hook(Kind::ReadOnly)
        .utility(files(&[GREP]).numeric())
        .operands(Operands::PatternThenPaths),
    program("egrep").hook(Kind::ReadOnly),
    program("fgrep").hook(Kind::ReadOnly),
    program("rg")
        .hook(Kind::ReadOnly)
        .escapes(RG_PRE)
        .utility(files(&[RG]))
        .operands(Operands::PatternThenPaths),
    program("ag").hook(Kind::ReadOnly),
    program("ack").hook(Kind::ReadOnly),
    program("wc")
        .hook(Kind::ReadOnly)
        .utility(files(&[WC, GNU])),
    program("echo")
        .hook(Kind::ReadOnly)
        .utility(reads(&[ECHO]).style(Style::Echo))
        .operands(Operands::Free),
    program("printf")
        .hook(Kind::ReadOnly)
        .operands(Operands::Free),
    program("pwd")
        .hook(Kind::ReadOnly)
        .utility(files(&[PWD]))
        .operands(Operands::Free),
    program("which")
        .hook(Kind::ReadOnly)
        .utility(files(&[WHICH]))
        .operands(Operands::Programs),
    program("type").hook(Kind::ReadOnly),
    program("whereis").hook(Kind::ReadOnly),
    program("file")
        .hook(Kind::ReadOnly)
        .utility(files(&[FILE]))
        .word(),
    program("stat")
        .hook(Kind::ReadOnly)
        .utility(files(&[STAT, GNU])),
    program("du")
        .hook(Kind::ReadOnly)
        .utility(files(&[DU, GNU])),
    program("df")
        .hook(Kind::ReadOnly)
        .utility(files(&[DF, GNU])),
    program("tree")
        .hook(Kind::ReadOnly)
        .escapes(TREE_OUTPUT)
        .utility(files(&[TREE]).decide(tree_rule)),
    program("cut")
        .hook(Kind::ReadOnly)
        .utility(files(&[CUT, GNU]))
        .word(),
    program("tr")
        .hook(Kind::ReadOnly)
        .utility(files(&[TR, GNU]))
        .operands(Operands::Free),
    program("diff")
        .hook(Kind::ReadOnly)
        .utility(files(&[DIFF]).numeric())
        .word(),
    program("cmp").hook(Kind::ReadOnly).utility(files(&[CMP])),
    program("comm")
        .hook(Kind::ReadOnly)
        .utility(files(&[COMM, GNU]))
        .word(),
    program("jq").hook(Kind::ReadOnly),
    program("yq").hook(Kind::ReadOnly).escapes(YQ_IN_PLACE),
    program("date")
        .hook(Kind::ReadOnly)
        .utility(files(&[DATE, GNU]).decide(date_rule))
        .operands(Operands::Free),
    program("whoami")
        .hook(Kind::ReadOnly)
        .utility(files(&[WHOAMI, GNU]))
        .operands(Operands::Nothing),
    program("uname")
        .hook(Kind::ReadOnly)
        .utility(files(&[UNAME, GNU]))
        .operands(Operands::Nothing),
    program("id")
        .hook(Kind::ReadOnly)
        .utility(files(&[ID, GNU]))
        .operands(Operands::Free),
    program("hostname")
        .hook(Kind::ReadOnly)
        .utility(files(&[HOSTNAME]).decide(hostname_rule))
        .operands(Operands::Free),
    program("basename")
        .hook(Kind::ReadOnly)
        .utility(files(&[BASENAME, GNU]))
        .operands(Operands::Free),
    program("dirname")
        .hook(Kind::ReadOnly)
        .utility(files(&[DIRNAME, GNU]))
        .operands(Operands::Free),
    program("realpath")
        .hook(Kind::ReadOnly)
        .utility(files(&[REALPATH, GNU])),
    program("readlink")
        .hook(Kind::ReadOnly)
        .utility(files(&[READLINK, GNU])),
    program("seq").hook(Kind::ReadOnly),
    program("true").hook(Kind::ReadOnly),
    program("false").hook(Kind::ReadOnly),
    program("test").hook(Kind::ReadOnly).word(),
    program("[").hook(Kind::ReadOnly),
    program("sleep").hook(Kind::ReadOnly),
    program("printenv").hook(Kind::ReadOnly).command(),
    program("ps").hook(Kind::ReadOnly),
    program("column")
        .hook(Kind::ReadOnly)
        .utility(files(&[COLUMN]))
        .word(),
    program("nl")
        .hook(Kind::ReadOnly)
        .utility(files(&[NL, GNU])),
    program("od")
        .hook(Kind::ReadOnly)
        .utility(files(&[OD, GNU])),
    program("hexdump")
        .hook(Kind::ReadOnly)
        .utility(files(&[HEXDUMP])),
    program("md5sum")
        .hook(Kind::ReadOnly)
        .utility(files(&[SUMS, GNU])),
    program("sha1sum")
        .hook(Kind::ReadOnly)
        .utility(files(&[SUMS, GNU])),
    program("sha256sum")
        .hook(Kind::ReadOnly)
        .utility(files(&[SUMS, GNU])),
    program("sha512sum")
        .hook(Kind::ReadOnly)
        .utility(files(&[SUMS, GNU])),
    program("cksum")
        .hook(Kind::ReadOnly)
        .utility(files(&[CKSUM, GNU])),
    program("b2sum")
        .hook(Kind::ReadOnly)
        .utility(files(&[SUMS, B2SUM, GNU])),
    program("base64").hook(Kind::ReadOnly).command(),
    program("tac")
        .hook(Kind::ReadOnly)
        .utility(files(&[TAC, GNU]))
        .word(),
    program("rev")
        .hook(Kind::ReadOnly)
        .utility(files(&[REV]))
        .word(),
    program("fold")
        .hook(Kind::ReadOnly)
        .utility(files(&[FOLD, GNU]).numeric())
        .word(),
    program("fmt")
        .hook(Kind::ReadOnly)
        .utility(files(&[FMT, GNU]).numeric())
        .word(),
    program("paste")
        .hook(Kind::ReadOnly)
        .utility(files(&[PASTE, GNU]))
        .word(),
    program("join")
        .hook(Kind::ReadOnly)
        .utility(files(&[JOIN, GNU]))
        .word(),
    program("expand")
        .hook(Kind::ReadOnly)
        .utility(files(&[EXPAND, GNU]).numeric())
        .word(),
    program("unexpand")
        .hook(Kind::ReadOnly)
        .utility(files(&[UNEXPAND, GNU]).numeric())
        .word(),
    program("strings").hook(Kind::ReadOnly),
    program("awk").hook(Kind::ReadOnly).escapes(AWK).command(),
    program("gawk").hook(Kind::ReadOnly).escapes(AWK).command(),
    program("mawk").hook(Kind::ReadOnly).escapes(AWK),
    program("export").hook(Kind::ReadOnly).command().word(),
    program("unset").hook(Kind::ReadOnly).command(),
    program("local").hook(Kind::ReadOnly),
    program("declare").hook(Kind::ReadOnly),
    program("typeset").hook(Kind::ReadOnly),
    program("readonly").hook(Kind::ReadOnly),
    program("read").hook(Kind::ReadOnly),
    program("mapfile").hook(Kind::ReadOnly),
    program("readarray").hook(Kind::ReadOnly),
    program("exit").hook(Kind::ReadOnly),
    program("return").hook(Kind::ReadOnly),
    program("shift").hook(Kind::ReadOnly),
    program("wait").hook(Kind::ReadOnly),
    program("jobs").hook(Kind::ReadOnly),
    program("dirs").hook(Kind::ReadOnly),
    program("set").hook(Kind::ReadOnly).command().word(),
    program("shopt").hook(Kind::ReadOnly).command(),
    program("let").hook(Kind::ReadOnly),
    program(":").hook(Kind::ReadOnly).command(),
    program("hash").hook(Kind::ReadOnly).escapes(HASH_PATH),
    program("ulimit").hook(Kind::ReadOnly),
    program("umask").hook(Kind::ReadOnly),
    program("history")
        .hook(Kind::ReadOnly)
        .escapes(HISTORY_FILE)
        .command()
        .word(),
    program("help").hook(Kind::ReadOnly),
    program("man").hook(Kind::ReadOnly).escapes(MAN_PAGER),
    program("info").hook(Kind::ReadOnly),
    program("lsof").hook(Kind::ReadOnly),
    program("tput").hook(Kind::ReadOnly),
    program("clear").hook(Kind::ReadOnly).command().word(),
    program("reset").hook(Kind::ReadOnly),
    program("nproc")
        .hook(Kind::ReadOnly)
        .utility(files(&[NPROC, GNU]))
        .operands(Operands::Nothing),
    program("free")
        .hook(Kind::ReadOnly)
        .utility(files(&[FREE]).decide(free_rule))
        .operands(Operands::Nothing)
        .word(),
    program("uptime")
        .hook(Kind::ReadOnly)
        .utility(files(&[UPTIME]))
        .operands(Operands::Nothing)
        .word(),
    program("whatis").hook(Kind::ReadOnly),
    program("apropos").hook(Kind::ReadOnly),
    program("locale").hook(Kind::ReadOnly),
    program("getconf").hook(Kind::ReadOnly),
    program("fd").hook(Kind::ReadOnly).escapes(FD_EXEC),
    program("fdfind").hook(Kind::ReadOnly).escapes(FD_EXEC),
    program("bat").hook(Kind::ReadOnly).escapes(PAGER),
    program("batcat").hook(Kind::ReadOnly).escapes(PAGER),
    program("delta").hook(Kind::ReadOnly).escapes(PAGER),
    program("exa").hook(Kind::ReadOnly),
    program("eza").hook(Kind::ReadOnly),
    program("zcat").hook(Kind::ReadOnly),
    program("gzcat").hook(Kind::ReadOnly),
    program("zgrep").hook(Kind::ReadOnly),
    program("bzcat").hook(Kind::ReadOnly),
    program("xzcat").hook(Kind::ReadOnly),
    program("lscpu").hook(Kind::ReadOnly),
    program("lsblk").hook(Kind::ReadOnly),
    program("findmnt").hook(Kind::ReadOnly),
    program("groups").hook(Kind::ReadOnly),
    program("users").hook(Kind::ReadOnly),
    program("who").hook(Kind::ReadOnly),
    program("w").hook(Kind::ReadOnly),
    program("last").hook(Kind::ReadOnly),
    program("sha224sum")
        .hook(Kind::ReadOnly)
        .utility(files(&[SUMS, GNU])),
    program("sha384sum")
        .hook(Kind::ReadOnly)
        .utility(files(&[SUMS, GNU])),
    program("cal").hook(Kind::ReadOnly),
    program("bc").hook(Kind::ReadOnly),
    program("expr").hook(Kind::ReadOnly),
    program("numfmt").hook(Kind::ReadOnly),
    program("shuf").hook(Kind::ReadOnly).escapes(SHUF_OUTPUT),
    program("tsort").hook(Kind::ReadOnly),
    program("pr").hook(Kind::ReadOnly),
    // Level 1 runs these; to the hook they are other programs.
    program("uniq").utility(files(&[UNIQ, GNU]).numeric().decide(uniq_rule)),
    // Names level 1 knows as commands and never runs.
    program("shutdown").command(),
    program("reboot").command(),
    program("halt").command(),
    program("poweroff").command(),
    program("kill").command().word(),
    program("killall").command(),
    program("pkill").command(),
    program("csh").command(),
    program("pip").command(),
    program("pip3").command(),
    program("cargo").command().builds(CARGO),
    program("rustc").command(),
    program("rustup").command(),
    program("mvn").command().builds(MAVEN),
    program("gradle").command().builds(GRADLE),
    program("cmake").command(),
    program("ninja").command(),
    program("go").command().word().builds(GO),
    program("java").command(),
    program("javac").command(),
    program("docker").command(),
    program("podman").command(),
    program("kubectl").command(),
    program("helm").command(),
    program("terraform").command(),
    program("ftp").command(),
    program("apt").command(),
    program("apt-get").command(),
    program("dpkg").command(),
    program("yum").command(),
    program("dnf").command(),
    program("brew").command(),
    program("pacman").command(),
    program("snap").command(),
    program("systemctl").command(),
    program("service").command(),
    program("nano").command(),
    program("code").command().word(),
    program("open").command().word(),
    program("xdg-open").command(),
    program("gh").command(),
    program("tar").command(),
    program("zip").command(),
    program("unzip").command(),
    program("gzip").command(),
    program("gunzip").command(),
    program("patch").command().word(),
    program("chattr").command(),
    program("mount").command(),
    program("umount").command(),
    program("swapon").command(),
    program("iptables").command(),
    program("useradd").command(),
    program("userdel").command(),
    program("usermod").command(),
    program("passwd").command(),
    program("sqlite3").command(),
    program("psql").command(),
    program("mysql").command(),
    program("redis-cli").command(),
    program("git-lfs").command(),
    program("tig").command(),
    program("lazygit").command(),
    program("openssl").command(),
    program("gpg").command(),
    // Everyday words that are also programs level 1 knows nothing else about.
    program("link").word(),
    program("top").word(),
    // Builds and tests our agent runs, and nothing else knows.
    program("just").builds(JUST),
    program("pytest").builds(PYTEST),
    program("ruff").builds(RUFF),
    program("eslint").builds(ESLINT),
    program("mypy").builds(MYPY),
    program("./mvnw").builds(MAVEN),
    program("./gradlew").builds(GRADLE),
    program("tsc").builds(TSC),
    program("dotnet").builds(DOTNET),
];
