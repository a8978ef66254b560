//! Scripts the agent runs from files (`sh x.sh`, `python3 x.py`,
//! `awk -f x.awk`, `make -f x.mk`, `source x.sh`…): the guard does not
//! read them, so they are other programs — allowed after the
//! dirty-set snapshot, and what they destroy comes back with
//! `undo --session`. Checked by effect with each interpreter installed
//! here, the script deleting an untracked file and gutting a modified
//! tracked one. The same code given inline is judged and vetoed.

use crate::common::{Out, TestRepo};
use serde_json::json;

use crate::test_hook_agents::{
    assert_allowed, assert_vetoed, fixture, hook, repo_with_source, shell_call, source,
};

/// A script in each language that deletes `src/draft.py` and replaces
/// `src/app.py` with one line: (program needed, file, content, command).
const SCRIPTS: &[(&str, &str, &str, &str)] = &[
    (
        "sh",
        "tools/clean.sh",
        "rm -f src/draft.py\nprintf 'lost\\n' > src/app.py\n",
        "sh tools/clean.sh",
    ),
    (
        "bash",
        "tools/clean.sh",
        "rm -f src/draft.py\nprintf 'lost\\n' > src/app.py\n",
        "bash tools/clean.sh",
    ),
    (
        "bash",
        "tools/clean.sh",
        "rm -f src/draft.py\nprintf 'lost\\n' > src/app.py\n",
        "source tools/clean.sh",
    ),
    (
        "sh",
        "tools/clean.sh",
        "rm -f src/draft.py\nprintf 'lost\\n' > src/app.py\n",
        ". ./tools/clean.sh",
    ),
    (
        "python3",
        "tools/clean.py",
        "import os\nos.remove('src/draft.py')\nopen('src/app.py', 'w').write('lost\\n')\n",
        "python3 tools/clean.py",
    ),
    (
        "node",
        "tools/clean.js",
        "const fs = require('fs');\nfs.rmSync('src/draft.py');\nfs.writeFileSync('src/app.py', 'lost\\n');\n",
        "node tools/clean.js",
    ),
    (
        "perl",
        "tools/clean.pl",
        "unlink 'src/draft.py';\nopen(my $f, '>', 'src/app.py');\nprint $f \"lost\\n\";\n",
        "perl tools/clean.pl",
    ),
    (
        "gawk",
        "tools/clean.awk",
        "BEGIN { system(\"rm -f src/draft.py\"); print \"lost\" > \"src/app.py\" }\n",
        "gawk -f tools/clean.awk",
    ),
    (
        "awk",
        "tools/clean.awk",
        "BEGIN { system(\"rm -f src/draft.py\"); print \"lost\" > \"src/app.py\" }\n",
        "awk -v x=1 -f tools/clean.awk",
    ),
    (
        "make",
        "tools/clean.mk",
        "all:\n\trm -f src/draft.py\n\tprintf 'lost\\n' > src/app.py\n",
        "make -s -f tools/clean.mk",
    ),
    // A program found first on a PATH the line changes: not the `ls`
    // the guard knows.
    (
        "sh",
        "tools/ls",
        "#!/bin/sh\nrm -f src/draft.py\nprintf 'lost\\n' > src/app.py\n",
        "PATH=./tools:$PATH ls",
    ),
    (
        "bash",
        "tools/rc.sh",
        "rm -f src/draft.py\nprintf 'lost\\n' > src/app.py\n",
        "bash --rcfile tools/rc.sh -ic true",
    ),
    (
        "ruby",
        "tools/clean.rb",
        "File.delete('src/draft.py')\nFile.write('src/app.py', \"lost\\n\")\n",
        "ruby tools/clean.rb",
    ),
    (
        "deno",
        "tools/clean.ts",
        "Deno.removeSync('src/draft.py');\nDeno.writeTextFileSync('src/app.py', 'lost\\n');\n",
        "deno run -A tools/clean.ts",
    ),
    (
        "pwsh",
        "tools/clean.ps1",
        "Remove-Item src/draft.py\nSet-Content src/app.py 'lost'\n",
        "pwsh -NoProfile -File tools/clean.ps1",
    ),
];

/// Whether `program` is on the PATH.
fn installed(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs a command line in the repository as the agent's shell would.
fn run_bash(r: &TestRepo, command: &str) -> Out {
    let mut cmd = std::process::Command::new("bash");
    r.env(&mut cmd);
    cmd.args(["-c", command]);
    cmd.output().expect("bash").into()
}

/// A repository with the script committed, then uncommitted work: a
/// modified tracked file and an untracked one.
fn repo_with_script(file: &str, content: &str) -> TestRepo {
    let r = repo_with_source();
    r.write(file, content);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = r.path().join(file);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    r.git(&["add", file]);
    r.git(&["commit", "-q", "-m", "tools"]);
    r.write(
        "src/app.py",
        &format!("{}def work(x):\n    return x\n", source(60)),
    );
    r.write("src/draft.py", "def draft():\n    return 1\n");
    r
}

#[test]
fn test_hook_scripts_from_files_allowed_and_undone_by_session() {
    let mut ran = Vec::new();
    for (program, file, content, command) in SCRIPTS {
        if !installed(program) {
            eprintln!("skipped (no {program}): {command}");
            continue;
        }
        let r = repo_with_script(file, content);
        let app = r.read("src/app.py");
        let draft = r.read("src/draft.py");
        assert_allowed(
            "claude",
            &hook(&r, "claude", &shell_call(&r, "claude", command)),
        );
        let out = run_bash(&r, command);
        assert_eq!(out.code, 0, "{command}: {out}");
        // The script did what it says: the loss is real.
        assert!(!r.path().join("src/draft.py").exists(), "{command}");
        assert_eq!(r.read("src/app.py").trim(), "lost", "{command}");
        // Claude's after-tool event records what changed.
        let mut post = fixture("claude", "post");
        post["cwd"] = json!(r.path().to_string_lossy());
        assert_allowed("claude", &hook(&r, "claude", &post));
        let out = r.run(&["undo", "--session", "claude-abc123"]);
        assert_eq!(out.code, 0, "{command}: {out}");
        assert_eq!(r.read("src/app.py"), app, "{command}");
        assert_eq!(r.read("src/draft.py"), draft, "{command}");
        ran.push(*command);
    }
    eprintln!("scripts run and undone: {}", ran.len());
    // sh, bash, python3, perl, awk and make are on every machine the suite
    // runs on; the rest are checked where installed.
    assert!(ran.len() >= 8, "{ran:?}");
}

#[test]
fn test_hook_scripts_inline_code_is_judged_as_before() {
    let r = repo_with_script("tools/clean.sh", "true\n");
    let app = r.read("src/app.py");
    for command in [
        "python3 -c \"import os; os.remove('src/draft.py')\"",
        "perl -e 'unlink \"src/draft.py\"'",
        "node -e \"require('fs').rmSync('src/draft.py')\"",
        "bash -c 'rm -f src/draft.py'",
        "sh <<'EOF'\nrm -f src/draft.py\nEOF",
        "bash <<< 'rm -f src/draft.py'",
        "python3 - <<'EOF'\nimport os\nos.remove('src/draft.py')\nEOF",
        "python3 <<< \"open('src/app.py', 'w').write('')\"",
        "awk 'BEGIN { system(\"rm -f src/draft.py\") }'",
        "awk -v x=1 'BEGIN { system(\"rm -f src/draft.py\") }'",
        "gawk -e 'BEGIN { print \"\" > \"src/app.py\" }'",
        "awk 'BEGIN { f = \"src/app.py\"; print \"\" > f }'",
        "awk 'BEGIN { \"rm -f src/draft.py\" | getline }'",
    ] {
        assert_vetoed(
            "claude",
            &hook(&r, "claude", &shell_call(&r, "claude", command)),
            &[],
        );
    }
    assert_eq!(r.read("src/app.py"), app);
    assert!(r.path().join("src/draft.py").exists());
}
