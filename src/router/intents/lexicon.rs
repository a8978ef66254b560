//! The words level 1.5 understands, grouped into concepts, per language.
//!
//! A concept is what a word means to the intent table (`table.rs`): "haz",
//! "hacé", "do", "make", "mándale" all mean [`C::Do`]. Phrases are written
//! folded (lower case, no accents: what `normalize` produces) with single
//! spaces; a phrase may belong to several concepts ("crea" is both
//! [`C::Do`] and [`C::Create`]), and the parser takes the longest phrase at
//! each position. Words that appear nowhere here are not understood: a
//! request containing one goes to the model, unless it fills a slot.
//!
//! Pure data; never does I/O.

/// A concept: what a word or phrase means to the intent table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum C {
    // Around a request (`Edge`): allowed before or after it only.
    /// hello, hola, hey, oye.
    Greet,
    /// thanks, gracias, ty.
    Thanks,
    /// ok, vale, dale, listo, so, now, y.
    Ack,
    /// bro, che, tío, wey, parce, po, pana.
    Vocative,
    /// can you, could you, quiero que, hay que, le ruego que.
    LeadIn,
    /// now, asap, ya, al tiro, for me.
    Time,
    // Anywhere.
    /// please, por favor, porfa, si puedes, cuando puedas.
    Polite,
    /// the, my, el, la, de, git, me: words every intent may contain.
    Filler,
    // Words that send a request to the model unless an intent consumes them.
    /// if, when, before, after, si, cuando, antes de, después de.
    Condition,
    /// don't, not, never, no, nunca, sin.
    Negation,
    /// how, why, should, what is, qué hace, cómo, por qué.
    Question,
    /// only, just, solo, solamente, nomás.
    Only,
    /// except, but, excepto, menos, salvo.
    Except,
    // What requests are about.
    /// do, make, run, haz, hacé, hazme, mándale, échale, tirá.
    Do,
    /// commit (noun or verb), commitea, commitéalo.
    Commit,
    /// commits (plural): history.
    Commits,
    /// check in.
    CheckIn,
    /// confirma, registra (commit, in Spanish git).
    Confirm,
    /// save, guarda, salva.
    Save,
    /// to git, en git, in the repo.
    ToGit,
    /// everything, all, it, todo, esto.
    All,
    /// changes, work, files, cambios, trabajo.
    Changes,
    /// but don't push, sin hacer push.
    NoPush,
    /// but keep my changes, sin perder los cambios.
    Keep,
    /// and throw away its changes, y borra los cambios.
    Lose,
    /// init, initialize, inicializa.
    Init,
    /// repo, repository, repositorio.
    Repo,
    /// here, aquí.
    Here,
    /// and, then, y, luego.
    And,
    /// push, sube, súbelo, pushea, empuja.
    Push,
    /// send, ship, manda, publica: push when a remote is named.
    Send,
    /// force, forced, forzado, a la fuerza.
    Force,
    /// origin, the remote, github, el remoto.
    Remote,
    /// up (push it up).
    Up,
    /// status, estado, estatus.
    Status,
    /// what changed, ¿qué cambió?, anything to commit?
    StatusQ,
    /// show, show me, muestra, muéstrame, dame, ver.
    Show,
    /// log, history, historial.
    Log,
    /// recent, latest, últimos.
    Recent,
    /// last, latest, previous, último, anterior.
    Last,
    /// diff, differences, diferencias.
    Diff,
    /// what did I change in …, ¿qué cambié en …?
    DiffQ,
    /// staged, cached, en el stage.
    Staged,
    /// what's staged?, ¿qué tengo en el stage?
    StagedQ,
    /// blame, annotate.
    Blame,
    /// who wrote …, ¿quién escribió …?
    BlameQ,
    /// who changed …, commits that touched …
    HistoryQ,
    /// file, archivo, fichero.
    FileNoun,
    /// folder, directory, carpeta.
    FolderNoun,
    /// in, of, for, on, en, de (before a path).
    PathPrep,
    /// branch, rama (one).
    Branch,
    /// branches, ramas.
    Branches,
    /// create, make, start, open, crea, abre.
    Create,
    /// new, nueva.
    New,
    /// called, named, llamada, que se llame.
    Called,
    /// switch, checkout, cámbiate, pásate.
    Switch,
    /// go, move, jump, ve, vuelve, regresa.
    Go,
    /// to, a, al.
    To,
    /// current, this, active, actual.
    Current,
    /// list, lista, listame.
    List,
    /// what, which, qué, cuáles: in list questions.
    Which,
    /// are there, do we have, hay, tenemos.
    Exist,
    /// am I on, estoy, estamos.
    OnBranch,
    /// rename, renombra, cambia el nombre.
    Rename,
    /// name, nombre.
    NameNoun,
    /// delete, remove, borra, elimina, quita.
    Delete,
    /// merged, ya mergeada.
    Merged,
    /// merge, mergea, fusiona.
    Merge,
    /// into this branch, aquí, en la actual.
    IntoCurrent,
    /// tag, etiqueta (one).
    Tag,
    /// tags, etiquetas.
    Tags,
    /// as, como.
    As,
    /// remotes, remotos.
    Remotes,
    /// stash, stashes, stashea.
    Stash,
    /// aside, for later, temporalmente.
    Aside,
    /// pop, unstash, saca, recupera, bring back.
    Pop,
    /// apply, aplica.
    Apply,
    /// undo, uncommit, deshaz.
    Undo,
    /// discard, throw away, bota, tira, descarta.
    Discard,
    /// local, uncommitted, locales, sin commitear.
    Local,
    /// stage, add, agrega, añade, stagea.
    Stage,
    /// to the index, al stage.
    ToIndex,
    /// unstage, unstagea.
    Unstage,
    /// from the index, del stage.
    FromIndex,
    /// amend, reword, fix, change, corrige, cambia.
    Amend,
    /// message, mensaje.
    MessageNoun,
    /// one, three, tres: counts in words.
    NumberWord,
    /// previous, the one before, anterior, penúltimo: `HEAD~1`, never
    /// `HEAD` (rows that cannot say `HEAD~1` leave it to the model).
    Previous,
    /// from, off, based on, desde, a partir de: a branch's start point.
    From,
    /// the first commit, el primer commit: only a new repository has one
    /// to make.
    FirstCommit,
    /// code, the code, el código: what is committed or pushed.
    Code,
}

/// Words of one concept in each language (folded, space-separated phrases).
pub struct Words {
    /// The concept.
    pub concept: C,
    /// English phrases.
    pub en: &'static [&'static str],
    /// Spanish phrases, every region.
    pub es: &'static [&'static str],
}

const fn w(concept: C, en: &'static [&'static str], es: &'static [&'static str]) -> Words {
    Words { concept, en, es }
}

/// Concepts allowed only at the edges of a request, before or after it.
pub const EDGE: &[C] = &[C::Greet, C::Thanks, C::Ack, C::Vocative, C::LeadIn, C::Time];

/// Concepts every intent accepts anywhere.
pub const ANYWHERE: &[C] = &[C::Polite, C::Filler];

/// Concepts that send a request to the model unless its intent consumes
/// them; their words are never corrected into other words, and never fill
/// a slot.
pub const TRIGGERS: &[C] = &[C::Condition, C::Negation, C::Question, C::Only, C::Except];

/// Numbers written as words, with their value.
pub const NUMBER_WORDS: &[(&str, u32)] = &[
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("twenty", 20),
    ("uno", 1),
    ("un", 1),
    ("dos", 2),
    ("tres", 3),
    ("cuatro", 4),
    ("cinco", 5),
    ("seis", 6),
    ("siete", 7),
    ("ocho", 8),
    ("nueve", 9),
    ("diez", 10),
    ("veinte", 20),
];

/// The lexicon.
#[rustfmt::skip]
pub const WORDS: &[Words] = &[
    w(C::Greet,
      &["namaste", "hello ji", "hi team", "hello team", "hey team", "hiya", "howdy", "g'day", "evening", "hi", "hello", "hey", "hey there", "hi there", "yo", "good morning", "morning", "good afternoon", "good evening"],
      &["oe", "oe causa", "oye causa", "que pasa", "que hubo", "quiubo", "quihubo", "epa", "alo", "buenas buenas", "que onda wey", "hola que tal", "buen dia", "que hay", "hola", "oye", "oiga", "ey", "buenas", "buenos dias", "buenas tardes", "wena", "saludos", "hola hola", "que onda", "que tal", "que mas"]),
    w(C::Thanks,
      &["thanks yaar", "thank you so much", "thanks so much", "thanks a ton", "ta", "cheers mate", "much appreciated", "appreciate it", "thanks bro", "thanks man", "thank you sir", "thanks", "thank you", "thank u", "cheers", "thanks in advance", "many thanks", "thanks a lot"],
      &["gracias crack", "gracias wey", "gracias che", "gracias tio", "gracias parce", "mil gracias crack", "gracias pana", "se agradece", "te pasaste", "gracias", "muchas gracias", "mil gracias", "te lo agradezco", "se lo agradezco", "de antemano gracias", "gracias de antemano"]),
    w(C::Ack,
      &["okay so", "achha", "accha", "acha", "haan", "chalo", "ok ji", "right then", "okie", "sure", "yeah", "yep", "k so", "anyway", "btw", "ok", "alright", "all right", "right", "so", "well", "then", "and", "also", "now", "great", "perfect", "cool", "nice", "good", "ok so", "oh", "okay then", "and now", "also please"],
      &["no manches", "no mames", "chale", "orale pues", "sale pues", "va", "sip", "sep", "dale pues", "bueno ya", "pucha", "ya pues", "listo pues", "hagale", "hagale pues", "venga va", "ostras", "hala", "ojo", "oka", "ok dale", "bueno dale", "ya ya", "ya esta", "y bueno", "bueno", "vale", "dale", "listo", "ya", "sale", "orale", "andale", "venga", "a ver", "mira", "entonces", "y", "tambien", "pues", "ahora", "ahorita", "perfecto", "genial", "ya que", "y ahora", "ok entonces", "bueno pues", "ya po", "de una"]),
    w(C::Vocative,
      &["na", "yaar", "bhai", "bhaiya", "boss", "sir", "ji", "madam", "maam", "ma'am", "guys", "team", "mate", "lad", "chief", "bud", "homie", "y'all", "buddy pls", "bro", "man", "dude", "buddy", "mate", "fam", "pal"],
      &["cachai", "macho", "tronco", "colega", "boludo", "chabon", "weon", "huevon", "compadre", "carnal", "hermanito", "viejo", "primo", "manito", "jefe", "jefa", "maestro", "profe", "mi pana", "cuate", "nena", "nene", "broder", "bro", "nero", "chamo pana", "loquito", "hermano mio", "che", "tio", "wey", "guey", "we", "parce", "parcero", "pana", "causa", "chamo", "hermano", "amigo", "compa", "crack", "po", "pe", "loco", "mijo", "mano"]),
    w(C::LeadIn,
      &["i'd like", "i would like", "i want", "i need", "we need", "i'll need", "go on then", "go on", "go on and", "do the needful and", "please do the needful and", "kindly do the needful and", "do the needful,", "kindly", "please kindly", "can you kindly", "could you kindly", "i request you to", "request you to", "pls do", "please do", "can you just", "could you just", "help me", "help me to", "mind if you", "would you mind to", "u can", "you may", "you have to", "you need to", "i need u to", "need u to", "can ya", "could ya", "can you", "could you", "would you", "will you", "can u", "could u", "cn u", "would you mind",
        "would you be so kind as to", "would you kindly", "i need you to", "i want you to", "i'd like you to",
        "i would like you to", "i'd like to", "i would like to", "i want to", "i wanna", "wanna", "i need to",
        "we need to", "need to", "gotta", "let's", "lets", "let us", "go ahead and", "just", "time to",
        "i would appreciate it if you could", "i'd appreciate it if you could", "i'd love it if you could",
        "can you please", "could you please", "would you please", "you can", "pls can you", "ok can you",
        "make sure to", "try to", "go", "quickly"],
      &["le agradeceria que", "te agradeceria que", "le agradeceria", "agradeceria que", "seria posible que", "hagame el favor y", "hazme el favor y", "haceme el favor y", "me regala", "me regalas", "me regalaria", "me colaboras con", "me colabora con", "me hace el favor de", "me harias el favor de", "fijate", "fijese", "fijate en", "mira a ver", "oye puedes", "porfa me", "me haces el paro de", "hazme el paro", "ayudame con", "me ayudas con", "podrias por favor", "necesito que me", "quiero que me", "te encargo", "le encargo", "me echas la mano con", "me echas una mano con", "hazme la segunda con", "puedes", "podes", "podrias", "podria", "puede", "me puedes", "me podes", "me podrias", "me podria",
        "me haces el favor de", "hazme el favor de", "hagame el favor de", "haceme el favor de", "me ayudas a",
        "ayudame a", "quiero que", "quisiera que", "necesito que", "me gustaria que", "quiero", "necesito",
        "vamos a", "hay que", "tienes que", "tenes que", "toca", "es hora de", "le ruego que", "te pido que",
        "le pido que", "seria tan amable de", "serias tan amable de", "te animas a", "me", "porfa puedes",
        "hagame un favor", "hazme un favor", "puedes por favor", "anda", "ve y", "ya puedes", "hazme el paro con",
        "hazme el paro de", "hazme el paro y", "echame la mano con", "echame una mano con", "hazme el favor y"]),
    w(C::Time,
      &["so far", "until now", "up to now", "quickly please", "urgently", "urgent", "immediately", "right away", "fast", "at the earliest", "now itself", "today itself", "real fast", "now", "right now", "asap", "quickly", "real quick", "for me", "too", "please and thank you", "already", "today"],
      &["hasta ahora", "hasta el momento", "rapidito porfa", "ahoritita", "ahora ya", "ya mismito", "cuanto antes", "de volada", "en chinga", "altiro", "al toque", "ahora porfa", "ya", "ahora", "ahorita", "al tiro", "rapido", "rapidito", "ya mismo", "para mi", "tambien", "ahora mismo", "de una vez", "de una"]),
    w(C::Polite,
      &["kindly", "please do the needful", "do the needful", "if you don't mind", "if u can", "pls pls", "pretty pls", "please", "kindly", "if you could", "if you can", "if possible", "when you can", "when you get a chance",
        "whenever you can", "thank you", "pretty please"],
      &["porfis porfis", "si eres tan amable", "si fueras tan amable", "si me haces el favor", "por favorcito", "porfavorcito", "plis plis", "por favor", "porfa", "porfis", "porfi", "plis", "porfavor", "si puedes", "si podes", "si pudieras",
        "si no es molestia", "cuando puedas", "si es posible", "de favor", "por fa", "x favor"]),
    w(C::Filler,
      &["the", "a", "an", "my", "our", "your", "of", "git", "me", "us", "some"],
      &["el", "la", "los", "las", "un", "una", "unos", "unas", "mi", "mis", "tu", "tus", "su", "sus", "nuestro",
        "nuestra", "nuestros", "de", "del", "git", "me", "nos", "le", "te"]),
    w(C::Condition,
      &["if", "when", "whenever", "once", "unless", "after", "before", "until", "as soon as", "in case",
        "provided", "while", "afterwards", "first"],
      &["si", "cuando", "una vez", "antes", "antes de", "despues de", "luego de", "hasta", "en cuanto", "apenas",
        "mientras", "siempre que", "a menos que", "en caso de", "primero", "una vez que", "cuando acabes",
        "cuando termines"]),
    w(C::Negation,
      &["don't", "dont", "do not", "not", "never", "no", "nothing", "without", "nope", "stop", "cancel"],
      &["no", "nunca", "ni", "sin", "nada", "jamas", "tampoco", "todavia no", "aun no"]),
    w(C::Question,
      &["how", "why", "what", "what is", "what's", "whats", "what does", "which", "who", "where", "should",
        "can i", "could i", "should i", "do i", "does", "is it", "is", "are", "explain", "mean", "means",
        "difference", "when should", "how do i", "how to", "tell me about", "help"],
      &["como", "por que", "porque", "que", "que es", "que hace", "cual", "cuales", "quien", "donde", "deberia",
        "puedo", "se puede", "es", "explica", "explicame", "significa", "diferencia", "para que", "sirve",
        "me explicas", "como hago", "como se"]),
    w(C::Only,
      &["only", "just", "solely", "only the", "just the", "exclusively"],
      &["solo", "solamente", "unicamente", "nomas", "nada mas", "exclusivamente"]),
    w(C::Except,
      &["except", "except for", "excluding", "but", "apart from", "other than", "besides", "minus", "without"],
      &["excepto", "menos", "salvo", "sin", "excluyendo", "aparte de", "fuera de", "quitando", "pero no"]),
    w(C::Do,
      &["do", "make", "create", "run", "perform", "go ahead with", "do a quick", "make me", "give me", "execute",
        "ship", "cut"],
      &["hiciera", "hicieras", "hicieran", "hiciese", "haz", "hazme", "hace", "haceme", "hacer", "hacerme", "haga", "hagame", "hagas", "hagan", "hagamos",
        "hacemos", "realiza", "realizame", "realizar", "realice", "crea", "creame", "crear", "genera", "generar",
        "lanza", "lanzame", "mete", "metele", "meteme", "manda", "mandale", "mandame", "echale", "echa", "tira",
        "tirate", "tirame", "regalame", "regaleme", "hagale", "ejecuta", "me haces", "me hace", "me harias",
        "hazle", "tirale", "pega", "pegale", "aplicale", "aventale", "avienta", "armame", "arma", "haceme el"]),
    w(C::Commit,
      &["one commit", "commit", "commit it", "commit 'em", "commit em", "committing", "commiting", "a commit", "git commit",
        "the commit", "uncommit", "un-commit"],
      &["commitea", "commitear", "commiteame", "commitealo", "commitealos", "commiteala", "comitea", "comitear",
        "commitee", "commiteen", "commiteemos", "commitees", "commiteo", "commiteando", "comiteame", "comitealo",
        "commitiar", "commitia", "commitealo todo", "commiteale"]),
    w(C::Commits,
      &["commits", "the commits", "commit history", "commit log"],
      &["commits", "los commits", "historial de commits"]),
    w(C::CheckIn,
      &["check in", "check everything in", "check it in", "checkin"],
      &[]),
    w(C::Confirm,
      &[],
      &["confirma", "confirmar", "confirme", "registra", "registrar", "confirmame"]),
    w(C::Save,
      &["save", "store", "record", "put", "set", "park", "shelve", "keep"],
      &["guarda", "guardar", "guardame", "salva", "salvar", "salvame", "registra", "aparta", "apartame", "guardalos",
        "guardalo"]),
    w(C::ToGit,
      &["to git", "in git", "into git", "to the repo", "in the repo", "into the repo", "to the repository",
        "in the repository", "into the repository", "on git", "to the repo please"],
      &["en git", "en el repo", "en el repositorio", "al repo", "al repositorio", "a git", "dentro de git"]),
    w(C::All,
      &["containing all changes", "containing all the changes", "containing everything", "with all changes", "with all the changes", "with everything", "that lot", "this lot", "the whole lot", "everything", "all", "it all", "all of it", "it", "this", "that", "them", "these", "those", "the lot",
        "everything i have", "what i have", "all the things", "the whole thing", "all of them", "stuff",
        "em", "'em", "everything in the repo", "whatever is there", "all of my", "all my", "all the", "all of the"],
      &["con todos los cambios", "con todo", "todo", "todos", "esto", "eso", "lo", "todo lo que hay", "todo lo que tengo", "lo que hay", "lo que tengo",
        "todito", "toditos", "todo eso", "todo esto", "todos los", "todas las", "lo de"]),
    w(C::Changes,
      &["the changes i have made", "the changes i made", "the changes i've made", "changes i made", "changes i have made", "the work i have done", "the work i did", "updates", "the updates", "my updates", "latest changes", "the latest changes", "recent changes", "fixes", "my fixes", "the fixes", "changes", "change", "work", "stuff", "edits", "files", "modifications", "progress", "modified files",
        "pending changes", "current changes", "local changes", "the changes", "my changes", "things", "work in progress"],
      &["los cambios que hice", "los cambios que he hecho", "lo que he hecho", "el trabajo que hice", "los ultimos cambios", "mis cambios", "los cambios", "el avance", "lo que hice", "lo que llevo", "cambios", "trabajo", "archivos", "modificaciones", "avances", "cambio", "ficheros", "cosas", "laburo",
        "cambios pendientes", "cambios locales", "avance", "progreso"]),
    w(C::NoPush,
      &["but don't push", "but do not push", "without pushing", "don't push it yet", "don't push yet",
        "but don't push it", "no push", "but no push", "don't push", "do not push", "don't push it",
        "and don't push", "but don't push yet", "without a push", "just don't push", "no pushing"],
      &["pero no hagas push", "pero no lo subas", "pero no subas nada", "sin hacer push", "sin pushear", "sin subir",
        "sin subirlo", "pero sin push", "no lo subas", "pero no pushees", "no hagas push", "sin push",
        "pero no subas", "y no hagas push", "pero no lo pushees", "no subas nada", "pero sin subir"]),
    w(C::Keep,
      &["but leave the changes", "leave the changes", "leaving the changes", "but leave my changes", "leave my changes", "but keep the files", "keep the files", "keep my work", "but don't lose the changes", "without losing the changes", "without losing my changes", "but keep everything", "but keep my changes", "keep the changes", "keep my changes", "keeping the changes", "and keep the changes",
        "but keep the changes", "keeping my changes", "keep changes", "and keep my changes", "but keep them",
        "keep the work", "but keep my work"],
      &["pero deja los cambios", "deja los cambios", "dejando los cambios", "y deja los cambios", "pero dejame los cambios", "pero deja mis cambios", "deja mis cambios", "dejando mis cambios", "pero no pierdas los cambios", "sin perder lo que hice", "pero guarda los cambios", "pero manten mis cambios", "manten los cambios", "manteniendo los cambios", "sin perder los cambios",
        "sin perder mis cambios", "conservando los cambios", "conserva los cambios", "pero manten los cambios",
        "manten mis cambios", "y manten mis cambios", "pero conserva los cambios", "conservando mis cambios",
        "manteniendo mis cambios", "pero sin perder los cambios", "sin perder nada"]),
    w(C::Lose,
      &["and throw away their changes", "and discard their changes", "and lose their changes", "and delete their changes", "and drop their changes", "and wipe their changes", "and throw away its changes", "and discard the changes", "and lose the changes", "and delete the changes",
        "and discard its changes", "and throw away the changes", "and throw away my changes", "and drop the changes",
        "and discard my changes", "and lose my changes", "and wipe the changes", "and get rid of the changes",
        "and its changes", "changes included", "with its changes"],
      &["y tira sus cambios", "y descarta sus cambios", "y pierde sus cambios", "y elimina sus cambios", "y borra los cambios", "y descarta sus cambios", "y tira los cambios", "y descarta los cambios",
        "y borra sus cambios", "y pierde los cambios", "y elimina los cambios", "y bota los cambios",
        "con sus cambios", "y sus cambios", "y tira sus cambios"]),
    w(C::Init,
      &["init", "git init", "initialize", "initialise", "set up", "setup", "start"],
      &["inicializa", "inicializar", "inicia", "iniciar", "inicialice", "init", "git init", "arranca"]),
    w(C::Repo,
      &["repo", "repository", "git repo", "git repository", "new repo", "new repository", "a repo", "a repository",
        "a git repo", "a new repo", "a new repository"],
      &["repo", "repositorio", "repo de git", "repositorio de git", "repo nuevo", "repositorio nuevo",
        "nuevo repo", "nuevo repositorio", "un repo", "un repositorio"]),
    w(C::Here,
      &["here", "in here", "in this folder", "in this directory"],
      &["aqui", "aca", "en esta carpeta", "en este directorio"]),
    w(C::And,
      &["and", "&", "then", "and then", "and also", "plus", "+", "after that", "and after that"],
      &["y", "luego", "y luego", "despues", "y despues", "y tambien", "e", "y ya"]),
    w(C::Push,
      &["push", "push it", "push them", "pushes", "pushing", "git push", "force-push", "force push"],
      &["sube", "subi", "subir", "subelo", "subeme", "subilo", "subime", "empuja", "empujar", "empujalo",
        "pushea", "pushear", "pushealo", "pusheame", "push", "subelos", "pushee", "subas"]),
    w(C::Send,
      &["send", "ship", "publish", "upload"],
      &["manda", "mandar", "envia", "enviar", "publica", "publicar", "manda todo"]),
    w(C::Force,
      &["force", "--force", "-f", "forced", "forcefully", "with force", "force-push", "force-delete", "forcibly",
        "force delete", "force push",
        "even if it's not merged", "even if it is not merged", "even if unmerged", "even if not merged",
        "even though it's not merged"],
      &["forzado", "forzada", "a la fuerza", "forzando", "con force", "con fuerza", "fuerza", "force",
        "aunque no este mergeada", "aunque no este fusionada", "el borrado de"]),
    w(C::Remote,
      &["origin", "the remote", "remote", "upstream", "github", "gitlab", "bitbucket", "the server", "the cloud",
        "to origin", "to the remote", "to remote", "to github", "to gitlab", "to upstream", "to the server"],
      &["origen", "el remoto", "remoto", "el servidor", "a origin", "al remoto", "a github", "a gitlab", "origin",
        "github", "gitlab", "repo remoto", "repositorio remoto", "al repo remoto", "al repositorio remoto"]),
    w(C::Up,
      &["up", "up to"],
      &["arriba"]),
    w(C::Status,
      &["status", "git status", "repo status", "the status", "state of the repo", "status of the repo",
        "working tree status", "status of the repository", "repository status"],
      &["como va", "como estan las cosas en el repo", "estado actual", "estado", "estatus", "status", "estado del repo", "estado del repositorio", "el status", "estado de git"]),
    w(C::StatusQ,
      &["what changed", "what's changed", "whats changed", "wat changed", "what has changed", "what have i changed",
        "what did i change", "what did i modify", "what files changed", "what files have changed", "which files changed",
        "which files did i modify", "which files did i change", "which files have changed", "what's pending",
        "whats pending", "anything pending", "any changes", "any uncommitted changes", "are there uncommitted changes",
        "are there any changes", "anything to commit", "anything left to commit", "anything not committed yet",
        "do i have uncommitted changes", "do i have changes", "is the working tree clean", "is my repo clean",
        "is the repo clean", "is my working tree clean", "what's the status", "what is the status",
        "what's the git status", "whats the status", "what's the state of the repo", "what is the state of the repo",
        "what have i changed so far", "what changed so far", "what's changed so far", "anything changed",
        "what's new", "anything new", "what changed in the repo", "what changed in the repository",
        "is everything committed", "what's modified", "what is modified", "what did i touch"],
      &["que changed", "que ha changed", "what cambio", "what ha cambiado", "que cambio", "que ha cambiado", "que han cambiado", "que cambios hay", "que archivos cambiaron",
        "que archivos han cambiado", "que archivos modifique", "que modifique", "que he cambiado", "que cambie",
        "hay cambios", "hay algo pendiente", "algo pendiente", "hay cambios sin commitear", "hay algo sin commitear",
        "hay algo por commitear", "que falta por commitear", "que hay pendiente", "tengo cambios pendientes",
        "como esta el repo", "en que estado esta el repo", "que onda con el repo", "que hay de nuevo",
        "que hay de nuevo en el repo", "algun cambio pendiente", "algun change pendiente", "hay algo nuevo",
        "que cambio en el repo", "que he modificado", "que archivos toque", "que toque", "esta limpio el repo",
        "fijate que cambio", "hay cambios pendientes", "que cambios tengo", "que archivos modificaste",
        "que falta commitear", "hay algo para commitear", "como va el repo"]),
    w(C::Show,
      &["give us", "show us the", "let's see", "lets see", "check", "have a look at", "look at", "lemme see", "let me check", "show", "show me", "display", "view", "see", "print", "give me", "tell me", "let me see", "list",
        "show us", "can i see", "bring up", "pull up", "open"],
      &["que hizo", "checa", "chequea", "checame", "chequeame", "mirame", "echale un ojo a", "echa un vistazo a", "dale una mirada a", "muestra", "muestrame", "mostrame", "mostrar", "ensename", "ensenar", "ensena", "dame", "ver", "dime",
        "deja ver", "quiero ver", "pasame", "pasa", "saca", "lista", "listame", "mira", "enseniame", "mostra",
        "mostrame el", "a ver el", "ensenarme"]),
    w(C::Log,
      &["log", "git log", "history", "commit history", "git history", "commit log", "the log", "logs"],
      &["log", "historial", "historial de commits", "el log", "historia", "historico", "historial de git"]),
    w(C::Recent,
      &["recent", "latest", "last", "newest", "most recent", "the latest", "the last"],
      &["ultimos", "recientes", "los ultimos", "mas recientes", "ultimas"]),
    w(C::Last,
      &["last", "latest", "most recent", "that last", "the last", "my last", "the latest", "newest",
        "that"],
      &["ultimo", "mas reciente", "el ultimo", "mi ultimo", "ese", "este"]),
    w(C::Previous,
      &["previous", "prior", "the previous", "the prior", "the one before", "one before", "the one before that",
        "second to last", "second-to-last", "second last", "before last", "the one before last",
        "penultimate"],
      &["anterior", "previo", "el anterior", "penultimo", "el penultimo", "antepenultimo", "de antes",
        "el de antes", "el commit de antes"]),
    w(C::From,
      &["branch off", "from", "off", "off of", "based on", "starting from", "starting at", "branching from", "branched from",
        "on top of", "branching off"],
      &["desde", "a partir de", "basada en", "basado en", "partiendo de", "sacada de", "que salga de",
        "saliendo de", "encima de"]),
    w(C::FirstCommit,
      &["first commit", "the first commit", "initial commit", "the initial commit", "an initial commit",
        "a first commit", "my first commit", "our first commit"],
      &["primer commit", "el primer commit", "commit inicial", "el commit inicial", "un commit inicial",
        "un primer commit", "mi primer commit", "nuestro primer commit"]),
    w(C::Code,
      &["code", "the code", "my code", "all the code", "all code", "our code", "the latest code", "codebase",
        "the codebase", "source code", "the source"],
      &["codigo", "el codigo", "mi codigo", "todo el codigo", "nuestro codigo"]),
    w(C::Diff,
      &["diff", "the diff", "differences", "diffs", "git diff", "the differences", "what's different",
        "what's the diff", "whats the diff", "what is the diff"],
      &["diff", "diferencias", "las diferencias", "el diff", "diferencia"]),
    w(C::DiffQ,
      &["what i changed in", "what i've changed in", "what ive changed in", "what i did in", "what i did to", "what did i change in", "what changed in", "what's changed in", "what have i changed in", "what did i do to",
        "what did i change to", "what's different in", "my changes to", "changes in", "changes to", "the changes in",
        "the changes to", "what has changed in"],
      &["que cambie en", "que cambio en", "que he cambiado en", "que ha cambiado en", "que cambie del", "que cambio del",
        "que le cambie a", "que le hice a", "los cambios de", "los cambios en", "cambios de", "cambios en",
        "que cambie en el", "que cambio en el"]),
    w(C::Staged,
      &["staged", "cached", "in the index", "in stage", "in staging", "the staged", "staged changes", "the index",
        "in the staging area", "staging"],
      &["en stage", "en el stage", "en staging", "preparado", "preparados", "en el indice", "stageado", "stageados",
        "del stage", "en el area de preparacion"]),
    w(C::StagedQ,
      &["what's in the staging area", "whats in the staging area", "what is in the staging area", "what's in staging area", "what is staged right now", "what's staged right now", "what's in the index right now", "what's been staged", "what has been staged", "what's ready to commit", "what is ready to commit", "what am i about to commit", "what will be committed", "what's staged", "whats staged", "what is staged", "what did i stage", "what have i staged",
        "what's in the index", "what's in stage", "what's in staging"],
      &["que hay en el area de preparacion", "que hay en staging", "que esta preparado", "que tengo preparado", "que voy a commitear", "que se va a commitear", "que esta stageado", "que hay stageado", "que tengo en el stage", "que hay en el stage", "que esta en stage", "lo que esta en stage",
        "que esta en el stage", "lo que esta en el stage", "que tengo en stage", "que hay en stage",
        "que tengo stageado", "lo que tengo en el stage"]),
    w(C::Blame,
      &["blame", "git blame", "annotate", "the blame", "blame for", "blame of", "blame on"],
      &["blame", "el blame", "blame de", "blame del", "un blame de", "culpable"]),
    w(C::BlameQ,
      &["who wrote", "who wrote each line of", "who wrote every line of", "who wrote the lines of", "who wrote each line in",
        "who is to blame for", "who authored"],
      &["quien escribio", "quien escribio cada linea de", "quien hizo cada linea de", "quien escribio cada linea del",
        "quien escribio las lineas de", "quien hizo", "quien escribio el"]),
    w(C::HistoryQ,
      &["who changed", "who modified", "who touched", "who edited", "commits that touched", "commits that changed",
        "what commits changed", "what commits touched", "which commits changed", "which commits touched",
        "file history", "file history of", "history of", "log of", "the history of", "the log of", "commits of",
        "commits on", "commits for", "history for", "log for", "changes history of"],
      &["quien cambio", "quien modifico", "quien toco", "quien edito", "que commits tocaron", "que commits cambiaron",
        "commits de", "commits del", "historial de", "historial del", "log de", "log del", "historia de",
        "historia del", "que commits modificaron", "historial del archivo", "cambios historicos de"]),
    w(C::FileNoun,
      &["file", "the file", "files"],
      &["archivo", "el archivo", "fichero", "el fichero", "archivos"]),
    w(C::FolderNoun,
      &["folder", "directory", "dir", "the folder", "the directory", "subfolder"],
      &["carpeta", "directorio", "la carpeta", "el directorio", "subcarpeta"]),
    w(C::PathPrep,
      &["in", "of", "for", "on", "from", "inside", "under", "to"],
      &["en", "de", "del", "para", "sobre", "dentro de", "a", "al", "con"]),
    w(C::Branch,
      &["branch off", "one new branch", "one branch", "one more branch", "branch", "a branch", "the branch", "local branch", "a new branch", "new branch", "this branch",
        "git branch", "branch name", "my branch", "the local branch", "change the branch name to", "branch off into",
        "branch off as"],
      &["rama", "la rama", "rama local", "una rama", "nueva rama", "rama nueva", "esta rama", "el branch", "branch",
        "un branch", "un nuevo branch", "nuevo branch", "mi rama", "la rama local", "una rama nueva", "una nueva rama"]),
    w(C::Branches,
      &["branches", "the branches", "my branches", "all branches", "all the branches", "git branches", "local branches"],
      &["ramas", "las ramas", "branches", "los branches", "mis ramas", "todas las ramas"]),
    w(C::Create,
      &["one new branch", "branch off", "create one", "make one", "create", "make", "start", "open", "add", "new", "make me", "spin up", "create and switch to",
        "branch off into", "branch off as", "set up", "cut", "new branch", "a new branch"],
      &["crea", "creame", "crear", "cree", "creeme", "nueva", "nuevo", "abre", "abreme", "abri", "abrime",
        "hazme", "haceme", "genera", "arma", "armame", "pon", "ponme", "haz", "ponle", "ponele", "pone", "ponerle",
        "nueva rama", "rama nueva",
        "una rama nueva", "una nueva rama", "nuevo branch", "un nuevo branch"]),
    w(C::New,
      &["new", "fresh", "another"],
      &["nueva", "nuevo", "otra", "otro"]),
    w(C::Called,
      &["called", "named", "call it", "name it", "with the name", "with name", "named as", "titled", "labeled",
        "labelled"],
      &["llamada", "llamado", "que se llame", "con el nombre", "de nombre", "con nombre", "con nombre de",
        "que se llama", "nombrada", "de nombre de"]),
    w(C::Switch,
      &["hop on", "hop over to", "swap to", "swap over to", "flip to", "switch", "switch to", "checkout", "check out", "switch over to", "switch back to", "switch branches to",
        "swap branches to"],
      &["pasese a", "cambiese a", "pasese", "cambiese", "muevase a", "muevete a", "movete a", "pasate a", "pasate pa", "muevete pa", "muevete", "movete", "cambiate pa", "switchea pa", "cambiate", "pasate", "switchea", "checkoutea", "haz checkout", "haz checkout de", "haz checkout a",
        "cambiarse", "checkout", "switch", "hace checkout", "haceme checkout", "cambiate de rama a"]),
    w(C::Go,
      &["go", "go back", "move", "jump", "go back to", "go to", "move to", "jump to", "head to", "get on",
        "take me to", "get me to", "bring me to", "move over to", "change to", "change branch to", "swap to",
        "flip to", "hop to", "hop on", "change"],
      &["ve", "vete", "vamos", "muevete", "regresa", "vuelve", "anda", "andate", "volve", "llevame", "moveme",
        "regresate", "vuelve a", "ve a", "vete a", "pasa a", "pasame a", "cambia", "cambiar", "salta", "brinca",
        "cambia a", "cambia de rama a"]),
    w(C::To,
      &["to", "into", "onto", "over to", "back to"],
      &["a", "al", "hacia", "para", "hasta"]),
    w(C::Current,
      &["current", "this", "active", "the current", "this one", "my current", "the active", "my"],
      &["actual", "esta", "este", "la actual", "activa"]),
    w(C::List,
      &["list", "list all", "list all the", "list out", "enumerate", "show all", "show me all", "all",
        "what's in the stash", "whats in the stash", "what is in the stash", "what's on the stash"],
      &["lista", "listar", "listame", "listado", "lista de", "lista del", "listado de", "enumera", "todas", "todos",
        "que hay en el stash", "que tengo en el stash", "lista del stash"]),
    w(C::Which,
      &["what", "which", "what are the", "which are the", "what are", "what're", "what's", "whats", "what is"],
      &["que", "cuales", "cuales son", "cuales son las", "cuales son los", "cual es", "cual", "en que", "en q"]),
    w(C::Exist,
      &["are there", "do we have", "do i have", "exist", "are", "there are", "have we got", "do we got", "is there",
        "was", "were", "is", "is there any"],
      &["hay", "tengo", "tenemos", "existen", "hay en el repo", "fue", "es", "son", "tenemos en el repo"]),
    w(C::OnBranch,
      &["am i on", "are we on", "am i in", "are we in", "is this", "is checked out", "is active", "is current",
        "am i", "am i currently on", "am i working on", "are we working on", "is checked out right now"],
      &["estoy", "estamos", "estoy parado", "es esta", "estoy ahora", "estoy trabajando", "es la actual",
        "estoy en", "estamos en"]),
    w(C::Rename,
      &["rename", "change the name of", "change the branch name to", "change the name to", "change name to",
        "change its name to"],
      &["renombra", "renombrar", "renombrame", "cambia el nombre de", "cambiale el nombre a", "cambiar el nombre de",
        "cambia el nombre a", "ponle de nombre", "cambia el nombre"]),
    w(C::NameNoun,
      &["name", "the name"],
      &["nombre", "el nombre"]),
    w(C::Delete,
      &["delete", "remove", "drop", "get rid of", "erase", "kill", "nuke", "trash", "delete the", "remove the", "take",
        "force-delete", "force delete"],
      &["borra", "borrar", "elimina", "eliminar", "quita", "quitar", "suprime", "deshazte de", "borrame", "eliminame",
        "quitame", "vuela", "volala", "borrala", "eliminala", "saca", "sacame", "quitalo", "sacalo", "el borrado de",
        "borrado de"]),
    w(C::Merged,
      &["merged", "already merged", "the merged", "that's merged", "that is merged", "which is merged",
        "that is already merged", "that's already merged"],
      &["mergeada", "ya mergeada", "que ya esta mergeada", "fusionada", "que ya esta fusionada", "ya fusionada",
        "que ya se mergeo", "mergeado"]),
    w(C::Merge,
      &["merge", "merge in", "git merge", "pull in", "bring in"],
      &["mergea", "mergear", "merge", "fusiona", "fusionar", "haz merge de", "haz un merge de", "hace merge de",
        "mergeame", "integra", "haz merge", "un merge de"]),
    w(C::IntoCurrent,
      &["into this branch", "into the current branch", "into my branch", "here", "into current", "into this one",
        "into the branch i'm on", "in here", "into mine", "to this branch", "to the current branch",
        "into my current branch", "on this branch"],
      &["aqui", "aca", "en esta", "en la actual", "en la rama actual", "en esta rama", "a esta rama",
        "en la que estoy", "a la actual", "a la rama actual", "en mi rama", "a mi rama"]),
    w(C::Tag,
      &["tag", "a tag", "the tag", "git tag", "label", "a new tag", "new tag", "release tag", "version tag"],
      &["tag", "etiqueta", "taguea", "tagea", "tagealo", "el tag", "un tag", "la etiqueta", "tagueame",
        "etiquetalo", "etiquetame", "etiquetar", "tagear", "taguear"]),
    w(C::Tags,
      &["tags", "the tags", "all tags", "all the tags", "git tags"],
      &["tags", "etiquetas", "los tags", "las etiquetas", "todos los tags"]),
    w(C::As,
      &["as", "with"],
      &["como", "con"]),
    w(C::Remotes,
      &["remotes", "the remotes", "remote repos", "remote repositories", "git remotes", "all remotes",
        "configured remotes", "remote urls"],
      &["remotos", "los remotos", "remotes", "los remotes", "repos remotos", "repositorios remotos"]),
    w(C::Stash,
      &["what's in the stash", "whats in the stash", "what is in the stash", "what's on the stash", "unstash",
        "stash pop", "stash apply", "stash", "stashes", "the stash", "my stash", "git stash", "a stash", "stash list", "the stashes", "my stashes",
        "stashed", "stashed changes", "my stashed changes", "the stashed changes", "stash entries"],
      &["que hay en el stash", "que tengo en el stash", "haz stash pop", "haz pop del", "haz stash apply",
        "stash", "stashes", "el stash", "stashea", "stashear", "stasheame", "stashealo", "los stashes", "un stash",
        "lo del stash", "del stash", "lista del stash", "stashee", "stasheen", "stasheo"]),
    w(C::Aside,
      &["aside", "for later", "for now", "temporarily", "away", "away for later", "on the side", "away for now", "on hold"],
      &["un rato", "un ratito", "por un ratito", "aparta", "apartame", "temporalmente", "para despues", "para luego", "por ahora", "de momento", "por un rato", "a un lado",
        "en espera", "para mas tarde", "un momento", "por mientras"]),
    w(C::Pop,
      &["pop", "unstash", "bring back", "get back", "restore", "get my", "back", "retrieve", "recover", "take out",
        "bring back my", "give me back", "stash pop"],
      &["saca", "recupera", "trae de vuelta", "devuelveme", "trae", "recuperame", "sacame", "pop", "de vuelta",
        "restaura", "rescata", "traeme", "devuelve", "haz pop", "haz pop del", "haz stash pop"]),
    w(C::Apply,
      &["apply", "reapply", "re-apply", "stash apply"],
      &["aplica", "aplicar", "aplicame", "vuelve a aplicar", "reaplica", "haz stash apply"]),
    w(C::Undo,
      &["roll back the", "rollback the", "undo my last", "take back the", "undo", "uncommit", "take back", "roll back", "rollback", "un-commit", "undo that"],
      &["tira para atras", "echa para atras", "echa pa tras", "deshaz", "deshace", "deshacer", "deshaga", "deshazme", "deshagamos", "deshacelo", "deshazlo"]),
    w(C::Discard,
      &["discard", "throw away", "lose", "wipe", "nuke", "trash", "toss", "get rid of", "reset", "revert", "scrap",
        "blow away", "undo all", "clear", "dump", "ditch", "drop"],
      &["descarta", "descartar", "descartame", "bota", "botar", "tira", "tirar", "deshazte de", "pierde", "perder",
        "descarte", "tirame", "botame", "borra", "elimina", "revierte", "resetea", "limpia", "a la basura",
        "al tacho", "a la papelera", "a la mierda"]),
    w(C::Local,
      &["local", "uncommitted", "unstaged", "unsaved", "working", "all my local", "pending"],
      &["locales", "sin commitear", "no guardados", "pendientes", "sin guardar", "no commiteados", "actuales"]),
    w(C::Stage,
      &["stage", "add", "git add", "track", "stage up"],
      &["agrega", "agregar", "agregame", "anade", "anadir", "anademe", "stagea", "stagear", "stageame", "pon", "ponme",
        "mete", "meteme", "prepara", "preparar", "agregale", "suma", "stagealo"]),
    w(C::ToIndex,
      &["to the index", "to staging", "to the staging area", "to stage", "into the index", "to the stage",
        "into staging", "in the index", "in staging", "for the commit", "for commit", "for committing"],
      &["al stage", "al indice", "al area de preparacion", "en el stage", "en stage", "para el commit",
        "al staging", "en el area de preparacion", "en el indice"]),
    w(C::Unstage,
      &["unstage", "un-stage", "unadd"],
      &["unstagea", "unstagear", "desagrega", "des-stagea", "desstagea", "unstageame", "desagregar"]),
    w(C::FromIndex,
      &["from staging", "from the staging area", "from the index", "out of the index", "out of staging",
        "out of the staging area", "from stage", "from the stage"],
      &["del stage", "del indice", "del area de preparacion", "fuera del stage", "del staging", "del area de stage"]),
    w(C::Amend,
      &["amend", "reword", "fix", "change", "edit", "update", "rename", "correct", "rewrite", "modify",
        "set", "replace"],
      &["corrige", "cambia", "modifica", "edita", "renombra", "cambiale", "amend", "haz amend", "haz amend del",
        "corregi", "arregla", "actualiza", "reescribe", "reemplaza", "reemplazale"]),
    w(C::MessageNoun,
      &["message", "the message", "msg", "message of", "the message of", "message of the"],
      &["mensaje", "el mensaje", "mensaje del", "el mensaje del", "el mensaje de", "msj"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_are_written_folded() {
        for words in WORDS {
            for p in words.en.iter().chain(words.es) {
                assert_eq!(*p, crate::text::fold(p), "{p} is not folded");
                assert!(
                    !p.contains("  ") && p.trim() == *p,
                    "{p:?} has stray spaces"
                );
            }
        }
    }
}
