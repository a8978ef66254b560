//! `git fararoni config`: effective values, origins, unknown keys, and the
//! configuration page (docs/configuration.md) checked against the settings
//! table.

use crate::common::TestRepo;
use git_fararoni::settings::SETTINGS;

fn config_json(r: &TestRepo) -> (serde_json::Value, String) {
    let out = r.run(&["config", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    (serde_json::from_str(&out.stdout).expect("json"), out.stderr)
}

fn setting<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["settings"]
        .as_array()
        .expect("array")
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} missing from {v}"))
}

#[test]
fn test_settings_config_shows_the_origin_of_global_local_and_environment_values() {
    let r = TestRepo::with_commit();
    r.git(&["config", "--global", "fararoni.chat.model", "global-model"]);
    r.git(&["config", "--global", "fararoni.guard.jaccard", "0.5"]);
    r.git(&["config", "fararoni.guard.jaccard", "0.45"]);
    let (v, _) = config_json(&r);
    let model = setting(&v, "fararoni.chat.model");
    assert_eq!(model["value"], "global-model");
    assert_eq!(model["origin"]["scope"], "global", "{model}");
    assert!(model["origin"]["file"]
        .as_str()
        .is_some_and(|f| f.ends_with(".gitconfig")));
    let jaccard = setting(&v, "fararoni.guard.jaccard");
    assert_eq!(jaccard["value"], "0.45", "local beats global");
    assert_eq!(jaccard["origin"]["scope"], "local");
    assert_eq!(
        setting(&v, "fararoni.guard.volume")["origin"]["source"],
        "default"
    );
    // The environment beats both.
    let out: crate::common::Out = r
        .cmd("git-fararoni")
        .args(["config"])
        .env("FARARONI_GUARD_JACCARD", "0.6")
        .output()
        .expect("run")
        .into();
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("fararoni.guard.jaccard"))
        .expect("row");
    assert!(
        line.contains("0.6") && line.contains("FARARONI_GUARD_JACCARD"),
        "{line}"
    );
    // `git -c` beats every file, as in git (gix does not read it).
    let out = r.git_out(&[
        "-c",
        "fararoni.guard.jaccard=0.55",
        "fararoni",
        "config",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    let jaccard = setting(&v, "fararoni.guard.jaccard");
    assert_eq!(jaccard["value"], "0.55", "{out}");
    assert_eq!(jaccard["origin"]["scope"], "command");
    // … and is what the guard uses.
    let out = r.git_out(&["-c", "fararoni.guard.volume=0.1", "fararoni", "config"]);
    assert!(out.stderr.contains("using 0.30"), "{out}");
    // An included file names itself.
    std::fs::write(
        r.home().join("extra.inc"),
        "[fararoni \"llm\"]\n\tmodel = inc-model\n",
    )
    .expect("write include");
    r.git(&[
        "config",
        "--global",
        "include.path",
        r.home().join("extra.inc").to_str().expect("utf8"),
    ]);
    let (v, _) = config_json(&r);
    let llm = setting(&v, "fararoni.llm.model");
    assert_eq!(llm["value"], "inc-model");
    assert!(
        llm["origin"]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("extra.inc")),
        "{llm}"
    );
}

#[test]
fn test_settings_unknown_keys_name_the_nearest_and_weak_values_the_bound() {
    let r = TestRepo::with_commit();
    r.git(&["config", "fararoni.guard.jacard", "0.5"]);
    r.git(&["config", "fararoni.guard.volume", "0.1"]);
    let (v, stderr) = config_json(&r);
    assert!(
        stderr.contains("unknown setting `fararoni.guard.jacard`")
            && stderr.contains("did you mean `fararoni.guard.jaccard`"),
        "{stderr}"
    );
    assert_eq!(v["unknown"][0]["nearest"], "fararoni.guard.jaccard");
    assert!(stderr.contains("using 0.30"), "{stderr}");
    let out = r.run(&["config"]);
    assert!(out.stdout.contains("0.30 (set to 0.1)"), "{out}");
    // A secret is never printed.
    let out: crate::common::Out = r
        .cmd("git-fararoni")
        .args(["config", "--json"])
        .env("FARARONI_LLM_API_KEY", "sk-very-secret")
        .output()
        .expect("run")
        .into();
    assert!(!out.stdout.contains("sk-very-secret"), "{out}");
    assert!(out.stdout.contains("(set)"), "{out}");
}

#[test]
fn test_settings_configuration_page_lists_every_setting_with_its_default_and_bound() {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/configuration.md"
    ))
    .expect("docs/configuration.md");
    for s in SETTINGS {
        let row = page
            .lines()
            .find(|l| l.starts_with('|') && l.contains(&format!("`{}`", s.env)))
            .unwrap_or_else(|| panic!("docs/configuration.md has no row for {}", s.env));
        if let Some(key) = s.key {
            assert!(row.contains(&format!("`{key}`")), "{row}");
        }
        if let Some(d) = s.default {
            assert!(row.contains(d), "{row} lacks default {d}");
        }
        if let Some(b) = s.bound {
            let floor = page
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` | ", s.name())) && !l.contains(s.env))
                .unwrap_or_else(|| panic!("docs/configuration.md has no floor for {}", s.name()));
            assert!(
                floor.contains(&b.display()),
                "{floor} lacks bound {}",
                b.display()
            );
        }
    }
}
