//! Languages as the kill-switch sees them: how comments and strings are
//! written, how function bodies are delimited, and which structured format
//! a file holds. One table row per language, chosen by file name or, when
//! there is none, sniffed from the content. Pure data and lookups.

/// How a language delimits function bodies, for the stub scanner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocks {
    /// `{ … }` (C family, Rust, Go, Java, JS/TS, C#, PHP, Kotlin, Swift…).
    Braces,
    /// A header ending in `:` and a more-indented body (Python).
    Indent,
    /// A keyword header and a body closed by `end` at the header's indent
    /// (Ruby, Lua, Elixir).
    End,
    /// No function bodies the scanner knows.
    None,
}

/// A data format the kill-switch parses to compare structure, not lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON (`serde_json`).
    Json,
    /// JSON with comments and trailing commas (`tsconfig.json`, VS Code's
    /// settings, `.jsonc`): parsed once they are taken out.
    Jsonc,
    /// TOML (`toml`).
    Toml,
    /// YAML (`saphyr-parser`).
    Yaml,
}

impl Format {
    /// Returns the format's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Jsonc => "JSONC",
            Format::Toml => "TOML",
            Format::Yaml => "YAML",
        }
    }
}

/// One language's row.
#[derive(Debug, PartialEq, Eq)]
pub struct Lang {
    /// A short name for reports.
    pub name: &'static str,
    /// File extensions, lowercase, without the dot (`d.ts` style compound
    /// extensions allowed); or whole file names such as `Makefile`.
    pub names: &'static [&'static str],
    /// Markers that start a comment running to the end of the line.
    pub line_comments: &'static [&'static str],
    /// Block comment delimiters.
    pub block_comments: &'static [(&'static str, &'static str)],
    /// Bytes that open (and close) a string literal.
    pub quotes: &'static [u8],
    /// `'` opens a character literal or a lifetime, not a string.
    pub char_quote: bool,
    /// How function bodies are delimited.
    pub blocks: Blocks,
    /// Keywords that introduce a function header (for `Indent`/`End`).
    pub fn_keywords: &'static [&'static str],
    /// A bare `...` line is valid code here (Python's `Ellipsis`, YAML's
    /// document end), so alone it is not a placeholder.
    pub bare_ellipsis_is_code: bool,
    /// Prose (Markdown, text): an ellipsis is punctuation, only elision
    /// phrases count.
    pub prose: bool,
    /// Declarations only (`.pyi`, `.d.ts`): bodies are stubs by design.
    pub declarations: bool,
    /// The structured format, if the file is data.
    pub format: Option<Format>,
    /// What a top-level block is called in reports (`functions`, `rules`,
    /// `targets`).
    pub unit: &'static str,
    /// A string statement opening a line (`"""…"""`) is documentation,
    /// read as a comment.
    pub docstrings: bool,
    /// Line prefixes that open a section running to the next one (a
    /// Dockerfile's `FROM`, an INI `[table]`, a Markdown heading).
    pub sections: &'static [&'static str],
    /// Markers that open a whole-line comment only when white space or
    /// the line's end follows them: Org's `# note` (but not `#+TITLE:`),
    /// and the comment forms of other languages a note gets written in
    /// where the kind has none of its own (`# same as before` in XML,
    /// `-- note` in a file of unknown kind, but not `--flag`). See
    /// [`spaced_comments`].
    pub spaced_comments: &'static [&'static str],
}

const C_COMMENTS: &[(&str, &str)] = &[("/*", "*/")];
/// Perl's POD blocks, read as comments.
const PERL_POD: &[(&str, &str)] = &[
    ("=pod", "=cut"),
    ("=head1", "=cut"),
    ("=head2", "=cut"),
    ("=head3", "=cut"),
    ("=head4", "=cut"),
    ("=begin ", "=cut"),
    ("=over ", "=cut"),
];
/// AsciiDoc's comment blocks (`////` lines).
const ASCIIDOC_COMMENTS: &[(&str, &str)] = &[("////", "////")];
/// LaTeX's notes that print nothing in the text: `\todo{…}` (todonotes)
/// and a block switched off (`\iffalse … \fi`, `comment` environments).
const LATEX_COMMENTS: &[(&str, &str)] = &[
    ("\\todo{", "}"),
    ("\\todo[", "}"),
    ("\\iffalse", "\\fi"),
    ("\\begin{comment}", "\\end{comment}"),
];
/// YAML with Go-template comments (Helm charts).
const YAML_COMMENTS: &[(&str, &str)] = &[
    ("{{/*", "*/}}"),
    ("{{- /*", "*/}}"),
    ("{{/*", "*/ -}}"),
    ("{{- /*", "*/ -}}"),
];
const NONE: &[(&str, &str)] = &[];

const fn brace(
    name: &'static str,
    names: &'static [&'static str],
    line_comments: &'static [&'static str],
    quotes: &'static [u8],
    char_quote: bool,
) -> Lang {
    Lang {
        name,
        names,
        line_comments,
        block_comments: C_COMMENTS,
        quotes,
        char_quote,
        blocks: Blocks::Braces,
        fn_keywords: &[],
        bare_ellipsis_is_code: false,
        prose: false,
        declarations: false,
        format: None,
        unit: "functions",
        docstrings: false,
        sections: &[],
        spaced_comments: &[],
    }
}

const fn other(
    name: &'static str,
    names: &'static [&'static str],
    line_comments: &'static [&'static str],
    block_comments: &'static [(&'static str, &'static str)],
) -> Lang {
    Lang {
        name,
        names,
        line_comments,
        block_comments,
        quotes: b"\"'",
        char_quote: false,
        blocks: Blocks::None,
        fn_keywords: &[],
        bare_ellipsis_is_code: false,
        prose: false,
        declarations: false,
        format: None,
        unit: "blocks",
        docstrings: false,
        sections: &[],
        spaced_comments: &[],
    }
}

const fn data(name: &'static str, names: &'static [&'static str], format: Format) -> Lang {
    Lang {
        name,
        names,
        line_comments: match format {
            Format::Json => &[],
            // A line opening with `#` is never JSON: a note in any case.
            Format::Jsonc => &["//", "#"],
            Format::Toml | Format::Yaml => &["#"],
        },
        block_comments: match format {
            Format::Jsonc => C_COMMENTS,
            Format::Json | Format::Toml | Format::Yaml => NONE,
        },
        quotes: b"\"'",
        char_quote: false,
        blocks: Blocks::None,
        fn_keywords: &[],
        bare_ellipsis_is_code: matches!(format, Format::Yaml),
        prose: false,
        declarations: false,
        format: Some(format),
        unit: "entries",
        docstrings: false,
        sections: match format {
            Format::Toml => &["["],
            Format::Json | Format::Jsonc | Format::Yaml => &[],
        },
        spaced_comments: &[],
    }
}

/// The languages, most specific names first (`d.ts` before `ts`).
pub static LANGS: &[Lang] = &[
    Lang {
        declarations: true,
        ..brace(
            "typescript-declarations",
            &["d.ts", "d.mts", "d.cts"],
            &["//"],
            b"\"'`",
            false,
        )
    },
    brace("rust", &["rs"], &["//"], b"\"", true),
    brace("c", &["c", "h"], &["//"], b"\"", true),
    brace(
        "c++",
        &["cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "ino", "cu"],
        &["//"],
        b"\"",
        true,
    ),
    brace("c#", &["cs"], &["//"], b"\"", true),
    brace("java", &["java"], &["//"], b"\"", true),
    brace("kotlin", &["kt", "kts"], &["//"], b"\"", true),
    brace("scala", &["scala", "sc"], &["//"], b"\"", true),
    brace("swift", &["swift"], &["//"], b"\"", false),
    brace("dart", &["dart"], &["//"], b"\"'", false),
    brace("go", &["go"], &["//"], b"\"`", true),
    brace(
        "javascript",
        &["js", "mjs", "cjs", "jsx"],
        &["//"],
        b"\"'`",
        false,
    ),
    brace(
        "typescript",
        &["ts", "tsx", "mts", "cts"],
        &["//"],
        b"\"'`",
        false,
    ),
    // Blade views are HTML with Blade's own comments, not PHP code: the
    // double extension decides, before `.php`.
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "blade",
            &["blade.php"],
            &[],
            &[("{{--", "--}}"), ("<!--", "-->")],
        )
    },
    brace("php", &["php", "phtml"], &["//", "#"], b"\"'", false),
    Lang {
        unit: "rules",
        ..brace(
            "css",
            &["css", "scss", "sass", "less", "styl"],
            &["//"],
            b"\"'",
            false,
        )
    },
    Lang {
        unit: "resources",
        ..brace(
            "terraform",
            &["tf", "tfvars", "hcl", "nomad"],
            &["#", "//"],
            b"\"",
            false,
        )
    },
    brace(
        "groovy",
        &["groovy", "gradle", "jenkinsfile", "Jenkinsfile"],
        &["//"],
        b"\"'",
        false,
    ),
    brace("zig", &["zig"], &["//"], b"\"", true),
    brace("solidity", &["sol"], &["//"], b"\"'", false),
    brace("protobuf", &["proto"], &["//"], b"\"'", false),
    brace("thrift", &["thrift"], &["//", "#"], b"\"'", false),
    brace("objective-c", &["mm"], &["//"], b"\"", true),
    // Brace languages whose comments are C's: D (with its nesting `/+ +/`),
    // shaders (GLSL, HLSL, WGSL, Metal), Haxe, Move, Cairo, Gleam,
    // ReScript/Reason, Odin, Hare, Bicep, CUE, Jsonnet, Apex.
    Lang {
        block_comments: &[("/*", "*/"), ("/+", "+/")],
        ..brace("d", &["d", "di"], &["//"], b"\"`", true)
    },
    brace(
        "shader",
        &[
            "glsl", "vert", "frag", "geom", "comp", "tesc", "tese", "rgen", "rchit", "rmiss",
            "hlsl", "hlsli", "fx", "fxh", "cginc", "compute", "usf", "ush", "wgsl", "metal",
        ],
        &["//"],
        b"\"",
        false,
    ),
    brace("haxe", &["hx"], &["//"], b"\"'", false),
    brace("move", &["move"], &["//"], b"\"", false),
    brace("cairo", &["cairo"], &["//"], b"\"'", false),
    brace("gleam", &["gleam"], &["//"], b"\"", false),
    brace(
        "rescript",
        &["res", "resi", "re", "rei"],
        &["//"],
        b"\"`",
        false,
    ),
    brace("odin", &["odin"], &["//"], b"\"`", true),
    brace("hare", &["ha"], &["//"], b"\"`", true),
    brace("bicep", &["bicep"], &["//"], b"'", false),
    brace("cue", &["cue"], &["//"], b"\"`", false),
    brace(
        "jsonnet",
        &["jsonnet", "libsonnet"],
        &["//", "#"],
        b"\"'",
        false,
    ),
    brace("apex", &["apex", "trigger"], &["//"], b"'", false),
    // Brace languages whose line comments are `#` and have no block
    // comments: AWK, Tcl, Nushell.
    Lang {
        block_comments: NONE,
        ..brace("awk", &["awk", "gawk", "mawk"], &["#"], b"\"", false)
    },
    Lang {
        block_comments: NONE,
        ..brace("tcl", &["tcl", "tk", "itcl", "tm"], &["#"], b"\"", false)
    },
    Lang {
        block_comments: NONE,
        ..brace("nushell", &["nu"], &["#"], b"\"'`", false)
    },
    Lang {
        block_comments: &[("<#", "#>")],
        ..brace(
            "powershell",
            &["ps1", "psm1", "psd1"],
            &["#"],
            b"\"'",
            false,
        )
    },
    Lang {
        blocks: Blocks::Indent,
        fn_keywords: &["def", "async def"],
        bare_ellipsis_is_code: true,
        quotes: b"\"'",
        docstrings: true,
        unit: "functions",
        ..other("python", &["py", "pyw"], &["#"], NONE)
    },
    Lang {
        blocks: Blocks::Indent,
        fn_keywords: &["def", "async def"],
        bare_ellipsis_is_code: true,
        declarations: true,
        docstrings: true,
        ..other("python-stubs", &["pyi"], &["#"], NONE)
    },
    Lang {
        unit: "functions",
        blocks: Blocks::End,
        fn_keywords: &["def"],
        ..other(
            "ruby",
            &[
                "rb",
                "rake",
                "gemspec",
                "podspec",
                "ru",
                "Rakefile",
                "Gemfile",
                "Brewfile",
                "Podfile",
                "Vagrantfile",
                "Fastfile",
                "Appfile",
                "Dangerfile",
                "Guardfile",
                "Capfile",
                "Berksfile",
            ],
            &["#"],
            &[("=begin", "=end")],
        )
    },
    Lang {
        unit: "functions",
        blocks: Blocks::End,
        fn_keywords: &["function", "local function"],
        ..other("lua", &["lua"], &["--"], &[("--[[", "]]")])
    },
    Lang {
        unit: "functions",
        blocks: Blocks::End,
        fn_keywords: &["def", "defp"],
        ..other("elixir", &["ex", "exs"], &["#"], NONE)
    },
    other(
        "shell",
        &["sh", "bash", "zsh", "fish", "ksh", "bats", "envrc"],
        &["#"],
        NONE,
    ),
    Lang {
        unit: "targets",
        ..other(
            "make",
            &["Makefile", "makefile", "GNUmakefile", "mk", "mak"],
            &["#"],
            NONE,
        )
    },
    Lang {
        unit: "steps",
        sections: &["FROM "],
        ..other(
            "dockerfile",
            &["Dockerfile", "dockerfile", "Containerfile"],
            &["#"],
            NONE,
        )
    },
    other(
        "cmake",
        &["cmake", "CMakeLists.txt"],
        &["#"],
        &[("#[[", "]]")],
    ),
    other("nix", &["nix"], &["#"], C_COMMENTS),
    other("julia", &["jl"], &["#"], &[("#=", "=#")]),
    other("nim", &["nim", "nims"], &["#"], &[("#[", "]#")]),
    other("graphql", &["graphql", "gql"], &["#"], NONE),
    other(
        "ocaml",
        &["ml", "mli", "fs", "fsi", "fsx", "sml"],
        &["//"],
        &[("(*", "*)")],
    ),
    other("vim", &["vim", "vimrc"], &["\""], NONE),
    // Python's syntax (Vyper, Starlark, Mojo, GDScript): `#` comments,
    // indented bodies, docstrings.
    Lang {
        blocks: Blocks::Indent,
        fn_keywords: &["def", "async def", "fn", "func", "static func"],
        bare_ellipsis_is_code: true,
        quotes: b"\"'",
        docstrings: true,
        unit: "functions",
        ..other(
            "python-like",
            &[
                "vy",
                "mojo",
                "bzl",
                "star",
                "gd",
                "BUILD",
                "BUILD.bazel",
                "WORKSPACE",
                "Tiltfile",
            ],
            &["#"],
            NONE,
        )
    },
    Lang {
        unit: "functions",
        blocks: Blocks::End,
        fn_keywords: &["def", "macro"],
        ..other("crystal", &["cr"], &["#"], NONE)
    },
    other("lean", &["lean"], &["--"], &[("/-", "-/")]),
    other("smalltalk", &["st"], &[], &[("\"", "\"")]),
    other(
        "forth",
        &["fth", "4th", "frt", "forth"],
        &["\\ "],
        &[("( ", ")")],
    ),
    // ABAP: `"` opens a comment, strings are `'…'` and `` `…` ``.
    Lang {
        quotes: b"'`|",
        ..other("abap", &["abap"], &["\"", "*"], NONE)
    },
    other("cobol", &["cob", "cbl", "cpy"], &["*>", "*"], NONE),
    other("raku", &["raku", "rakumod", "p6", "pm6"], &["#"], NONE),
    other("coffeescript", &["coffee"], &["#"], &[("###", "###")]),
    other("janet", &["janet"], &["#"], NONE),
    other("autohotkey", &["ahk"], &[";"], C_COMMENTS),
    other("wolfram", &["wl", "wls"], &[], &[("(*", "*)")]),
    other("dhall", &["dhall"], &["--"], &[("{-", "-}")]),
    other("cabal", &["cabal"], &["--"], NONE),
    other(
        "build-scripts",
        &[
            "meson.build",
            "justfile",
            "Justfile",
            "Earthfile",
            "Vagrantfile",
        ],
        &["#"],
        NONE,
    ),
    Lang {
        sections: &["["],
        unit: "sections",
        ..other(
            "ini",
            &[
                "ini",
                "cfg",
                "conf",
                "properties",
                "editorconfig",
                ".editorconfig",
                ".npmrc",
                ".gitconfig",
                ".gitmodules",
                ".pylintrc",
                ".coveragerc",
                ".flake8",
                "desktop",
                // systemd units.
                "service",
                "timer",
                "socket",
                "mount",
                "automount",
                "path",
                "target",
                "slice",
                "swap",
                "network",
                "netdev",
            ],
            &[";", "#"],
            NONE,
        )
    },
    // Lists of names or patterns with `#` comments: ignore files,
    // requirements ([`NAME_PATTERNS`]), CODEOWNERS.
    other(
        "hash-comments",
        &[
            "gitignore",
            "dockerignore",
            ".gitignore",
            ".dockerignore",
            ".npmignore",
            ".eslintignore",
            ".prettierignore",
            ".stylelintignore",
            ".helmignore",
            ".gcloudignore",
            ".vercelignore",
            ".slugignore",
            ".hgignore",
            ".gitattributes",
            ".yarnrc",
            ".tool-versions",
            "CODEOWNERS",
        ],
        &["#"],
        NONE,
    ),
    // POD (`=pod`, `=head1`, `=begin comment` … `=cut`) is documentation.
    other("perl", &["pl", "pm"], &["#"], PERL_POD),
    // No extension of its own: `.pl` files that read as Prolog
    // ([`SHARED_EXTENSIONS`]).
    Lang {
        unit: "predicates",
        ..other("prolog", &[], &["%"], C_COMMENTS)
    },
    other("r", &["r"], &["#"], NONE),
    Lang {
        unit: "statements",
        ..other(
            "sql",
            &["sql", "psql", "plsql", "pgsql", "ddl", "hql", "hive"],
            &["--"],
            C_COMMENTS,
        )
    },
    // Cassandra's CQL and Cypher share `.cql`; both take `//`.
    Lang {
        unit: "statements",
        ..other("cql", &["cql", "cypher", "cyp"], &["//", "--"], C_COMMENTS)
    },
    Lang {
        unit: "definitions",
        ..other(
            "haskell",
            &["hs", "lhs", "elm", "purs", "idr", "lidr", "agda", "lagda"],
            &["--"],
            &[("{-", "-}")],
        )
    },
    other(
        "lisp",
        &[
            "lisp", "el", "clj", "cljs", "cljc", "edn", "scm", "ss", "sld", "rkt", "fnl", "hy",
            "lsp",
        ],
        &[";"],
        &[("#|", "|#")],
    ),
    other("asm", &["asm", "s", "nasm"], &[";", "#", "//"], C_COMMENTS),
    // LaTeX documents are prose with markup: a paragraph replaced by a
    // short note is judged as in Markdown.
    Lang {
        prose: true,
        unit: "sections",
        sections: &["\\section", "\\subsection", "\\chapter"],
        ..other("latex", &["tex", "ltx"], &["%"], LATEX_COMMENTS)
    },
    other("latex-package", &["sty", "bib"], &["%"], LATEX_COMMENTS),
    other(
        "erlang",
        &["erl", "hrl", "m", "matlab", "pro"],
        &["%"],
        NONE,
    ),
    other("fortran", &["f", "f90", "f95", "f03", "for"], &["!"], NONE),
    other("ada", &["adb", "ads", "ada"], &["--"], NONE),
    other("vhdl", &["vhd", "vhdl"], &["--"], NONE),
    other("verilog", &["v", "sv", "svh", "vh"], &["//"], C_COMMENTS),
    other(
        "pascal",
        &["pas", "dpr", "lpr"],
        &["//"],
        &[("(*", "*)"), ("{", "}")],
    ),
    other(
        "vb",
        &["vb", "vbs", "bas", "cls", "vba", "frm"],
        &["'", "REM "],
        NONE,
    ),
    Lang {
        sections: &[":"],
        unit: "labels",
        ..other("batch", &["bat", "cmd"], &["REM ", "::"], NONE)
    },
    // XSLT: XML, and an instruction that writes a comment and nothing
    // else.
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "xslt",
            &["xsl", "xslt"],
            &[],
            &[("<!--", "-->"), ("<xsl:comment", "</xsl:comment>")],
        )
    },
    // HTML and the XML family. A `//` or `#` line is no markup: a note
    // written in another language's comment.
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "html",
            &[
                "html",
                "htm",
                "xhtml",
                "xml",
                "svg",
                "xaml",
                "plist",
                "xsd",
                "wsdl",
                "dtd",
                "resx",
                "xliff",
                "xlf",
                "nuspec",
                "targets",
                "props",
                "csproj",
                "vbproj",
                "fsproj",
                "vcxproj",
                "sqlproj",
                "proj",
                "projitems",
                "shproj",
                "config",
                "manifest",
                "storyboard",
                "xib",
                "kml",
                "gpx",
                "rss",
                "atom",
                "xul",
                "rdf",
                "fxml",
                "mxml",
                "jrxml",
                "tld",
                "wxs",
                "wxi",
                "wxl",
                "ui",
                "glade",
            ],
            &[],
            // A template engine's comments in a page named `.html` (Django,
            // Jinja, Handlebars), each opener followed by what no other
            // tag has after it (`{{#each}}` holds `{#`, not `{# `); few,
            // as every line of a page is tried against them.
            &[
                ("<!--", "-->"),
                ("{# ", "#}"),
                ("{{!", "}}"),
                ("{% comment %}", "{% endcomment %}"),
            ],
        )
    },
    Lang {
        unit: "blocks",
        ..other(
            "vue",
            &["vue", "svelte", "astro"],
            &["//"],
            &[("<!--", "-->"), ("/*", "*/"), ("{/*", "*/}")],
        )
    },
    // Templates, one row per family of engines: an opener of one is
    // markup in another (Handlebars' `{{#each}}` holds Jinja's `{#`), so
    // each row lists only its own, none a prefix of another's tag.
    // ERB and EJS: `<%# %>`, and a scriptlet holding only a Ruby or JS
    // comment.
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "erb",
            &["erb", "ejs", "eex", "leex", "heex", "rhtml"],
            &[],
            &[
                ("<!--", "-->"),
                ("<%#", "%>"),
                ("<%-#", "%>"),
                ("<% #", "%>"),
                ("<%- #", "%>"),
                ("<%/*", "%>"),
                ("<% /*", "%>"),
                ("<%- /*", "%>"),
                ("<% //", "%>"),
                ("<%!--", "--%>"),
            ],
        )
    },
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "server-pages",
            &["jsp", "jspf", "tag", "aspx", "ascx", "master", "asp"],
            &[],
            &[("<!--", "-->"), ("<%--", "--%>")],
        )
    },
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "razor",
            &["cshtml", "razor", "vbhtml"],
            &[],
            &[("<!--", "-->"), ("@*", "*@")],
        )
    },
    // Jinja, Nunjucks, Twig, Liquid, Django.
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "jinja",
            &["jinja", "jinja2", "j2", "njk", "twig", "liquid", "djhtml"],
            &[],
            &[
                ("<!--", "-->"),
                ("{#", "#}"),
                ("{% comment %}", "{% endcomment %}"),
                ("{%- comment -%}", "{%- endcomment -%}"),
                ("{% comment -%}", "{%- endcomment %}"),
                ("{% #", "%}"),
                ("{%- #", "%}"),
            ],
        )
    },
    // Handlebars and Mustache: sections open with `{{#`, comments with
    // `{{!`.
    Lang {
        spaced_comments: &["//", "#"],
        ..other(
            "handlebars",
            &["hbs", "handlebars", "mustache"],
            &[],
            &[
                ("<!--", "-->"),
                ("{{!--", "--}}"),
                ("{{~!--", "--~}}"),
                ("{{!", "}}"),
            ],
        )
    },
    // Go templates (Helm's `_helpers.tpl`, whose output is YAML: a `#`
    // line is a comment there) and Smarty's `{* *}`.
    other(
        "go-template",
        &["tmpl", "gotmpl", "tpl"],
        &["#"],
        &[
            ("<!--", "-->"),
            ("{{/*", "*/}}"),
            ("{{- /*", "*/ -}}"),
            ("{{- /*", "*/}}"),
            ("{{/*", "*/ -}}"),
            ("{*", "*}"),
        ],
    ),
    // Smarty (`.tpl` whose content says so, [`SHARED_EXTENSIONS`]): a
    // page, whose `#id` style rules are no comments.
    Lang {
        spaced_comments: &["//", "#"],
        ..other("smarty", &[], &[], &[("<!--", "-->"), ("{*", "*}")])
    },
    // Haml and Slim: `-#` and `/` lines are comments (a text line
    // starting with `/` has to be escaped); Pug's are `//` and `//-`.
    other("haml", &["haml"], &["-#", "/"], NONE),
    other("slim", &["slim"], &["/"], NONE),
    other("pug", &["pug", "jade"], &["//"], NONE),
    // AsciiDoc: `//` comments and `////` comment blocks, at a line's
    // start only (a URL's `//` is text).
    Lang {
        prose: true,
        unit: "sections",
        sections: &["="],
        ..other(
            "asciidoc",
            &["adoc", "asciidoc"],
            &["//"],
            ASCIIDOC_COMMENTS,
        )
    },
    Lang {
        prose: true,
        unit: "sections",
        sections: &["#"],
        // No text line opens with `// `: a note in a code comment's form.
        spaced_comments: &["//"],
        ..other(
            "prose",
            &[
                "md", "markdown", "mdown", "mkd", "mdx", "rmd", "qmd", "txt", "text", "rst",
            ],
            // Markdown's link-reference comment, `[//]: # (note)`.
            &["[//]: #", "[//]:", "[comment]: #"],
            // MDX's comments are JSX's.
            &[("<!--", "-->"), ("{/*", "*/}")],
        )
    },
    // Org: `# note` (a `#` and a space) and `#+COMMENT:` lines, comment
    // blocks; `#+TITLE:` and `#+BEGIN_SRC` are markup.
    Lang {
        prose: true,
        unit: "sections",
        sections: &["* "],
        spaced_comments: &["#"],
        ..other(
            "org",
            &["org"],
            &["#+COMMENT:", "#+comment:"],
            &[
                ("#+BEGIN_COMMENT", "#+END_COMMENT"),
                ("#+begin_comment", "#+end_comment"),
            ],
        )
    },
    // roff manual pages: `.\"` and `'\"` comment lines. Only with a roff
    // request in the content ([`NEEDS_SIGNS`]): `app.log.1` is no page.
    Lang {
        prose: true,
        unit: "sections",
        sections: &[".SH", ".Sh", ".SS"],
        ..other(
            "roff",
            &[
                "1", "2", "3", "4", "5", "6", "7", "8", "9", "1m", "3p", "man", "mdoc", "roff",
                "nroff", "troff", "ms", "me",
            ],
            &[".\\\"", "'\\\"", ".\\\\\"", "\\\"", ".\\#"],
            NONE,
        )
    },
    data(
        "jsonc",
        &[
            "jsonc",
            "json5",
            "code-workspace",
            ".eslintrc.json",
            ".eslintrc",
            ".babelrc",
            ".babelrc.json",
            ".swcrc",
            ".jshintrc",
            ".jscsrc",
            ".devcontainer.json",
            ".oxlintrc.json",
        ],
        Format::Jsonc,
    ),
    // A Jupyter notebook is JSON whose code cells are also judged as code
    // ([`notebook_code`]).
    data("notebook", &["ipynb"], Format::Json),
    data("json", &["json", "geojson"], Format::Json),
    data("toml", &["toml", "Cargo.lock", "Pipfile"], Format::Toml),
    Lang {
        block_comments: YAML_COMMENTS,
        ..data("yaml", &["yaml", "yml"], Format::Yaml)
    },
];

/// The row used when nothing is known: C-like lexing, brace blocks, and a
/// bare `...` given the benefit of the doubt.
pub static GENERIC: Lang = Lang {
    bare_ellipsis_is_code: true,
    block_comments: &[("/*", "*/"), ("<!--", "-->")],
    // The comment forms of the other common kinds, followed by a space:
    // `--flag`, `;(function…` and `%d` lines stay content.
    spaced_comments: &["--", ";", "%", ".\\\"", "'\\\""],
    ..brace("generic", &[], &["//", "#"], b"\"'`", false)
};

/// Names a row's own names cannot say: (a folder the file is in, the
/// start and the end of its name, lowercase; the row). First match wins,
/// before the rows' names (`requirements-dev.txt` is no prose).
const NAME_PATTERNS: &[(&str, &str, &str, &str)] = &[
    // JSON with comments: TypeScript's and VS Code's configurations.
    ("", "tsconfig", ".json", "jsonc"),
    ("", "jsconfig", ".json", "jsonc"),
    ("", "devcontainer", ".json", "jsonc"),
    (".vscode", "", ".json", "jsonc"),
    (".devcontainer", "", ".json", "jsonc"),
    (".zed", "", ".json", "jsonc"),
    ("", "tslint", ".json", "jsonc"),
    ("", "api-extractor", ".json", "jsonc"),
    ("", "turbo", ".json", "jsonc"),
    ("", "deno", ".json", "jsonc"),
    ("", "biome", ".json", "jsonc"),
    ("", "nest-cli", ".json", "jsonc"),
    ("", "typedoc", ".json", "jsonc"),
    ("", "language-configuration", ".json", "jsonc"),
    // pip's requirement and constraint lists: `#` comments.
    ("", "requirements", ".txt", "hash-comments"),
    ("", "requirements", ".in", "hash-comments"),
    ("", "constraints", ".txt", "hash-comments"),
    ("requirements", "", ".txt", "hash-comments"),
    ("requirements", "", ".in", "hash-comments"),
];

/// Names of prose files that have no extension, in capitals (`LICENSE`,
/// `LICENSE-MIT`, `COPYING.LESSER`, `README`).
const PROSE_NAMES: &[&str] = &[
    "LICENSE",
    "LICENCE",
    "COPYING",
    "COPYRIGHT",
    "NOTICE",
    "AUTHORS",
    "CONTRIBUTORS",
    "MAINTAINERS",
    "CREDITS",
    "THANKS",
    "README",
    "CHANGELOG",
    "CHANGES",
    "HISTORY",
    "NEWS",
    "RELEASE-NOTES",
    "RELEASE_NOTES",
    "INSTALL",
    "UPGRADING",
    "CONTRIBUTING",
    "SECURITY",
    "CODE_OF_CONDUCT",
    "PATENTS",
    "TODO",
    "UNLICENSE",
];

/// Returns the language of a file from its name (`src/app.d.ts`,
/// `Makefile`, `.gitignore`, `tsconfig.base.json`, `LICENSE`), or `None`
/// when the name says nothing.
pub fn from_path(path: &str) -> Option<&'static Lang> {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = base.to_ascii_lowercase();
    let dir = path[..path.len() - base.len()].to_ascii_lowercase();
    let in_dir = |d: &str| d.is_empty() || dir.split(['/', '\\']).any(|component| component == d);
    if let Some(&(.., row)) = NAME_PATTERNS.iter().find(|(d, start, end, _)| {
        in_dir(d)
            && lower.len() >= start.len() + end.len()
            && lower.starts_with(start)
            && lower.ends_with(end)
    }) {
        return Some(named(row));
    }
    let by_names = LANGS.iter().find(|l| {
        l.names.iter().any(|n| {
            if n.starts_with('.') {
                lower == *n
            } else if n.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
                base == *n
            } else {
                lower
                    .strip_suffix(n)
                    .is_some_and(|stem| stem.ends_with('.') && stem.len() > 1)
            }
        })
    });
    // Capitalised only: a lowercase `install` or `news` may be a script.
    let capital = base.starts_with(|c: char| c.is_ascii_uppercase());
    by_names.or_else(|| {
        let upper = base.to_ascii_uppercase();
        PROSE_NAMES
            .iter()
            .any(|n| {
                upper
                    .strip_prefix(n)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '_', '.']))
            })
            .then(|| named("prose"))
            .filter(|_| capital)
    })
}

/// Extensions that name a kind only when the content shows it: (the
/// extension, signs any of which in the content's head confirms it). A
/// file without any is judged as if unnamed (`app.log.1` is no manual
/// page, a `.config` not in XML no XML).
const NEEDS_SIGNS: &[(&[&str], &[&str])] = &[
    (
        &[
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "1m", "3p", "man", "mdoc", "ms", "me",
        ],
        &[
            ".TH ", ".Dd ", ".SH ", ".Sh ", ".PP", ".TP", ".\\\"", "'\\\"", ".B ", ".I ", ".Nm",
        ],
    ),
    (&["config", "manifest", "props", "targets", "ui"], &["<"]),
];

/// Extensions two languages share, and the signs that a file holds the
/// other one: (extension, language, signs any of which in the content's
/// head picks it, signs any of which keeps the extension's own row).
const SHARED_EXTENSIONS: &[(&str, &str, &[&str], &[&str])] = &[
    // `.m`: MATLAB/Octave by default, Objective-C by its directives.
    (
        "m",
        "objective-c",
        &[
            "#import",
            "@implementation",
            "@interface",
            "#include",
            "@end\n",
        ],
        &[],
    ),
    // `.v`: Verilog by default, Coq (ML comments) by its vernacular.
    (
        "v",
        "ocaml",
        &[
            "Require Import",
            "Theorem ",
            "Lemma ",
            "Proof.",
            "Qed.",
            "Inductive ",
        ],
        &["module ", "endmodule"],
    ),
    // `.fs`: F# by default, a GLSL fragment shader (C comments) by its
    // directives.
    ("fs", "c", &["#version ", "gl_FragColor", "void main("], &[]),
    // `.cls`: a VB class module by default, a LaTeX class by its macros.
    (
        "cls",
        "latex-package",
        &["\\NeedsTeXFormat", "\\ProvidesClass", "\\LoadClass"],
        &[],
    ),
    // `.ts`: TypeScript by default, a Qt translation (XML) by its root.
    // Salesforce Apex classes share `.cls` with VBA and LaTeX classes.
    (
        "cls",
        "apex",
        &[
            "with sharing",
            "without sharing",
            "inherited sharing",
            "public class ",
            "global class ",
            "@isTest",
            "@AuraEnabled",
        ],
        &["Attribute VB_", "VERSION 1.0 CLASS", "\\ProvidesClass"],
    ),
    ("ts", "html", &["<!DOCTYPE TS>", "<TS version"], &[]),
    // `.tpl`: a Go template (Helm) by default, Smarty by its tags.
    (
        "tpl",
        "smarty",
        &["{$", "{include file=", "{foreach ", "{if $", "{/if}", "{*"],
        &["{{"],
    ),
    // `.pl`: Perl by default, Prolog by its directives and clauses.
    (
        "pl",
        "prolog",
        &[
            ":- module(",
            ":- use_module(",
            ":- dynamic",
            ":- initialization",
            ") :-\n",
            ") :- ",
        ],
        &[
            "use strict",
            "my $",
            "#!/usr/bin/perl",
            "#!/usr/bin/env perl",
            "sub ",
        ],
    ),
];

/// Returns the language of the file at `path` holding `content` (its
/// old content, or the new one for a new file): from its name, an
/// extension two languages share ([`SHARED_EXTENSIONS`]) resolved by its
/// content, or sniffed from its content when the name says nothing. The
/// one place a file's language is chosen for judging.
pub fn of_file(path: &str, content: &[u8]) -> &'static Lang {
    let Some(by_name) = from_path(path) else {
        return sniff(content);
    };
    let head = &content[..content.len().min(16 * 1024)];
    let has = |s: &&str| memchr::memmem::find(head, s.as_bytes()).is_some();
    // JSON that holds comments is JSONC, whatever its name.
    if by_name.format == Some(Format::Json) && has_comment_line(head) {
        return named("jsonc");
    }
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let Some((_, ext)) = base.rsplit_once('.') else {
        return by_name;
    };
    if NEEDS_SIGNS.iter().any(|(exts, signs)| {
        exts.iter().any(|e| ext.eq_ignore_ascii_case(e)) && !signs.iter().any(has)
    }) {
        return sniff(content);
    }
    // An extension may be shared by several languages (`.cls`: VBA,
    // LaTeX, Apex): the first whose signs the content shows wins.
    SHARED_EXTENSIONS
        .iter()
        .filter(|(e, ..)| ext.eq_ignore_ascii_case(e))
        .find(|(_, _, signs, own)| signs.iter().any(has) && !own.iter().any(has))
        .map_or(by_name, |(_, other, ..)| named(other))
}

/// Returns whether a line of `head` opens with `//` or `/*` (a JSON
/// string or value never does).
fn has_comment_line(head: &[u8]) -> bool {
    head.split(|&b| b == b'\n').any(|l| {
        let t = l.trim_ascii_start();
        t.starts_with(b"//") || t.starts_with(b"/*")
    })
}

/// Returns `text` with every whole-line comment in one of `lang`'s
/// [`Lang::spaced_comments`] forms rewritten in the kind's own syntax
/// (its first line comment, or else wrapped in its first block comment),
/// so the removal rule reads them as the notes they are; `None` when no
/// line has one. Lines keep their numbers.
pub fn spaced_comments(text: &str, lang: &Lang) -> Option<String> {
    let (open, close) = match (lang.line_comments.first(), lang.block_comments.first()) {
        (Some(m), _) => (*m, ""),
        (None, Some((o, c))) => (*o, *c),
        (None, None) => return None,
    };
    let spaced = |t: &str| is_spaced_comment(t, lang);
    // Most files have none: look before copying.
    if !has_spaced_comment(text, lang) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if spaced(t) {
            let body = t.trim_end();
            out.push_str(&line[..line.len() - t.len()]);
            out.push_str(open);
            out.push(' ');
            out.push_str(body);
            if !close.is_empty() {
                out.push(' ');
                out.push_str(close);
            }
            out.push_str(&t[body.len()..]);
        } else {
            out.push_str(line);
        }
    }
    Some(out)
}

/// Returns whether a trimmed line opens with one of `lang`'s
/// [`Lang::spaced_comments`] followed by white space or nothing.
fn is_spaced_comment(t: &str, lang: &Lang) -> bool {
    lang.spaced_comments.iter().any(|m| {
        t.strip_prefix(m)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
    })
}

/// Returns whether a line of `text` is a whole-line comment in one of
/// `lang`'s [`Lang::spaced_comments`] forms.
pub fn has_spaced_comment(text: &str, lang: &Lang) -> bool {
    !lang.spaced_comments.is_empty()
        && text
            .lines()
            .any(|l| is_spaced_comment(l.trim_start(), lang))
}

/// Returns the row named `name`.
/// Returns the code cells of a Jupyter notebook's text, one after the
/// other, each opened by a `# %%` line (the cell marker of editors that
/// read notebooks as scripts), and the language of its kernel (Python when
/// it names none the table knows); `None` when the text is no notebook.
pub fn notebook_code(text: &str) -> Option<(String, &'static Lang)> {
    let doc: serde_json::Value = serde_json::from_str(text).ok()?;
    let cells = doc.get("cells")?.as_array()?;
    let kernel = doc
        .pointer("/metadata/language_info/file_extension")
        .and_then(|e| e.as_str())
        .and_then(|e| from_path(&format!("cell{e}")))
        .unwrap_or_else(|| named("python"));
    let mut out = String::new();
    for cell in cells {
        if cell.get("cell_type").and_then(|t| t.as_str()) != Some("code") {
            continue;
        }
        out.push_str("# %%\n");
        match cell.get("source") {
            Some(serde_json::Value::String(s)) => out.push_str(s),
            Some(serde_json::Value::Array(lines)) => {
                for l in lines.iter().filter_map(|l| l.as_str()) {
                    out.push_str(l);
                }
            }
            _ => {}
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push('\n');
    }
    Some((out, kernel))
}

/// Returns the code a document embeds, grouped by language, in order:
/// a notebook's code cells ([`notebook_code`]), a Markdown file's fenced
/// blocks (by their info string: ```` ```python ````), an HTML page's
/// inline `<script>` and `<style>` elements. Each piece is followed by a
/// blank line. Empty for other files.
pub fn embedded_code(text: &str, lang: &Lang) -> Vec<(&'static Lang, String)> {
    let mut groups: Vec<(&'static Lang, String)> = Vec::new();
    let mut add = |l: &'static Lang, code: &str| {
        let at = match groups.iter().position(|(g, _)| std::ptr::eq(*g, l)) {
            Some(i) => i,
            None => {
                groups.push((l, String::new()));
                groups.len() - 1
            }
        };
        groups[at].1.push_str(code);
        groups[at].1.push('\n');
    };
    match lang.name {
        "notebook" => {
            if let Some((code, kernel)) = notebook_code(text) {
                add(kernel, &code);
            }
        }
        "prose" => {
            let mut fence: Option<(&str, Option<&'static Lang>, String)> = None;
            for line in text.lines() {
                let t = line.trim_start();
                match &mut fence {
                    None => {
                        for marker in ["```", "~~~"] {
                            if let Some(info) = t.strip_prefix(marker) {
                                let word = info.trim().split([' ', '{', ',']).next().unwrap_or("");
                                let l = (!word.is_empty())
                                    .then(|| {
                                        from_path(&format!("x.{word}")).or_else(|| by_name(word))
                                    })
                                    .flatten();
                                fence = Some((marker, l, String::new()));
                                break;
                            }
                        }
                    }
                    Some((marker, l, body)) => {
                        if t.starts_with(*marker) {
                            if let Some(l) = l {
                                if l.format.is_none() && !l.prose {
                                    add(l, body);
                                }
                            }
                            fence = None;
                        } else {
                            body.push_str(line);
                            body.push('\n');
                        }
                    }
                }
            }
        }
        "html" => {
            for (open, close, name) in [
                ("<script", "</script>", "javascript"),
                ("<style", "</style>", "css"),
            ] {
                let mut rest = text;
                while let Some(o) = rest.find(open) {
                    let after = &rest[o..];
                    let Some(gt) = after.find('>') else { break };
                    let tag = &after[..gt];
                    let body = &after[gt + 1..];
                    let Some(c) = body.find(close) else { break };
                    if !tag.contains("src=") && !tag.contains("type=\"application/") {
                        add(named(name), &body[..c]);
                    }
                    rest = &body[c..];
                }
            }
        }
        _ => {}
    }
    groups
}

/// Returns the row whose name is `name` (`python`, `rust`), or a common
/// alias of one (`js`, `sh`), for a fence's info string.
fn by_name(name: &str) -> Option<&'static Lang> {
    let name = name.to_ascii_lowercase();
    let name = match name.as_str() {
        "js" | "node" => "javascript",
        "ts" => "typescript",
        "py" | "python3" => "python",
        "sh" | "bash" | "zsh" | "console" | "shell-session" => "shell",
        "cpp" | "cxx" => "c++",
        "cs" | "csharp" => "c#",
        "rb" => "ruby",
        "rs" => "rust",
        "golang" => "go",
        other => other,
    };
    LANGS.iter().find(|l| l.name == name)
}

fn named(name: &str) -> &'static Lang {
    LANGS.iter().find(|l| l.name == name).unwrap_or(&GENERIC)
}

/// Sniffing signs: (language, needles that must all appear in the head).
/// The first row whose needles all appear wins; the order puts the most
/// telling signs first.
const SNIFF: &[(&str, &[&str])] = &[
    ("php", &["<?php"]),
    ("rust", &["fn ", "let "]),
    ("rust", &["fn ", "impl "]),
    ("rust", &["pub fn "]),
    ("go", &["package ", "func "]),
    ("kotlin", &["fun ", "val "]),
    ("kotlin", &["package ", "fun "]),
    ("c#", &["using System"]),
    ("c#", &["namespace ", "public class "]),
    ("java", &["package ", "import java"]),
    ("java", &["public class "]),
    ("c++", &["#include"]),
    ("python", &["def ", "self"]),
    ("python", &["import ", "def "]),
    ("ruby", &["def ", "\nend"]),
    ("lua", &["function ", "\nend"]),
    ("lua", &["local ", " then\n"]),
    ("scala", &["object ", "def "]),
    ("javascript", &["function "]),
    ("javascript", &["const ", "=> "]),
    ("python", &["def "]),
];

/// Returns the language `bytes` appear to be written in, from their first
/// 16 KB; [`GENERIC`] when nothing stands out.
pub fn sniff(bytes: &[u8]) -> &'static Lang {
    let head = &bytes[..bytes.len().min(16 * 1024)];
    let Ok(text) =
        std::str::from_utf8(head).or_else(|e| std::str::from_utf8(&head[..e.valid_up_to()]))
    else {
        return &GENERIC;
    };
    let start = text.trim_start().trim_start_matches('\u{feff}');
    if [
        "<?xml",
        "<!DOCTYPE",
        "<!doctype",
        "<svg",
        "<html",
        "<project",
        "<Project",
    ]
    .iter()
    .any(|s| start.starts_with(s))
    {
        return named("html");
    }
    if (start.starts_with('{') || start.starts_with('['))
        && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
    {
        return named("json");
    }
    if let Some(format) = data_shape(text, bytes) {
        return named(format);
    }
    for (name, needles) in SNIFF {
        if needles.iter().all(|n| text.contains(n)) {
            return named(name);
        }
    }
    &GENERIC
}

/// Returns `toml` or `yaml` when every line has the shape of that format
/// and the whole content parses as it.
fn data_shape(head: &str, bytes: &[u8]) -> Option<&'static str> {
    let lines: Vec<&str> = head
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.len() < 2 {
        return None;
    }
    let key = |l: &str, sep: &str| {
        l.split_once(sep).is_some_and(|(k, _)| {
            let k = k.trim().trim_matches('"');
            !k.is_empty()
                && k.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ' '))
        })
    };
    let toml_line =
        |l: &str| (l.starts_with('[') && l.ends_with(']')) || key(l, " = ") || key(l, "=");
    if lines.iter().filter(|l| toml_line(l)).count() * 10 >= lines.len() * 9
        && lines.iter().any(|l| l.starts_with('['))
        && super::structure::parse(bytes, Format::Toml).is_ok()
    {
        return Some("toml");
    }
    let yaml_line =
        |l: &str| l.starts_with("- ") || l == "-" || l == "---" || l.ends_with(':') || key(l, ": ");
    let shaped = lines.iter().filter(|l| yaml_line(l)).count();
    if shaped * 10 >= lines.len() * 8
        && !lines.iter().any(|l| l.ends_with(';') || l.ends_with('{'))
        && matches!(
            super::structure::parse(bytes, Format::Yaml),
            Ok(super::structure::Node::Map(_) | super::structure::Node::Seq(_))
        )
    {
        return Some("yaml");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_come_from_names() {
        for (path, name) in [
            ("src/main.rs", "rust"),
            ("a/b/types.d.ts", "typescript-declarations"),
            ("web/app.tsx", "typescript"),
            ("x.PY", "python"),
            ("stubs/os.pyi", "python-stubs"),
            ("Makefile", "make"),
            ("build/Dockerfile", "dockerfile"),
            ("infra/main.tf", "terraform"),
            ("CMakeLists.txt", "cmake"),
            ("src/App.vue", "vue"),
            ("Cargo.lock", "toml"),
            ("config/app.yml", "yaml"),
            ("package.json", "json"),
            ("views/index.html.erb", "erb"),
            ("README.md", "prose"),
            ("scripts/report.awk", "awk"),
            ("source/app.d", "d"),
            ("shaders/blur.wgsl", "shader"),
            ("shaders/lit.frag", "shader"),
            ("lib/backup.tcl", "tcl"),
            ("src/Game.hx", "haxe"),
            ("src/Pager.res", "rescript"),
            ("Sort/Insertion.lean", "lean"),
            ("src/limiter.cr", "crystal"),
            ("contracts/Vault.vy", "python-like"),
            ("scripts/deps.nu", "nushell"),
            ("src/Vect.idr", "haskell"),
            ("queue.rkt", "lisp"),
        ] {
            assert_eq!(from_path(path).map(|l| l.name), Some(name), "{path}");
        }
        assert_eq!(from_path("LICENSE").map(|l| l.name), Some("prose"));
        assert_eq!(from_path("src/main"), None);
        assert_eq!(from_path(".rs"), None);
    }

    #[test]
    fn sniffing_finds_the_common_languages() {
        assert_eq!(sniff(b"fn main() {\n    let x = 1;\n}\n").name, "rust");
        assert_eq!(
            sniff(b"import os\n\ndef f(x):\n    return x\n").name,
            "python"
        );
        assert_eq!(sniff(b"package main\n\nfunc main() {}\n").name, "go");
        assert_eq!(
            sniff(b"package a\n\nfun main() {\n    val x = 1\n}\n").name,
            "kotlin"
        );
        assert_eq!(sniff(b"{\"a\": [1, 2]}").name, "json");
        assert_eq!(sniff(b"{ not json").name, "generic");
        assert_eq!(sniff(b"plain words").name, "generic");
        assert_eq!(
            sniff(b"[package]\nname = \"x\"\nversion = \"1\"\n").name,
            "toml"
        );
        assert_eq!(sniff(b"services:\n  web:\n    image: nginx\n").name, "yaml");
        assert_eq!(sniff(b"def f(x):\n    return x\n").name, "python");
    }
}

#[cfg(test)]
mod shared_extension_tests {
    use super::*;

    #[test]
    fn shared_extensions_are_resolved_by_content() {
        let objc = b"#import \"PhotoCache.h\"\n\n@implementation PhotoCache\n@end\n";
        assert_eq!(of_file("PhotoCache.m", objc).name, "objective-c");
        let matlab = b"function y = lowpass(x)\n% Filter.\ny = x;\nend\n";
        assert_eq!(of_file("lowpass.m", matlab).name, "erlang");
        let prolog = b":- module(family, [parent/2]).\n\nparent(tom, bob).\nancestor(X, Y) :-\n    parent(X, Y).\n";
        assert_eq!(of_file("family.pl", prolog).name, "prolog");
        let perl = b"#!/usr/bin/perl\nuse strict;\nmy $x = 1;\n# a :- b\n";
        assert_eq!(of_file("run.pl", perl).name, "perl");
        assert_eq!(of_file("x.rs", b"").name, "rust");
        let coq = b"Require Import Arith.\nTheorem t : 1 = 1.\nProof. reflexivity. Qed.\n";
        assert_eq!(of_file("t.v", coq).name, "ocaml");
        assert_eq!(
            of_file("m.v", b"module m(input a);\nendmodule\n").name,
            "verilog"
        );
        let apex =
            b"public with sharing class Scorer {\n    public Integer score() { return 1; }\n}\n";
        assert_eq!(of_file("Scorer.cls", apex).name, "apex");
        let vba = b"VERSION 1.0 CLASS\nAttribute VB_Name = \"Scorer\"\nPublic Function Score()\nEnd Function\n";
        assert_eq!(of_file("Scorer.cls", vba).name, "vb");
        let glsl = b"#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        assert_eq!(of_file("shade.fs", glsl).name, "c");
        assert_eq!(
            of_file("Pricing.fs", b"module Pricing\nlet x = 1\n").name,
            "ocaml"
        );
        let cls = b"\\NeedsTeXFormat{LaTeX2e}\n\\ProvidesClass{thesis}\n";
        assert_eq!(of_file("thesis.cls", cls).name, "latex-package");
        assert_eq!(of_file("Sheet1.cls", b"Option Explicit\n").name, "vb");
        let smarty = b"<h1>{$title}</h1>\n{foreach $items as $i}<p>{$i}</p>{/foreach}\n";
        assert_eq!(of_file("index.tpl", smarty).name, "smarty");
        let helm = b"{{- define \"x.name\" -}}\n{{ .Chart.Name }}\n{{- end }}\n";
        assert_eq!(of_file("templates/_helpers.tpl", helm).name, "go-template");
        let qt = b"<?xml version=\"1.0\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\">\n";
        assert_eq!(of_file("app_de.ts", qt).name, "html");
    }

    /// Whether `old` with lines 3..=6 replaced by `note` is blocked for
    /// what stands in their place.
    fn note_blocks(path: &str, old: &str, note: &str) -> bool {
        let lines: Vec<&str> = old.lines().collect();
        let mut new: Vec<&str> = lines[..2].to_vec();
        new.push(note);
        new.extend(&lines[6..]);
        let new = new.join("\n") + "\n";
        crate::guard::embedded::tests::stands_in(path, old, &new)
    }

    #[test]
    fn comment_syntaxes_of_their_file_kinds_are_known() {
        let objc = "#import \"A.h\"\n@implementation A\n- (void)a {\n    [self b];\n    [self c];\n}\n- (void)d {\n    [self e];\n}\n@end\n";
        assert!(note_blocks("A.m", objc, "// 나머지 메서드는 동일합니다"));
        let prolog = ":- module(f, []).\nparent(tom, bob).\nparent(bob, ann).\nparent(ann, joe).\nparent(joe, kim).\nparent(kim, lee).\nsibling(X, Y) :- parent(P, X), parent(P, Y).\nx(1).\n";
        assert!(note_blocks("f.pl", prolog, "% loput ennallaan"));
        let perl = "package Q;\nuse strict;\nsub a {\n    my ($s) = @_;\n    return $s->{x};\n}\nsub b { 1 }\n1;\n";
        assert!(note_blocks("Q.pm", perl, "=pod\n\nmuut ennallaan\n\n=cut"));
        let adoc = "= Guide\n\n== Keys\nUse a key.\nRotate it.\nIt lasts a day.\n\n== Webhooks\nWe post events.\n";
        assert!(note_blocks("g.adoc", adoc, "// resten uændret"));
        assert!(note_blocks("g.adoc", adoc, "////\nsom før\n////"));
        let tex = "\\section{A}\n\\label{a}\nA fixed threshold drifts.\nWe keep a window instead.\nAnd flag the outliers.\nTable~\\ref{t} compares.\n\\section{B}\nMore.\n";
        assert!(note_blocks("m.tex", tex, "\\todo{wie vorher}"));
        let ada = "package body S is\n   function F return Float is\n   begin\n      return 1.0;\n   end F;\n   X : Float := 0.0;\n   Y : Float := 1.0;\nend S;\n";
        assert!(note_blocks("s.adb", ada, "   -- igual que antes"));
        let md = "# Guide\n\n## Keys\nUse a key.\nRotate it.\nIt lasts a day.\n\n## Hooks\nWe post events.\n";
        assert!(note_blocks("g.md", md, "[//]: # (loput ennallaan)"));
        let liquid = "<main>\n{% for p in posts %}\n<h2>{{ p.title }}</h2>\n<p>{{ p.summary }}</p>\n<a href=\"{{ p.url }}\">more</a>\n{% endfor %}\n</main>\n<footer>x</footer>\n";
        assert!(note_blocks(
            "index.liquid",
            liquid,
            "{% comment %}wie vorher{% endcomment %}"
        ));
        let helm = "spec:\n  containers:\n    - name: web\n      image: x\n      ports:\n        - containerPort: 80\n  nodeSelector:\n    a: b\n";
        assert!(note_blocks(
            "chart/templates/d.yaml",
            helm,
            "      {{- /* wie vorher */}}"
        ));
    }
}
