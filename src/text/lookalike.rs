//! Characters that render like others: letters of other scripts that look
//! Latin, fullwidth forms, dashes that look like `-`, and characters that
//! render as nothing. One table for every user: the router (a request that
//! hides what it says goes to the model), the guard (a placeholder written
//! with a Cyrillic `е` is still a placeholder) and the policy (an option
//! pasted with an en dash is refused). Each table is the union of what
//! those users once kept apart, so every use fails safe.

/// Letters from other scripts that render like Latin ones, mapped to them.
pub const CONFUSABLES: &[(char, char)] = &[
    // Cyrillic, small.
    ('а', 'a'),
    ('е', 'e'),
    ('о', 'o'),
    ('р', 'p'),
    ('с', 'c'),
    ('у', 'y'),
    ('х', 'x'),
    ('і', 'i'),
    ('ј', 'j'),
    ('ѕ', 's'),
    ('ԁ', 'd'),
    ('ӏ', 'l'),
    ('ԛ', 'q'),
    ('ԝ', 'w'),
    // Cyrillic, capital.
    ('А', 'A'),
    ('В', 'B'),
    ('Е', 'E'),
    ('К', 'K'),
    ('М', 'M'),
    ('Н', 'H'),
    ('О', 'O'),
    ('Р', 'P'),
    ('С', 'C'),
    ('Т', 'T'),
    ('Х', 'X'),
    // Greek.
    ('ο', 'o'),
    ('α', 'a'),
    ('ε', 'e'),
    ('ι', 'i'),
    ('κ', 'k'),
    ('ν', 'v'),
    ('ρ', 'p'),
    ('τ', 't'),
    ('υ', 'u'),
    ('χ', 'x'),
    ('Ο', 'O'),
    ('Α', 'A'),
    ('Ε', 'E'),
    ('Τ', 'T'),
    // Latin letters that pass for others, and a Roman numeral.
    ('ɡ', 'g'),
    ('ı', 'i'),
    ('ⅼ', 'l'),
];

/// Characters that render like `-` and are not one: hyphens, dashes, minus
/// signs and their fullwidth and small forms.
pub const DASHES: &[char] = &[
    '\u{00AD}', '\u{02D7}', '\u{058A}', '\u{1400}', '\u{1806}', '\u{2010}', '\u{2011}', '\u{2012}',
    '\u{2013}', '\u{2014}', '\u{2015}', '\u{2043}', '\u{2212}', '\u{2796}', '\u{2E3A}', '\u{2E3B}',
    '\u{FE58}', '\u{FE63}', '\u{FF0D}',
];

/// Whether `c` is a fullwidth form of a printable ASCII character.
pub fn is_fullwidth(c: char) -> bool {
    ('\u{FF01}'..='\u{FF5E}').contains(&c)
}

/// Returns the Latin letter a look-alike (or the ASCII character a
/// fullwidth form) stands for, or `c` itself.
pub fn latin(c: char) -> char {
    if is_fullwidth(c) {
        return char::from_u32(c as u32 - 0xFEE0).unwrap_or(c);
    }
    CONFUSABLES
        .iter()
        .find(|(from, _)| *from == c)
        .map_or(c, |(_, to)| *to)
}

/// Whether `c` is a letter of another script that renders like a Latin one.
pub fn is_confusable(c: char) -> bool {
    CONFUSABLES.iter().any(|(from, _)| *from == c)
}

/// Whether `c` renders like `-` without being one.
pub fn is_dash(c: char) -> bool {
    DASHES.contains(&c)
}

/// Whether `c` takes no room on screen: joiners, direction marks and
/// overrides, the soft hyphen, variation selectors, tags, fillers.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair, listed once: a change to the table is a change here.
    #[test]
    fn lists_every_pair() {
        let listed: String = CONFUSABLES
            .iter()
            .map(|(f, t)| format!("{f}{t} "))
            .collect();
        assert_eq!(
            listed.trim_end(),
            "аa еe оo рp сc уy хx іi јj ѕs ԁd ӏl ԛq ԝw АA ВB ЕE КK МM НH ОO РP СC ТT ХX \
             οo αa εe ιi κk νv ρp τt υu χx ΟO ΑA ΕE ΤT ɡg ıi ⅼl"
        );
        let mut seen = std::collections::HashSet::new();
        assert!(
            CONFUSABLES.iter().all(|(f, _)| seen.insert(*f)),
            "a letter listed twice"
        );
    }

    #[test]
    fn maps_to_latin() {
        assert_eq!("rеst".chars().map(latin).collect::<String>(), "rest");
        assert_eq!("ｇｉｔ".chars().map(latin).collect::<String>(), "git");
        assert_eq!(latin('ρ'), 'p');
        assert!(is_dash('—') && is_dash('\u{2E3A}') && !is_dash('-'));
        assert!(is_invisible('\u{200B}') && is_invisible('\u{E0041}') && !is_invisible(' '));
    }
}
