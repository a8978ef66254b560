//! GNU `parallel` (and `env_parallel`), read the way it builds its jobs:
//! a command template whose replacement strings (`{}`, `{.}`, `{/}`,
//! `{1}`…) are filled with each input, or — with no template — the
//! inputs themselves as command lines. Inputs come from `:::` words
//! (known), `::::` files, `-a FILE` or stdin (not known here). Each job is
//! a command line the judge reads like any other, so `parallel rm -rf {}
//! ::: src` is `rm -rf src`.
//!
//! parallel hands the joined template to a shell, so quoting inside the
//! template is lost unless `-q`; both readings are judged.

/// A shell word that stands for an input the guard cannot see; the judge
/// keeps `$parallel_input` unknown while it reads the jobs.
pub const UNKNOWN_INPUT: &str = "\"$parallel_input\"";

/// The variable behind [`UNKNOWN_INPUT`].
pub const UNKNOWN_VAR: &str = "parallel_input";

/// Options that take a value (`-j 4`, `-j4`, `--jobs 4`, `--jobs=4`).
const WITH_VALUE: &[&str] = &[
    "-j",
    "--jobs",
    "-P",
    "--max-procs",
    "-n",
    "--max-args",
    "-N",
    "-L",
    "--max-lines",
    "-s",
    "--max-chars",
    "-d",
    "--delimiter",
    "-E",
    "--eof",
    "-C",
    "--colsep",
    "--results",
    "--res",
    "--joblog",
    "--tmpdir",
    "--tempdir",
    "-S",
    "--sshlogin",
    "--sshloginfile",
    "--slf",
    "--ssh",
    "--basefile",
    "--bf",
    "--return",
    "--workdir",
    "--wd",
    "--timeout",
    "--delay",
    "--retries",
    "--load",
    "--memfree",
    "--memsuspend",
    "--nice",
    "--halt",
    "--halt-on-error",
    "--tag-string",
    "--tagstring",
    "--header",
    "--env",
    "--block",
    "--block-size",
    "--recstart",
    "--recend",
    "--termseq",
    "--limit",
    "--semaphorename",
    "--id",
    "--rpl",
    "--parens",
    "--shebang-wrap",
    "--sqlmaster",
    "--sqlworker",
    "--sqlandworker",
];

/// Options that take no value.
const FLAGS: &[&str] = &[
    "-0",
    "--null",
    "-k",
    "--keep-order",
    "-q",
    "--quote",
    "-v",
    "--verbose",
    "-t",
    "-u",
    "--ungroup",
    "--lb",
    "--line-buffer",
    "--linebuffer",
    "--group",
    "-r",
    "--no-run-if-empty",
    "-X",
    "--xargs",
    "-m",
    "-x",
    "--pipe",
    "--pipepart",
    "--spreadstdin",
    "--eta",
    "--bar",
    "--progress",
    "--will-cite",
    "--no-notice",
    "--tag",
    "--files",
    "--shuf",
    "--keep",
    "--compress",
    "--fg",
    "--wait",
    "--bg",
    "--plus",
    "--silent",
    "--resume",
    "--resume-failed",
    "--retry-failed",
    "--ungroup",
    "--trim",
    "--shellquote",
    "--cat",
    "--fifo",
    "--csv",
    "--semaphore",
    "--tmux",
    "--tmuxpane",
    "--transfer",
    "--cleanup",
    "--trc",
    "--nonall",
    "--onall",
    "--sqlworker",
    "--use-cpus-instead-of-cores",
    "--use-cores-instead-of-threads",
];

/// Options after which nothing runs.
const NO_JOBS: &[&str] = &[
    "--dry-run",
    "--dryrun",
    "--help",
    "-h",
    "--version",
    "-V",
    "--number-of-cpus",
    "--number-of-cores",
    "--number-of-threads",
    "--number-of-sockets",
    "--citation",
    "--bibtex",
    "--minversion",
    "--max-line-length-allowed",
];

/// One input value: seen on the line, or not.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Input {
    Known(String),
    Unknown,
}

/// The command lines `parallel ARGS…` would run (`args` after the program
/// name), or why the guard cannot tell.
pub fn jobs(args: &[String]) -> Result<Vec<String>, String> {
    let mut i = 0;
    let mut replace = "{}".to_string();
    let mut arg_sep = ":::".to_string();
    let mut file_sep = "::::".to_string();
    let mut quote = false;
    let mut pipe = false;
    let mut from_file = false;
    while i < args.len() {
        let a = args[i].as_str();
        if a == arg_sep || a == file_sep || !a.starts_with('-') || a == "-" {
            break;
        }
        i += 1;
        if a == "--" {
            break;
        }
        if NO_JOBS.contains(&a) {
            return Ok(Vec::new());
        }
        let (flag, attached) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a, None),
        };
        // Short options take an attached value (`-j4`, `-I{}`).
        let (flag, attached) = if attached.is_none() && !flag.starts_with("--") && flag.len() > 2 {
            (&flag[..2], Some(flag[2..].to_string()))
        } else {
            (flag, attached)
        };
        if FLAGS.contains(&flag) && attached.is_none() {
            quote |= matches!(flag, "-q" | "--quote");
            // `--semaphore` runs the template once, as it is, like `--pipe`
            // appends no input to it.
            pipe |= matches!(
                flag,
                "--pipe" | "--pipepart" | "--spreadstdin" | "--semaphore"
            );
            continue;
        }
        let takes = WITH_VALUE.contains(&flag)
            || matches!(
                flag,
                "-I" | "-a" | "--arg-file" | "--arg-sep" | "--arg-file-sep"
            );
        if !takes {
            return Err(format!(
                "`parallel` is given the option `{a}`, which the guard does not know"
            ));
        }
        let value = match attached {
            Some(v) => v,
            None => {
                let v = args
                    .get(i)
                    .cloned()
                    .ok_or_else(|| format!("`parallel {flag}` has no value"))?;
                i += 1;
                v
            }
        };
        match flag {
            "-I" => replace = value,
            "-a" | "--arg-file" => from_file = true,
            "--arg-sep" => arg_sep = value,
            "--arg-file-sep" => file_sep = value,
            _ => {}
        }
    }
    // The template, then the input groups.
    let mut template: Vec<String> = Vec::new();
    while i < args.len() && args[i] != arg_sep && args[i] != file_sep {
        template.push(args[i].clone());
        i += 1;
    }
    let mut groups: Vec<Vec<Input>> = Vec::new();
    while i < args.len() {
        let sep = args[i].trim_end_matches('+').to_string();
        i += 1;
        let mut g = Vec::new();
        while i < args.len()
            && args[i].trim_end_matches('+') != arg_sep
            && args[i].trim_end_matches('+') != file_sep
        {
            g.push(if sep == file_sep {
                Input::Unknown
            } else {
                Input::Known(args[i].clone())
            });
            i += 1;
        }
        groups.push(g);
    }
    if from_file || (groups.is_empty() && !pipe) {
        groups.push(vec![Input::Unknown]);
    }
    if template.iter().any(|w| w.contains("{=")) {
        return Err("`parallel` is given a `{= … =}` replacement, which runs Perl code".into());
    }
    let rows = rows(&groups);
    if template.is_empty() {
        // The inputs are the commands.
        let mut out = Vec::new();
        for row in rows {
            let mut words = Vec::new();
            for v in row {
                match v {
                    Input::Known(t) => words.push(t),
                    Input::Unknown => {
                        return Err(
                            "`parallel` runs command lines read from stdin or a file, which the guard cannot see".into(),
                        )
                    }
                }
            }
            out.push(words.join(" "));
        }
        return Ok(out);
    }
    if pipe {
        // Input goes to the command's stdin, not into its words.
        return Ok(readings(&template, &[], &replace, quote));
    }
    let mut out = Vec::new();
    for row in rows {
        for line in readings(&template, &row, &replace, quote) {
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    Ok(out)
}

/// The rows of inputs jobs are built from: every value of every group at
/// least once (the full product can be huge; a file operation is judged
/// per value anyway).
fn rows(groups: &[Vec<Input>]) -> Vec<Vec<Input>> {
    let n = groups.iter().map(Vec::len).max().unwrap_or(0);
    (0..n)
        .map(|k| {
            groups
                .iter()
                .filter(|g| !g.is_empty())
                .map(|g| g[k % g.len()].clone())
                .collect()
        })
        .collect()
}

/// The template filled with one row: as the shell reads the joined words
/// (parallel's default) and, unless that is the same, word by word (`-q`).
fn readings(template: &[String], row: &[Input], replace: &str, quote: bool) -> Vec<String> {
    let mut used = false;
    let mut joined = Vec::new();
    let mut quoted = Vec::new();
    for w in template {
        let (raw, q, u) = fill(w, row, replace);
        used |= u;
        joined.push(raw);
        quoted.push(q);
    }
    if !used {
        for v in row {
            joined.push(value_word(v));
            quoted.push(value_word(v));
        }
    }
    let joined = joined.join(" ");
    let quoted = quoted.join(" ");
    if quote || joined == quoted {
        vec![quoted]
    } else {
        vec![joined, quoted]
    }
}

/// An input as one shell word (parallel quotes what it substitutes).
fn value_word(v: &Input) -> String {
    match v {
        Input::Known(t) => crate::text::quote::word(t),
        Input::Unknown => UNKNOWN_INPUT.to_string(),
    }
}

/// One template word with its replacement strings filled: as raw text,
/// as one quoted word, and whether any replacement was found.
fn fill(word: &str, row: &[Input], replace: &str) -> (String, String, bool) {
    let mut raw = String::new();
    let mut quoted = String::new();
    let mut used = false;
    let mut rest = word;
    while !rest.is_empty() {
        if let Some((len, value)) = replacement(rest, row, replace) {
            used = true;
            raw.push_str(&value);
            quoted.push_str(&value);
            rest = &rest[len..];
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        raw.push(c);
        quoted.push_str(&crate::text::quote::word(&c.to_string()));
        rest = &rest[c.len_utf8()..];
    }
    (raw, quoted, used)
}

/// The replacement string at the start of `s`, if any: its length and the
/// shell word it becomes.
fn replacement(s: &str, row: &[Input], replace: &str) -> Option<(usize, String)> {
    let first = row.first().cloned().unwrap_or(Input::Unknown);
    if !replace.is_empty() && s.starts_with(replace) {
        return Some((replace.len(), value_word(&first)));
    }
    if !s.starts_with('{') {
        return None;
    }
    let end = s.find('}')?;
    let inner = &s[1..end];
    let digits: String = inner.chars().take_while(char::is_ascii_digit).collect();
    let form = &inner[digits.len()..];
    let input = if digits.is_empty() {
        first
    } else {
        let n: usize = digits.parse().ok()?;
        row.get(n.checked_sub(1)?)
            .cloned()
            .unwrap_or(Input::Unknown)
    };
    let word = match (form, &input) {
        ("#" | "%", _) if digits.is_empty() => "1".to_string(),
        (_, Input::Unknown) if matches!(form, "" | "." | "/" | "//" | "/.") => {
            UNKNOWN_INPUT.to_string()
        }
        ("", Input::Known(t)) if !digits.is_empty() => crate::text::quote::word(t),
        (".", Input::Known(t)) => crate::text::quote::word(strip_ext(t)),
        ("/", Input::Known(t)) => crate::text::quote::word(base(t)),
        ("//", Input::Known(t)) => crate::text::quote::word(dir(t)),
        ("/.", Input::Known(t)) => crate::text::quote::word(strip_ext(base(t))),
        _ => return None,
    };
    Some((end + 1, word))
}

fn base(t: &str) -> &str {
    t.trim_end_matches('/').rsplit('/').next().unwrap_or(t)
}

fn dir(t: &str) -> &str {
    match t.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) => "/",
        Some((d, _)) => d,
        None => ".",
    }
}

fn strip_ext(t: &str) -> &str {
    match t.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() && !s.ends_with('/') && !e.contains('/') => s,
        _ => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Vec<String> {
        let v: Vec<String> = s.split_whitespace().map(String::from).collect();
        jobs(&v).expect("jobs")
    }

    #[test]
    fn templates_are_filled_from_the_inputs() {
        assert_eq!(j("rm -rf {} ::: src build"), ["rm -rf src", "rm -rf build"]);
        assert_eq!(j("-j2 rm -rf ::: src"), ["rm -rf src"]);
        assert_eq!(j("--jobs=2 rm {.}.o ::: a.c"), ["rm a.o"]);
        assert_eq!(j("-I@@ mv @@ {/} ::: x/y"), ["mv x/y y"]);
        assert_eq!(j("rm {2} ::: a ::: b"), ["rm b"]);
        assert_eq!(j("::: ls"), ["ls"]);
        assert_eq!(j("rm -rf {}"), ["rm -rf \"$parallel_input\""]);
        assert_eq!(j("rm :::: list.txt"), ["rm \"$parallel_input\""]);
        assert!(j("--dry-run rm -rf {} ::: src").is_empty());
        assert_eq!(j("--semaphore rm -rf src"), ["rm -rf src"]);
    }

    #[test]
    fn inputs_as_commands_and_unknowns() {
        assert_eq!(j("::: a b"), ["a", "b"]);
        assert!(jobs(&["-j2".into()]).is_err());
        assert!(jobs(&["--frobnicate".into(), "rm".into()]).is_err());
        assert!(jobs(&["rm".into(), "{= $_ =}".into()]).is_err());
    }

    #[test]
    fn both_readings_of_a_quoted_template() {
        let v: Vec<String> = ["bash", "-c", "rm -rf {}", ":::", "src"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let got = jobs(&v).expect("jobs");
        assert_eq!(got, ["bash -c rm -rf src", "bash -c rm' '-rf' 'src"]);
    }
}
