//! HTML sanitizing of rich-text fields (salutation, footer, description, reminder text)
//! before they are stored, with ammonia: basic formatting survives (paragraphs, line
//! breaks, bold, italic, underline, lists, links), scripts, styles and event handlers go.

use std::collections::HashSet;
use std::sync::OnceLock;

fn cleaner() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let tags: HashSet<&str> = [
            "p", "br", "b", "strong", "i", "em", "u", "ul", "ol", "li", "a", "div", "span",
        ]
        .into_iter()
        .collect();
        let mut b = ammonia::Builder::default();
        b.tags(tags)
            .url_schemes(["http", "https", "mailto"].into_iter().collect())
            .link_rel(Some("noopener noreferrer"));
        b
    })
}

/// Sanitizes an HTML fragment (see the module doc for what is kept).
pub fn html(input: &str) -> String {
    cleaner().clean(input).to_string()
}

/// Sanitizes an optional HTML fragment.
pub fn html_opt(input: Option<&str>) -> Option<String> {
    input.map(html)
}

#[cfg(test)]
mod tests {
    use super::html;

    #[test]
    fn keeps_formatting_drops_scripts() {
        assert_eq!(
            html("<p>Hi <b>there</b><br></p>"),
            "<p>Hi <b>there</b><br></p>"
        );
        assert_eq!(
            html("<script>alert(1)</script><i onclick=\"x()\">a</i>"),
            "<i>a</i>"
        );
        assert_eq!(html("<img src=x onerror=alert(1)>text"), "text");
    }
}
