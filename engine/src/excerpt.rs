//! Bounded quotations of input in error messages: a message names what it found, but a 100 KB
//! line must not become a 100 KB message.

use std::borrow::Cow;

/// Most characters of the input an error message quotes.
pub const MAX_EXCERPT_CHARS: usize = 80;

/// `text` as an error message quotes it: whole when short, else its first
/// [`MAX_EXCERPT_CHARS`] characters followed by how much was left out.
///
/// ```
/// use engine::excerpt::excerpt;
/// assert_eq!(excerpt("bm Nf3;"), "bm Nf3;");
/// let long = "x".repeat(100_000);
/// let quoted = excerpt(&long);
/// assert!(quoted.len() < 120 && quoted.ends_with("… (99920 more characters)"));
/// ```
pub fn excerpt(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(MAX_EXCERPT_CHARS) {
        None => Cow::Borrowed(text),
        Some((end, _)) => {
            let left_out = text[end..].chars().count();
            Cow::Owned(format!("{}… ({left_out} more characters)", &text[..end]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_on_a_character_boundary() {
        let text = "é".repeat(MAX_EXCERPT_CHARS + 3);
        let quoted = excerpt(&text);
        assert!(quoted.starts_with(&"é".repeat(MAX_EXCERPT_CHARS)));
        assert!(quoted.ends_with("… (3 more characters)"));
        assert_eq!(
            excerpt(&"a".repeat(MAX_EXCERPT_CHARS)).len(),
            MAX_EXCERPT_CHARS
        );
    }
}
