//! Archives extracted over work: which archive a command line extracts,
//! and whether it may replace files that are already there. The extractor
//! overwrites a member's path whatever is in it (a modified file, an
//! untracked draft, `.env.local`), so the members are listed first (through
//! [`super::LossFacts::archive_members`]) and each existing one is judged
//! like an overwrite; an archive whose members cannot be listed (read from
//! stdin, a format the guard does not list) is refused over a folder that
//! holds work. Options that never replace an existing file make extraction
//! only create.

/// One archive program: how its command line names the archive and how it
/// is told to keep existing files.
#[derive(Debug)]
pub struct Archiver {
    /// The program names.
    pub programs: &'static [&'static str],
    /// Options whose value is the archive (`-f`); empty: the first operand
    /// after the subcommand is.
    pub archive: &'static [&'static str],
    /// Subcommands that extract (7-Zip's `x` and `e`); empty: none.
    pub extract_commands: &'static [&'static str],
    /// Options after which no existing file is replaced.
    pub keeps: &'static [&'static str],
    /// Options that take a value (skipped when looking for the operand).
    pub with_value: &'static [&'static str],
    /// Options that only list, test or print: nothing is extracted.
    pub only_read: &'static [&'static str],
}

/// The archive programs (GNU tar(1), bsdtar(1), unzip(1), 7z(1)).
pub const ARCHIVERS: &[Archiver] = &[
    Archiver {
        programs: &["tar", "gtar"],
        archive: &["-f", "--file"],
        extract_commands: &[],
        keeps: &["-k", "--keep-old-files", "--skip-old-files"],
        with_value: &[
            "-C",
            "--directory",
            "-X",
            "--exclude-from",
            "-T",
            "--files-from",
            "-b",
            "-H",
            "-I",
            "--use-compress-program",
            "--exclude",
            "--format",
            "--owner",
            "--group",
            "--mode",
            "--strip-components",
        ],
        only_read: &[],
    },
    Archiver {
        programs: &["bsdtar"],
        archive: &["-f", "--file"],
        extract_commands: &[],
        keeps: &["-k", "--keep-old-files"],
        with_value: &["-C", "--cd", "--directory", "-T", "-X", "-s", "--exclude"],
        only_read: &[],
    },
    Archiver {
        programs: &["unzip"],
        archive: &[],
        extract_commands: &[],
        keeps: &["-n"],
        with_value: &["-d", "-x", "-P"],
        only_read: &["-l", "-t", "-v", "-Z", "-z", "-p", "-c"],
    },
    Archiver {
        programs: &["7z", "7za", "7zr", "7zz"],
        archive: &[],
        extract_commands: &["x", "e"],
        keeps: &["-aos", "-aou", "-aot"],
        with_value: &[],
        only_read: &[],
    },
];

/// The row of `program`.
pub fn archiver(program: &str) -> Option<&'static Archiver> {
    ARCHIVERS.iter().find(|a| a.programs.contains(&program))
}

/// What an extracting command line says about its archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extraction {
    /// The archive's file name as written; `None` when read from stdin
    /// (`-f -`, no `-f`).
    pub archive: Option<String>,
    /// Whether it never replaces an existing file.
    pub keeps: bool,
    /// For 7-Zip: whether it extracts at all (`x`/`e`; `l`, `t` only
    /// read).
    pub extracts: bool,
}

impl Archiver {
    /// Whether a short option letter of `option` is inside the cluster or
    /// tar's old-style first word `word` (at `k`).
    fn in_cluster(&self, k: usize, word: &str, option: &str) -> bool {
        let Some(letter) = option.strip_prefix('-').filter(|l| l.len() == 1) else {
            return false;
        };
        let old_style = k == 0 && self.programs.contains(&"tar") && !word.starts_with('-');
        let cluster = word.starts_with('-') && !word.starts_with("--");
        (old_style || cluster) && word.trim_start_matches('-').contains(letter)
    }

    /// Reads the words after the program.
    pub fn reading(&self, args: &[String]) -> Extraction {
        let keeps = args.iter().enumerate().any(|(k, a)| {
            self.keeps.iter().any(|o| {
                a == o
                    || (o.starts_with("--") && a.starts_with(&format!("{o}=")))
                    || (o.len() == 2 && self.in_cluster(k, a, o))
            })
        });
        let reads = args.iter().enumerate().any(|(k, a)| {
            self.only_read
                .iter()
                .any(|o| a == o || self.in_cluster(k, a, o))
        });
        if reads {
            return Extraction {
                archive: None,
                keeps,
                extracts: false,
            };
        }
        if self.extract_commands.is_empty() && self.archive.is_empty() {
            // unzip: the first operand.
            let mut k = 0;
            while k < args.len() {
                let a = &args[k];
                if self.with_value.contains(&a.as_str()) {
                    k += 2;
                    continue;
                }
                if !a.starts_with('-') {
                    return Extraction {
                        archive: Some(a.clone()),
                        keeps,
                        extracts: true,
                    };
                }
                k += 1;
            }
            return Extraction {
                archive: None,
                keeps,
                extracts: true,
            };
        }
        if !self.extract_commands.is_empty() {
            let mut operands = args.iter().filter(|a| !a.starts_with('-'));
            let command = operands.next();
            let extracts = command.is_some_and(|c| self.extract_commands.contains(&c.as_str()));
            return Extraction {
                archive: operands.next().cloned(),
                keeps,
                extracts,
            };
        }
        // tar: `-f FILE`, `--file=FILE`, `-xf FILE`, `-xfFILE`, `xf FILE`.
        let mut archive = None;
        for (k, a) in args.iter().enumerate() {
            if let Some(v) = a.strip_prefix("--file=") {
                archive = Some(v.to_string());
            } else if a == "--file" || a == "-f" {
                archive = args.get(k + 1).cloned();
            } else if self.in_cluster(k, a, "-f") {
                let letters = a.trim_start_matches('-');
                let after_f = letters.split_once('f').map_or("", |(_, r)| r);
                if !after_f.is_empty() && a.starts_with('-') {
                    archive = Some(after_f.to_string());
                } else {
                    // The value is the next word after the cluster (and
                    // after the values of letters before `f`).
                    let before: usize = letters.split_once('f').map_or(0, |(b, _)| {
                        b.chars().filter(|c| "CXTbHI".contains(*c)).count()
                    });
                    archive = args.get(k + 1 + before).cloned();
                }
            }
        }
        Extraction {
            archive: archive.filter(|a| a != "-"),
            keeps,
            extracts: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(program: &str, line: &str) -> Extraction {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        archiver(program)
            .map(|a| a.reading(&args))
            .expect("archiver")
    }

    #[test]
    fn the_archive_and_keeping_options_are_read() {
        assert_eq!(read("tar", "-xf a.tar").archive.as_deref(), Some("a.tar"));
        assert_eq!(read("tar", "xvf a.tar").archive.as_deref(), Some("a.tar"));
        assert_eq!(
            read("tar", "-x --file=a.tgz -C .").archive.as_deref(),
            Some("a.tgz")
        );
        assert_eq!(
            read("tar", "-C . -x -f a.tar").archive.as_deref(),
            Some("a.tar")
        );
        assert_eq!(read("tar", "-xfa.tar").archive.as_deref(), Some("a.tar"));
        assert_eq!(read("tar", "-x").archive, None);
        assert_eq!(read("tar", "-xf -").archive, None);
        assert!(read("tar", "-xkf a.tar").keeps);
        assert!(read("tar", "-xf a.tar --skip-old-files").keeps);
        assert!(!read("tar", "-xf a.tar").keeps);
        assert_eq!(read("unzip", "-o a.zip").archive.as_deref(), Some("a.zip"));
        assert_eq!(
            read("unzip", "-d out a.zip").archive.as_deref(),
            Some("a.zip")
        );
        assert!(read("unzip", "-n a.zip").keeps);
        assert!(!read("unzip", "-l a.zip").extracts);
        let x = read("7z", "x -y a.7z");
        assert!(x.extracts && x.archive.as_deref() == Some("a.7z"));
        assert!(!read("7z", "l a.7z").extracts);
        assert!(read("7z", "x -aos a.7z").keeps);
    }
}
