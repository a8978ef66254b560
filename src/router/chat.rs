//! Level 2: short small talk with no task — greetings, thanks, praise,
//! laughter, slang and emoji, in English and Spanish ("grax bro",
//! "excelente trabajo", "jajaja", "órale", "👍").
//!
//! Every word of the input must be small talk (the phrases below, a
//! vocative such as "bro" or "parce", laughter, emoji); one word more and
//! it is a request. Pure; never does I/O.

use crate::router::hash::FastMap as HashMap;
use std::sync::OnceLock;

use serde::Serialize;

use super::intents::normalize::{is_laughter, Read};

/// Longest input, in words, that can still be small talk.
pub const MAX_CHAT_WORDS: usize = 6;

/// What kind of small talk an input is, which picks the built-in reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatKind {
    /// hello, hola, good morning.
    Greeting,
    /// thanks, gracias.
    Thanks,
    /// bye, adiós.
    Farewell,
    /// how are you, ¿cómo estás?
    HowAreYou,
    /// ok, perfect, vale, great job, jaja, 👍.
    Ack,
}

/// The language of a small-talk input, for the built-in reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    /// English.
    En,
    /// Spanish.
    Es,
}

/// A recognised piece of small talk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmallTalk {
    /// The kind of small talk.
    pub kind: ChatKind,
    /// Its language.
    pub lang: Lang,
}

use ChatKind::{Ack, Farewell, Greeting, HowAreYou, Thanks};

/// English small talk: folded phrases and their kind.
#[rustfmt::skip]
const EN: &[(&str, ChatKind)] = &[
    ("hello", Greeting), ("hi", Greeting), ("hey", Greeting), ("hiya", Greeting), ("yo", Greeting),
    ("howdy", Greeting), ("morning", Greeting), ("good morning", Greeting), ("good afternoon", Greeting),
    ("good evening", Greeting), ("good day", Greeting), ("hi there", Greeting), ("hey there", Greeting),
    ("hello there", Greeting), ("greetings", Greeting), ("evening", Greeting), ("afternoon", Greeting),
    ("thanks", Thanks), ("thank you", Thanks), ("thank u", Thanks), ("cheers", Thanks), ("thanks a lot", Thanks),
    ("many thanks", Thanks), ("thank you so much", Thanks), ("thanks so much", Thanks), ("much appreciated", Thanks),
    ("appreciate it", Thanks), ("thank you very much", Thanks), ("thanks again", Thanks), ("thanks a bunch", Thanks),
    ("bye", Farewell), ("goodbye", Farewell), ("cya", Farewell), ("see ya", Farewell), ("see you", Farewell),
    ("later", Farewell), ("good night", Farewell), ("night", Farewell), ("take care", Farewell),
    ("see you later", Farewell), ("bye bye", Farewell),
    ("how are you", HowAreYou), ("how's it going", HowAreYou), ("how are you doing", HowAreYou),
    ("what's up", HowAreYou), ("whats up", HowAreYou), ("sup", HowAreYou), ("how are things", HowAreYou),
    ("how you doing", HowAreYou), ("how's everything", HowAreYou),
    ("ok", Ack), ("okay", Ack), ("k", Ack), ("cool", Ack), ("nice", Ack), ("great", Ack), ("perfect", Ack),
    ("awesome", Ack), ("amazing", Ack), ("excellent", Ack), ("good", Ack), ("sure", Ack), ("yes", Ack), ("yep", Ack),
    ("yeah", Ack), ("yup", Ack), ("no", Ack), ("nope", Ack), ("got it", Ack), ("understood", Ack), ("noted", Ack),
    ("all good", Ack), ("no worries", Ack), ("np", Ack), ("no problem", Ack), ("fine", Ack), ("alright", Ack),
    ("all right", Ack), ("sweet", Ack), ("brilliant", Ack), ("love it", Ack), ("good stuff", Ack),
    ("great job", Ack), ("good job", Ack), ("nice work", Ack), ("nice job", Ack), ("well done", Ack),
    ("great work", Ack), ("awesome work", Ack), ("nice one", Ack), ("you rock", Ack), ("you're the best", Ack),
    ("that's great", Ack), ("wow", Ack), ("oh nice", Ack), ("oh", Ack), ("neat", Ack), ("gg", Ack), ("top", Ack),
    ("you're welcome", Ack), ("welcome", Ack), ("that worked", Ack), ("it worked", Ack), ("perfect thanks", Thanks),
    ("that's perfect", Ack), ("very good", Ack), ("so good", Ack), ("legend", Ack), ("lovely", Ack),
    ("ok cool", Ack), ("yay", Ack), ("thumbs up", Ack),
];

/// Spanish small talk, every region.
#[rustfmt::skip]
const ES: &[(&str, ChatKind)] = &[
    ("hola", Greeting), ("buenas", Greeting), ("buenos dias", Greeting), ("buenas tardes", Greeting),
    ("buen dia", Greeting), ("saludos", Greeting), ("wena", Greeting), ("quiubo", Greeting), ("epa", Greeting),
    ("hola hola", Greeting), ("holi", Greeting), ("holis", Greeting),
    ("gracias", Thanks), ("muchas gracias", Thanks), ("mil gracias", Thanks), ("muchisimas gracias", Thanks),
    ("gracias por todo", Thanks), ("te pasaste", Thanks), ("se agradece", Thanks), ("te lo agradezco", Thanks),
    ("gracias de nuevo", Thanks), ("gracias por la ayuda", Thanks), ("gracias totales", Thanks),
    ("adios", Farewell), ("chao", Farewell), ("chau", Farewell), ("hasta luego", Farewell),
    ("hasta pronto", Farewell), ("hasta manana", Farewell), ("nos vemos", Farewell), ("buenas noches", Farewell),
    ("cuidate", Farewell), ("nos vidrios", Farewell),
    ("como estas", HowAreYou), ("como vas", HowAreYou), ("que tal", HowAreYou), ("que tal todo", HowAreYou),
    ("como va", HowAreYou), ("que onda", HowAreYou), ("que mas", HowAreYou), ("que hubo", HowAreYou),
    ("como andas", HowAreYou), ("como te va", HowAreYou), ("como esta", HowAreYou), ("como estamos", HowAreYou),
    ("ok", Ack), ("vale", Ack), ("dale", Ack), ("listo", Ack), ("ya", Ack), ("va", Ack), ("sale", Ack),
    ("orale", Ack), ("andale", Ack), ("perfecto", Ack), ("genial", Ack), ("excelente", Ack),
    ("excelente trabajo", Ack), ("buen trabajo", Ack), ("bien hecho", Ack), ("muy bien", Ack), ("bien", Ack),
    ("super", Ack), ("increible", Ack), ("que bien", Ack), ("de nada", Ack), ("claro", Ack), ("si", Ack),
    ("sip", Ack), ("simon", Ack), ("entendido", Ack), ("de acuerdo", Ack), ("okey", Ack), ("oki", Ack),
    ("okis", Ack), ("me encanta", Ack), ("todo bien", Ack), ("eres un crack", Ack), ("eres un genio", Ack),
    ("que crack", Ack), ("crack", Ack), ("genio", Ack), ("idolo", Ack), ("maquina", Ack), ("chido", Ack),
    ("que chido", Ack), ("que padre", Ack), ("chingon", Ack), ("a huevo", Ack), ("bacan", Ack), ("bacano", Ack),
    ("chevere", Ack), ("que chevere", Ack), ("brutal", Ack), ("de lujo", Ack), ("joya", Ack), ("barbaro", Ack),
    ("buenisimo", Ack), ("de diez", Ack), ("groso", Ack), ("sos un genio", Ack), ("sos un crack", Ack),
    ("mola", Ack), ("guay", Ack), ("de puta madre", Ack), ("la raja", Ack), ("filete", Ack), ("fino", Ack),
    ("que nota", Ack), ("de una", Ack), ("no manches", Ack), ("ya po", Ack), ("no", Ack), ("nel", Ack),
    ("perfecto gracias", Thanks), ("todo ok", Ack), ("buena", Ack), ("buenisima", Ack), ("excelente gracias", Thanks),
    ("muy bueno", Ack), ("que buena", Ack), ("tremendo", Ack), ("espectacular", Ack), ("uff", Ack),
    ("ok gracias", Thanks), ("vale gracias", Thanks), ("dale gracias", Thanks), ("genial gracias", Thanks),
    ("venga", Ack), ("venga gracias", Thanks), ("ahi va", Ack), ("listo gracias", Thanks),
];

/// Words of address that may follow any small talk: "gracias parce".
const VOCATIVES: &[&str] = &[
    "bro",
    "man",
    "dude",
    "buddy",
    "mate",
    "pal",
    "fam",
    "amigo",
    "amiga",
    "hermano",
    "che",
    "tio",
    "tia",
    "wey",
    "guey",
    "we",
    "parce",
    "parcero",
    "pana",
    "po",
    "pe",
    "compa",
    "loco",
    "mano",
    "hermanito",
    "causa",
    "chamo",
    "mijo",
    "crack",
    "again",
    "guys",
];

/// Emoticons written with punctuation.
const EMOTICONS: &[&str] = &[
    ":)", ":-)", ":d", ":-d", ";)", ";-)", ":p", ":-p", "<3", "^^", "^_^", "c:", ":3", "xd", ":]",
    "=)", ":o", "(:", "😀",
];

/// The small-talk phrases of both languages that start with `word`
/// (whether each is Spanish), indexed on first use.
fn phrases(word: &str) -> &'static [(&'static str, ChatKind, bool)] {
    type Index = HashMap<&'static str, Vec<(&'static str, ChatKind, bool)>>;
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX
        .get_or_init(|| {
            let mut map: Index = HashMap::default();
            for (table, spanish) in [(EN, false), (ES, true)] {
                for (p, k) in table {
                    let first = p.split(' ').next().unwrap_or(p);
                    map.entry(first).or_default().push((p, *k, spanish));
                }
            }
            map
        })
        .get(word)
        .map_or(&[], Vec::as_slice)
}

/// Whether `word` is an emoticon such as `:)` or `<3`.
pub fn is_emoticon(word: &str) -> bool {
    // The longest emoticon is four bytes (":-)", "😀"; an accent folds
    // two bytes into one): longer words are not folded to find out.
    word.len() <= EMOTICON_BYTES && EMOTICONS.contains(&crate::text::fold(word).as_str())
}

/// Bytes of the longest word that may fold to an emoticon, with a margin.
const EMOTICON_BYTES: usize = 6;

/// Whether a lone word is small talk (so that "nice!" is praise, not the
/// `nice` program).
pub fn is_small_talk_word(word: &str) -> bool {
    let w = crate::text::fold(word.trim_end_matches(['!', '.', '?']));
    phrases(&w).iter().any(|(p, _, _)| *p == w) || is_laughter(&w)
}

/// Recognises short small talk: every word is a greeting, thanks,
/// farewell, praise or acknowledgement, laughter, a word of address or
/// emoji, and there are at most [`MAX_CHAT_WORDS`] of them.
pub fn small_talk(text: &str) -> Option<SmallTalk> {
    small_talk_read(&Read::new(text))
}

/// [`small_talk`] on a request level 1.5 may have tokenised already.
pub fn small_talk_read(read: &Read<'_>) -> Option<SmallTalk> {
    let text = read.text();
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() || words.len() > MAX_CHAT_WORDS + 2 {
        return None;
    }
    let picture =
        |w: &str| (!w.chars().any(char::is_alphanumeric) && !w.is_ascii()) || is_emoticon(w);
    let laughs = |w: &str| {
        let bare: String = w.chars().filter(|c| c.is_alphanumeric()).collect();
        !bare.is_empty() && is_laughter(&bare)
    };
    let spoken: Vec<&str> = words.iter().copied().filter(|w| !picture(w)).collect();
    if spoken.is_empty() {
        // Emoji or emoticons alone: an acknowledgement.
        return Some(SmallTalk {
            kind: Ack,
            lang: Lang::En,
        });
    }
    // The same words as the intents read them: folded, stretched letters
    // squeezed, chat abbreviations written out, emoji and laughter gone.
    let toks = read.toks();
    let norms: Vec<&str> = toks.iter().map(|t| t.norm.as_str()).collect();
    if norms.len() > MAX_CHAT_WORDS || toks.iter().any(|t| t.quoted) {
        return None;
    }
    if norms.is_empty() {
        let laughing = spoken.iter().any(|w| laughs(w));
        return laughing.then_some(SmallTalk {
            kind: Ack,
            lang: Lang::Es,
        });
    }
    let mut kind: Option<ChatKind> = None;
    let (mut es, mut en) = (
        usize::from(spoken.iter().any(|w| w.starts_with(['j', 'J']))),
        0,
    );
    let mut i = 0;
    while i < norms.len() {
        // The longest phrase of either language.
        let mut best: Option<(usize, ChatKind, bool)> = None;
        for (phrase, k, spanish) in phrases(norms[i]) {
            let n = phrase.split(' ').count();
            let fits =
                i + n <= norms.len() && phrase.split(' ').eq(norms[i..i + n].iter().copied());
            if fits && best.is_none_or(|(b, _, _)| n > b) {
                best = Some((n, *k, *spanish));
            }
        }
        if let Some((n, k, spanish)) = best {
            if spanish {
                es += 1;
            } else {
                en += 1;
            }
            kind = Some(kind.map_or(k, |a| rank_max(a, k)));
            i += n;
            continue;
        }
        if VOCATIVES.contains(&norms[i]) && i > 0 {
            i += 1;
            continue;
        }
        return None;
    }
    Some(SmallTalk {
        kind: kind.unwrap_or(Ack),
        lang: if es > en { Lang::Es } else { Lang::En },
    })
}

fn rank(k: ChatKind) -> u8 {
    match k {
        HowAreYou => 4,
        Farewell => 3,
        Thanks => 2,
        Greeting => 1,
        Ack => 0,
    }
}

/// The more specific kind: a question about wellbeing, then a farewell,
/// thanks, greeting, and plain acknowledgement last.
fn rank_max(a: ChatKind, b: ChatKind) -> ChatKind {
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// Returns the built-in reply for a piece of small talk.
pub fn builtin_reply(talk: SmallTalk) -> &'static str {
    match (talk.kind, talk.lang) {
        (Greeting, Lang::En) => "Hello! What would you like to do in this repository?",
        (Greeting, Lang::Es) => "¡Hola! ¿Qué quieres hacer en este repositorio?",
        (Thanks, Lang::En) => "You're welcome.",
        (Thanks, Lang::Es) => "¡De nada!",
        (Farewell, Lang::En) => "Bye! Your work is safe.",
        (Farewell, Lang::Es) => "¡Hasta luego! Tu trabajo está a salvo.",
        (HowAreYou, Lang::En) => "All good, and ready when you are.",
        (HowAreYou, Lang::Es) => "Todo bien, listo cuando quieras.",
        (Ack, Lang::En) => "Great.",
        (Ack, Lang::Es) => "¡Genial!",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_small_talk() {
        for s in [
            "hello",
            "thank you!",
            "buenos días",
            "👍",
            "¿cómo estás?",
            "adiós",
            "vale",
            "jeje",
            "grax bro",
            "excelente trabajo",
            "órale",
            "jajajaja 😂",
            ":)",
            "gracias parce",
            "nice!",
            "THANKS MAN",
            "graciaaas",
        ] {
            assert!(small_talk(s).is_some(), "{s}");
        }
        for s in [
            "thanks, now add tests",
            "hello world program in rust",
            "hello! hope you're having a great day, just wanted to say thanks",
            "...",
            "ok commit",
            "bro",
            "gracias, haz el commit",
        ] {
            assert!(small_talk(s).is_none(), "{s}");
        }
        let t = small_talk("gracias").expect("small talk");
        assert_eq!((t.kind, t.lang), (Thanks, Lang::Es));
        assert_eq!(small_talk("¿cómo estás?").map(|t| t.kind), Some(HowAreYou));
        assert_eq!(small_talk("jaja").map(|t| t.lang), Some(Lang::Es));
    }
}
