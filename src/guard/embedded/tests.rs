//! Notes in the comment forms a file kind's own table lacks, in embedded
//! code and in back-referring prose sentences: each lazy rewrite is
//! blocked for what stands where content was removed, and the legitimate
//! edit of the same file beside it passes. The notes' words are nonsense
//! or in languages no phrase list knows, so only the structure can judge.

use crate::guard::{check_file, structure, Thresholds};

/// `n` numbered lines made by `f`, each ending in a newline.
fn pad(n: usize, f: impl Fn(usize) -> String) -> String {
    (1..=n).map(|i| f(i) + "\n").collect()
}

/// Whether writing `new` over `old` at `path` is blocked because
/// something stands where content was removed (the file-kind tests of
/// `lang` ask the same).
pub(in crate::guard) fn stands_in(path: &str, old: &str, new: &str) -> bool {
    let r = check_file(
        path,
        Some(old.as_bytes()),
        new.as_bytes(),
        &Thresholds::default(),
    );
    r.blocked()
        && r.reasons
            .iter()
            .any(|x| x.to_string().contains("were replaced by"))
}

/// Whether writing `new` over `old` at `path` passes.
fn passes(path: &str, old: &str, new: &str) -> bool {
    let r = check_file(
        path,
        Some(old.as_bytes()),
        new.as_bytes(),
        &Thresholds::default(),
    );
    !r.blocked()
}

/// `head`, `body`, `tail` joined.
fn file(head: &str, body: &str, tail: &str) -> String {
    format!("{head}{body}{tail}")
}

#[test]
fn handlebars_sections_are_not_jinja_comments() {
    let head = "<table>\n{{#each rows}}\n";
    let tail = "{{/each}}\n</table>\n".to_string()
        + &pad(25, |i| format!("<p class=\"f{i}\">{{{{footer{i}}}}}</p>"));
    let body = pad(6, |i| format!("  <tr><td>{{{{cell{i}}}}}</td></tr>"));
    let old = file(head, &body, &tail);
    for (path, note) in [
        ("rows.hbs", "  <!-- baris sama -->\n"),
        ("rows.handlebars", "  {{!-- zorp blit --}}\n"),
        ("rows.mustache", "  {{! zorp blit }}\n"),
    ] {
        let new = file(head, note, &tail);
        assert!(stands_in(path, &old, &new), "{path}: {note}");
    }
    // A section added and a cell edited: an ordinary template edit.
    let edited = file(
        "<table>\n{{#each rows}}\n{{#if visible}}\n",
        &body.replace("cell3", "cell3 upper"),
        &tail.replace("{{/each}}", "{{/if}}\n{{/each}}"),
    );
    assert!(passes("rows.hbs", &old, &edited));
    // Jinja keeps its `{#` comments.
    let jinja = file("<ul>\n{% for r in rows %}\n", &body, &tail);
    let note = file("<ul>\n{% for r in rows %}\n", "  {# zorp blit #}\n", &tail);
    assert!(stands_in("rows.html.j2", &jinja, &note));
}

#[test]
fn unmapped_kinds_know_their_comments() {
    // XML family.
    let xml_head = "<xsl:stylesheet version=\"1.0\">\n<xsl:template match=\"line\">\n";
    let xml_body = pad(6, |i| format!("  <td><xsl:value-of select=\"c{i}\"/></td>"));
    let xml_tail = "</xsl:template>\n".to_string()
        + &pad(25, |i| {
            format!("<xsl:variable name=\"v{i}\" select=\"{i}\"/>")
        })
        + "</xsl:stylesheet>\n";
    let old = file(xml_head, &xml_body, &xml_tail);
    for path in [
        "t.xsl",
        "t.xslt",
        "Orders.csproj",
        "Strings.resx",
        "app.config",
    ] {
        let new = file(xml_head, "  <!-- zorp blit -->\n", &xml_tail);
        assert!(stands_in(path, &old, &new), "{path}");
    }
    // systemd units: `;` and `#`.
    let unit_head = "[Service]\nExecStart=/usr/bin/api\n";
    let unit_body = pad(5, |i| format!("ProtectSetting{i}=yes"));
    let unit_tail = "[Install]\n".to_string() + &pad(25, |i| format!("Alias{i}=api{i}.service"));
    let old = file(unit_head, &unit_body, &unit_tail);
    for note in ["; zorp blit vaan\n", "# zorp blit vaan\n"] {
        let new = file(unit_head, note, &unit_tail);
        assert!(stands_in("api.service", &old, &new), "{note}");
    }
    // roff manual pages.
    let man_head = ".TH ACMECTL 1\n.SH OPTIONS\n";
    let man_body = pad(6, |i| {
        format!(".TP\n\\fB\\-\\-opt{i}\\fR sets option {i} of the tool")
    });
    let man_tail = ".SH FILES\n".to_string() + &pad(25, |i| format!("File {i} holds part {i}."));
    let old = file(man_head, &man_body, &man_tail);
    let new = file(man_head, ".\\\" zorp blit vaan\n", &man_tail);
    assert!(stands_in("acmectl.1", &old, &new));
    // A numbered extension without roff in it is no manual page.
    assert_eq!(
        crate::guard::lang::of_file("app.log.1", b"2026-01-01 started\n").name,
        "generic"
    );
    // Hive and CQL.
    let sql = pad(30, |i| format!("SELECT c{i} FROM t{i};"));
    let cut = sql.replacen(
        &pad(5, |i| format!("SELECT c{i} FROM t{i};")),
        "-- zorp blit vaan\n",
        1,
    );
    assert!(stands_in("q.hql", &sql, &cut));
    assert!(stands_in("q.cql", &sql, &cut));
    // Prose files without an extension.
    let license = pad(30, |i| {
        format!("Term {i} of the license applies to the work.")
    });
    let noted = license.replacen(
        &pad(6, |i| {
            format!("Term {i} of the license applies to the work.")
        }),
        "(zorp blit vaan)\n",
        1,
    );
    for path in ["LICENSE", "COPYING.LESSER", "NOTICE", "LICENSE-MIT"] {
        assert!(stands_in(path, &license, &noted), "{path}");
    }
}

#[test]
fn unknown_kinds_read_the_common_comment_forms() {
    let old = pad(30, |i| format!("value{i} = {i}"));
    let body = pad(5, |i| format!("value{i} = {i}"));
    for note in [
        "-- zorp blit vaan",
        "; zorp blit vaan",
        "% zorp blit vaan",
        "<!-- zorp blit vaan -->",
        "// zorp blit vaan",
    ] {
        let new = old.replacen(&body, &format!("{note}\n"), 1);
        assert!(stands_in("x.unknownkind", &old, &new), "{note}");
    }
    // Lines that only begin like those forms are content: command-line
    // options, a statement guarded by `;`, a format string.
    let flags = pad(30, |i| format!("--option{i}=value{i}"));
    let other = flags.replacen(
        &pad(5, |i| format!("--option{i}=value{i}")),
        "--reporter=spec\n--timeout=5000\n",
        1,
    );
    assert!(passes("mocha.opts", &flags, &other));
    let guarded = flags.replacen(
        &pad(5, |i| format!("--option{i}=value{i}")),
        ";(function () { start(); })()\n%d items\n",
        1,
    );
    assert!(passes("x.unknownkind", &flags, &guarded));
}

#[test]
fn forms_missing_from_known_kinds_are_known() {
    let tail = pad(25, |i| format!("<p>para {i}</p>"));
    // ERB and EJS scriptlets holding only a comment.
    let body = pad(4, |i| format!("<li><%= link_to 'l{i}', p{i}_path %></li>"));
    let old = file("<ul>\n", &body, &("</ul>\n".to_string() + &tail));
    for (path, note) in [
        ("show.html.erb", "<% # zorp blit %>\n"),
        ("show.html.erb", "<%# zorp blit %>\n"),
        ("show.ejs", "<%/* zorp blit */%>\n"),
    ] {
        let new = file("<ul>\n", note, &("</ul>\n".to_string() + &tail));
        assert!(stands_in(path, &old, &new), "{path}: {note}");
    }
    // Org: `# note` and `#+COMMENT:`, while `#+TITLE:` is markup.
    let org_tail = pad(25, |i| format!("Paragraph {i} of the runbook."));
    let org_body = pad(4, |i| format!("{i}. Run step {i} of the failover."));
    let old = file("* Failover\n", &org_body, &org_tail);
    for note in ["# zorp blit vaan\n", "#+COMMENT: zorp blit vaan\n"] {
        let new = file("* Failover\n", note, &org_tail);
        assert!(stands_in("runbook.org", &old, &new), "{note}");
    }
    let titled = file("#+TITLE: Runbook\n* Failover\n", &org_body, &org_tail);
    assert!(passes("runbook.org", &old, &titled));
    // Haml, Slim, Blade, Thrift.
    let view = pad(25, |i| format!("%p= item{i}"));
    let old = file("%ul\n", &pad(4, |i| format!("  %li= link{i}")), &view);
    for note in ["  -# zorp blit\n", "  / zorp blit\n"] {
        assert!(stands_in("v.haml", &old, &file("%ul\n", note, &view)));
    }
    let old = file("ul\n", &pad(4, |i| format!("  li = link{i}")), &view);
    assert!(stands_in(
        "v.slim",
        &old,
        &file("ul\n", "  / zorp blit\n", &view)
    ));
    let blade_tail = pad(25, |i| format!("<p>{{{{ $item{i} }}}}</p>"));
    let old = file(
        "<table>\n",
        &pad(5, |i| format!("<tr><td>{{{{ $u->f{i} }}}}</td></tr>")),
        &blade_tail,
    );
    let new = file("<table>\n", "{{-- zorp blit --}}\n", &blade_tail);
    assert!(stands_in("index.blade.php", &old, &new));
    let thrift = pad(30, |i| format!("  {i}: string f{i},"));
    let cut = thrift.replacen(&pad(5, |i| format!("  {i}: string f{i},")), "  # zorp\n", 1);
    assert!(stands_in("a.thrift", &thrift, &cut));
}

#[test]
fn jsonc_comments_are_notes_and_the_file_still_parses() {
    let head = "{\n  \"compilerOptions\": {\n    // Type checking.\n";
    let body = pad(5, |i| format!("    \"flag{i}\": true,"));
    let tail = pad(25, |i| format!("    \"opt{i}\": {i},")) + "    \"last\": 1,\n  },\n}\n";
    let old = file(head, &body, &tail);
    assert!(structure::parse(old.as_bytes(), crate::guard::lang::Format::Jsonc).is_ok());
    for note in [
        "    // zorp blit vaan\n",
        "    /* zorp blit vaan */\n",
        "    # zorp blit\n",
    ] {
        let new = file(head, note, &tail);
        for path in [
            "tsconfig.json",
            "tsconfig.build.json",
            ".vscode/settings.json",
            "x.jsonc",
        ] {
            assert!(stands_in(path, &old, &new), "{path}: {note}");
        }
    }
    // A JSON file named plainly but holding comments is JSONC too.
    assert_eq!(
        crate::guard::lang::of_file("settings.json", old.as_bytes()).name,
        "jsonc"
    );
    // An option added with its comment, one removed: an ordinary edit.
    let edited = file(
        head,
        &(body.replace("    \"flag3\": true,\n", "")
            + "    // Faster builds.\n    \"incremental\": true,\n"),
        &tail,
    );
    assert!(passes("tsconfig.json", &old, &edited));
}

#[test]
fn pin_and_ignore_lists_read_hash_comments() {
    let pins = pad(30, |i| format!("package{i}==1.{i}.0"));
    let cut = pins.replacen(
        &pad(5, |i| format!("package{i}==1.{i}.0")),
        "# zorp blit vaan\n",
        1,
    );
    for path in [
        "requirements.txt",
        "requirements-dev.txt",
        "requirements/base.txt",
        "constraints.txt",
        ".gitignore",
        ".dockerignore",
    ] {
        assert!(stands_in(path, &pins, &cut), "{path}");
    }
    // Pins bumped and a comment heading added: passes.
    let bumped = format!(
        "# Data stack\n{}",
        pins.replace("package3==1.3.0", "package3==1.4.0")
    );
    assert!(passes("requirements.txt", &pins, &bumped));
    for path in ["Brewfile", "Podfile", "Gemfile"] {
        assert_eq!(
            crate::guard::lang::from_path(path).map(|l| l.name),
            Some("ruby")
        );
    }
}

#[test]
fn foreign_comment_forms_are_notes_in_markup_and_templates() {
    let head = "<project>\n  <dependencies>\n";
    let body = pad(5, |i| {
        format!("    <dependency><artifactId>a{i}</artifactId></dependency>")
    });
    let tail = "  </dependencies>\n".to_string()
        + &pad(25, |i| format!("  <property{i}>v{i}</property{i}>"))
        + "</project>\n";
    let old = file(head, &body, &tail);
    for note in ["    # các phụ thuộc như cũ\n", "    // zorp blit vaan\n"] {
        let new = file(head, note, &tail);
        assert!(stands_in("pom.xml", &old, &new), "{note}");
    }
    // CSS selectors and colours starting with `#` are content.
    let style = "<style>\n#header { color: #333; }\n#footer { color: #444; }\n#nav { margin: 0; }\n</style>\n";
    let restyled = "<style>\n#header { color: #111; }\n#footer { color: #222; }\n#menu { margin: 1px; }\n</style>\n";
    let page = |s: &str| {
        format!(
            "<html>\n{s}{}</html>\n",
            pad(25, |i| format!("<p>para {i}</p>"))
        )
    };
    assert!(passes("index.html", &page(style), &page(restyled)));
    // Helm helpers: a `#` line is a comment of the rendered YAML.
    let helpers_tail = pad(25, |i| {
        format!("{{{{- define \"x.f{i}\" -}}}}f{i}{{{{- end }}}}")
    });
    let old = file(
        "{{- define \"x.labels\" -}}\n",
        &pad(4, |i| {
            format!("app.kubernetes.io/l{i}: {{{{ .Values.l{i} }}}}")
        }),
        &("{{- end }}\n".to_string() + &helpers_tail),
    );
    let new = file(
        "{{- define \"x.labels\" -}}\n",
        "# zorp blit\n",
        &("{{- end }}\n".to_string() + &helpers_tail),
    );
    assert!(stands_in("templates/_helpers.tpl", &old, &new));
}

#[test]
fn script_and_style_bodies_are_read_in_their_languages() {
    let tail = pad(25, |i| format!("<p>para {i}</p>"));
    let script = pad(5, |i| format!("  const v{i} = await load({i});"));
    let old = format!("<html>\n<script>\n{script}</script>\n{tail}</html>\n");
    let new = format!("<html>\n<script>\n  // zorp blit vaan\n</script>\n{tail}</html>\n");
    assert!(stands_in("status.html", &old, &new));
    let style = pad(5, |i| format!("  .c{i} {{ margin: {i}px; }}"));
    let old = format!("<html>\n<style>\n{style}</style>\n{tail}</html>\n");
    let new = format!("<html>\n<style>\n  /* zorp blit vaan */\n</style>\n{tail}</html>\n");
    assert!(stands_in("status.html", &old, &new));
    // A comment added above kept code, a rule edited: passes.
    let edited = format!(
        "<html>\n<style>\n  /* spacing scale */\n{}</style>\n{tail}</html>\n",
        style.replace("margin: 2px", "margin: 3px")
    );
    assert!(passes("status.html", &old, &edited));
}

#[test]
fn fenced_code_is_read_in_its_language() {
    let prose = pad(25, |i| format!("Sentence {i} explains the deployment."));
    let cmds = pad(5, |i| format!("kubectl apply -f manifest{i}.yaml"));
    let old = format!("# Deploy\n\n```bash\n{cmds}```\n\n{prose}");
    for (fence, note) in [
        ("```bash", "# ίδιες εντολές με πριν"),
        ("```", "# zorp blit vaan"),
        ("```sh", "# zorp blit vaan"),
    ] {
        let old = old.replace("```bash", fence);
        let new = format!("# Deploy\n\n{fence}\n{note}\n```\n\n{prose}");
        assert!(stands_in("deploy.md", &old, &new), "{fence}: {note}");
        assert!(stands_in("deploy.qmd", &old, &new), "{fence}: {note}");
    }
    // Another language's comment in a fence is a note too.
    let new = format!("# Deploy\n\n```bash\n// zorp blit vaan\n```\n\n{prose}");
    assert!(stands_in("deploy.md", &old, &new));
    let js = pad(5, |i| format!("const v{i} = load({i});"));
    let old_js = format!("Intro.\n\n```js\n{js}```\n\n{prose}");
    let new_js = format!("Intro.\n\n```js\n// zorp blit vaan\n```\n\n{prose}");
    assert!(stands_in("guide.md", &old_js, &new_js));
    // RST code blocks.
    let rst_cmds = pad(5, |i| format!("   kubectl apply -f m{i}.yaml"));
    let old_rst = format!("Deploy\n======\n\n.. code-block:: bash\n\n{rst_cmds}\n{prose}");
    let new_rst = format!("Deploy\n======\n\n.. code-block:: bash\n\n   # zorp blit\n\n{prose}");
    assert!(stands_in("deploy.rst", &old_rst, &new_rst));
    // AsciiDoc source blocks and Org src blocks.
    let old_adoc = format!("= Deploy\n\n[source, bash]\n----\n{cmds}----\n\n{prose}");
    let new_adoc = format!("= Deploy\n\n[source, bash]\n----\n# zorp blit\n----\n\n{prose}");
    assert!(stands_in("deploy.adoc", &old_adoc, &new_adoc));
    let old_org = format!("* Deploy\n#+BEGIN_SRC sh\n{cmds}#+END_SRC\n{prose}");
    let new_org = format!("* Deploy\n#+BEGIN_SRC sh\n# zorp blit\n#+END_SRC\n{prose}");
    assert!(stands_in("deploy.org", &old_org, &new_org));
    // A command edited and a comment added before it: passes.
    let edited = format!(
        "# Deploy\n\n```bash\n# apply the manifests in order\n{}```\n\n{prose}",
        cmds.replace("manifest2", "manifest2-v2")
    );
    assert!(passes("deploy.md", &old, &edited));
}

#[test]
fn prose_that_refers_back_stands_for_what_it_replaced() {
    let head = "# Project\n\n## Architecture\n\n";
    let body = pad(5, |i| {
        format!("The architecture has part {i} doing job {i}.")
    });
    let tail = "\n## Usage\n\n".to_string() + &pad(25, |i| format!("Usage note {i} for readers."));
    let old = file(head, &body, &tail);
    for note in [
        "See the previous version of this section.",
        "For older releases, see the previous version of this file.",
        "A korábbi verziókat lásd a git előzményekben.",
        "Esta sección no cambia respecto a la versión anterior.",
        "Details are in the git history.",
        "詳細は以前のバージョンを参照してください。",
        "Older notes are in the repository history.",
        "See [the old text](https://github.com/acme/x/commits/main/README.md).",
        "// zorp blit vaan",
    ] {
        let new = file(head, &format!("{note}\n"), &tail);
        assert!(stands_in("README.md", &old, &new), "{note}");
        assert!(stands_in("guide.adoc", &old, &new), "{note}");
    }
    // Pointers to content that is still there pass.
    for note in [
        "See [docs/architecture.md](docs/architecture.md).",
        "See docs/architecture.md for the details.",
    ] {
        let new = file(head, &format!("{note}\n"), &tail);
        assert!(passes("README.md", &old, &new), "{note}");
    }
    // A sentence about versions added beside the kept text passes.
    let added = file(
        head,
        &(body.clone() + "Upgrading from the previous version needs no migration.\n"),
        &tail,
    );
    assert!(passes("README.md", &old, &added));
}

#[test]
fn the_changed_middle_is_found_at_line_boundaries() {
    let old = "a\nb\nc\nd\n".repeat(3000);
    let new = old.replacen("c\nd\na\nb\nc", "c\nd\nX\nb\nc", 1);
    let (o, n) = super::middles(&old, &new);
    assert!(o.contains('a') && !o.contains('X'), "{o:?}");
    assert!(n.contains('X') && !n.contains('a'), "{n:?}");
    assert!(o.len() < 8 && n.len() < 8, "{o:?} {n:?}");
    let (o, n) = super::middles("x\n", "x\ny\n");
    assert_eq!((o, n.trim()), ("", "y"));
    let (o, n) = super::middles("same\n", "same\n");
    assert!(o.is_empty() && n.is_empty());
}
