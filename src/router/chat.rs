//! Level 2: short small talk with no task (hello, thanks, vale, 👍).

use serde::Serialize;

use crate::text::fold;

/// Longest input, in characters, that can still be small talk.
pub const MAX_CHAT_CHARS: usize = 30;

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
    /// ok, perfect, vale, 👍.
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

const EN: &[(&str, ChatKind)] = &[
    ("hello", ChatKind::Greeting),
    ("hi", ChatKind::Greeting),
    ("hey", ChatKind::Greeting),
    ("hiya", ChatKind::Greeting),
    ("yo", ChatKind::Greeting),
    ("howdy", ChatKind::Greeting),
    ("morning", ChatKind::Greeting),
    ("afternoon", ChatKind::Greeting),
    ("evening", ChatKind::Greeting),
    ("there", ChatKind::Greeting),
    ("thanks", ChatKind::Thanks),
    ("thank", ChatKind::Thanks),
    ("thx", ChatKind::Thanks),
    ("ty", ChatKind::Thanks),
    ("tysm", ChatKind::Thanks),
    ("cheers", ChatKind::Thanks),
    ("bye", ChatKind::Farewell),
    ("goodbye", ChatKind::Farewell),
    ("cya", ChatKind::Farewell),
    ("later", ChatKind::Farewell),
    ("night", ChatKind::Farewell),
    ("how", ChatKind::HowAreYou),
    ("are", ChatKind::HowAreYou),
    ("what's", ChatKind::HowAreYou),
    ("up", ChatKind::HowAreYou),
    ("sup", ChatKind::HowAreYou),
    ("doing", ChatKind::HowAreYou),
    ("ok", ChatKind::Ack),
    ("okay", ChatKind::Ack),
    ("k", ChatKind::Ack),
    ("kk", ChatKind::Ack),
    ("cool", ChatKind::Ack),
    ("nice", ChatKind::Ack),
    ("great", ChatKind::Ack),
    ("perfect", ChatKind::Ack),
    ("awesome", ChatKind::Ack),
    ("excellent", ChatKind::Ack),
    ("good", ChatKind::Ack),
    ("sure", ChatKind::Ack),
    ("yes", ChatKind::Ack),
    ("yep", ChatKind::Ack),
    ("yeah", ChatKind::Ack),
    ("no", ChatKind::Ack),
    ("nope", ChatKind::Ack),
    ("got", ChatKind::Ack),
    ("it", ChatKind::Ack),
    ("you", ChatKind::Ack),
    ("welcome", ChatKind::Ack),
    ("much", ChatKind::Ack),
    ("so", ChatKind::Ack),
    ("very", ChatKind::Ack),
    ("lol", ChatKind::Ack),
    ("fine", ChatKind::Ack),
    ("alright", ChatKind::Ack),
    ("all", ChatKind::Ack),
    ("right", ChatKind::Ack),
    ("noted", ChatKind::Ack),
    ("understood", ChatKind::Ack),
    ("see", ChatKind::Farewell),
    ("ya", ChatKind::Farewell),
    ("day", ChatKind::Greeting),
];

const ES: &[(&str, ChatKind)] = &[
    ("hola", ChatKind::Greeting),
    ("buenos", ChatKind::Greeting),
    ("buenas", ChatKind::Greeting),
    ("dias", ChatKind::Greeting),
    ("tardes", ChatKind::Greeting),
    ("buen", ChatKind::Greeting),
    ("dia", ChatKind::Greeting),
    ("saludos", ChatKind::Greeting),
    ("gracias", ChatKind::Thanks),
    ("muchas", ChatKind::Thanks),
    ("muchisimas", ChatKind::Thanks),
    ("mil", ChatKind::Thanks),
    ("adios", ChatKind::Farewell),
    ("chao", ChatKind::Farewell),
    ("chau", ChatKind::Farewell),
    ("hasta", ChatKind::Farewell),
    ("luego", ChatKind::Farewell),
    ("pronto", ChatKind::Farewell),
    ("manana", ChatKind::Farewell),
    ("noches", ChatKind::Farewell),
    ("como", ChatKind::HowAreYou),
    ("estas", ChatKind::HowAreYou),
    ("esta", ChatKind::HowAreYou),
    ("que", ChatKind::HowAreYou),
    ("tal", ChatKind::HowAreYou),
    ("va", ChatKind::HowAreYou),
    ("perfecto", ChatKind::Ack),
    ("vale", ChatKind::Ack),
    ("genial", ChatKind::Ack),
    ("excelente", ChatKind::Ack),
    ("bien", ChatKind::Ack),
    ("muy", ChatKind::Ack),
    ("listo", ChatKind::Ack),
    ("de", ChatKind::Ack),
    ("nada", ChatKind::Ack),
    ("dale", ChatKind::Ack),
    ("claro", ChatKind::Ack),
    ("si", ChatKind::Ack),
    ("entendido", ChatKind::Ack),
    ("okey", ChatKind::Ack),
    ("oki", ChatKind::Ack),
    ("super", ChatKind::Ack),
    ("guay", ChatKind::Ack),
    ("chido", ChatKind::Ack),
];

/// Recognises short small talk: every word is a greeting, thanks, farewell
/// or acknowledgement, and the whole input is under [`MAX_CHAT_CHARS`].
pub fn small_talk(text: &str) -> Option<SmallTalk> {
    if text.chars().count() >= MAX_CHAT_CHARS {
        return None;
    }
    let folded = fold(text);
    let words: Vec<&str> = folded
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        // Emoji or punctuation alone: an acknowledgement, if it is not ASCII noise.
        return text
            .chars()
            .any(|c| !c.is_ascii() && !c.is_alphanumeric())
            .then_some(SmallTalk {
                kind: ChatKind::Ack,
                lang: Lang::En,
            });
    }
    let mut kind: Option<ChatKind> = None;
    let mut spanish = 0;
    let mut english = 0;
    for w in &words {
        let (k, is_es) = if let Some((_, k)) = EN.iter().find(|(e, _)| e == w) {
            (*k, false)
        } else if let Some((_, k)) = ES.iter().find(|(e, _)| e == w) {
            (*k, true)
        } else {
            return None;
        };
        if is_es {
            spanish += 1;
        } else {
            english += 1;
        }
        // The most specific kind wins: a question about wellbeing, then a
        // farewell, thanks, greeting, and plain acknowledgement last.
        kind = Some(match (kind, k) {
            (None, k) => k,
            (Some(a), b) => rank_max(a, b),
        });
    }
    Some(SmallTalk {
        kind: kind.unwrap_or(ChatKind::Ack),
        lang: if spanish > english {
            Lang::Es
        } else {
            Lang::En
        },
    })
}

fn rank(k: ChatKind) -> u8 {
    match k {
        ChatKind::HowAreYou => 4,
        ChatKind::Farewell => 3,
        ChatKind::Thanks => 2,
        ChatKind::Greeting => 1,
        ChatKind::Ack => 0,
    }
}

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
        (ChatKind::Greeting, Lang::En) => "Hello! What would you like to do in this repository?",
        (ChatKind::Greeting, Lang::Es) => "¡Hola! ¿Qué quieres hacer en este repositorio?",
        (ChatKind::Thanks, Lang::En) => "You're welcome.",
        (ChatKind::Thanks, Lang::Es) => "¡De nada!",
        (ChatKind::Farewell, Lang::En) => "Bye! Your work is safe.",
        (ChatKind::Farewell, Lang::Es) => "¡Hasta luego! Tu trabajo está a salvo.",
        (ChatKind::HowAreYou, Lang::En) => "All good, and ready when you are.",
        (ChatKind::HowAreYou, Lang::Es) => "Todo bien, listo cuando quieras.",
        (ChatKind::Ack, Lang::En) => "Great.",
        (ChatKind::Ack, Lang::Es) => "¡Genial!",
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
        ] {
            assert!(small_talk(s).is_some(), "{s}");
        }
        for s in [
            "thanks, now add tests",
            "hello world program in rust",
            "hello! hope you're having a great day, just wanted to say thanks",
            "...",
        ] {
            assert!(small_talk(s).is_none(), "{s}");
        }
        let t = small_talk("gracias").unwrap();
        assert_eq!((t.kind, t.lang), (ChatKind::Thanks, Lang::Es));
        assert_eq!(
            small_talk("¿cómo estás?").unwrap().kind,
            ChatKind::HowAreYou
        );
    }
}
