//! Sanitized HTML (salutation, footer, descriptions) → the few structures the template
//! renders: paragraphs of runs (bold / italic / line break) and lists. Other markup is
//! dropped, its text kept.

use scraper::{ElementRef, Html, Node};
use serde::Serialize;

/// A run of text with its emphasis, or a line break.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Run {
    /// The text (plain, never markup).
    pub text: String,
    /// Bold (`<b>`, `<strong>`).
    pub bold: bool,
    /// Italic (`<i>`, `<em>`).
    pub italic: bool,
    /// A line break (`<br>`); `text` is empty.
    #[serde(rename = "break")]
    pub line_break: bool,
}

/// A block: a paragraph of runs, or a list of items (each a list of runs).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Block {
    /// A paragraph.
    P {
        /// Its runs.
        runs: Vec<Run>,
    },
    /// A bulleted (`<ul>`) or numbered (`<ol>`) list.
    List {
        /// Numbered.
        ordered: bool,
        /// The items' runs.
        items: Vec<Vec<Run>>,
    },
}

#[derive(Clone, Copy, Default)]
struct Style {
    bold: bool,
    italic: bool,
}

fn collect_runs(element: ElementRef<'_>, style: Style, out: &mut Vec<Run>) {
    for child in element.children() {
        match child.value() {
            Node::Text(t) => push_text(out, t, style),
            Node::Element(e) => {
                let Some(child_ref) = ElementRef::wrap(child) else {
                    continue;
                };
                match e.name() {
                    "br" => out.push(Run {
                        line_break: true,
                        ..Default::default()
                    }),
                    "b" | "strong" => collect_runs(
                        child_ref,
                        Style {
                            bold: true,
                            ..style
                        },
                        out,
                    ),
                    "i" | "em" => collect_runs(
                        child_ref,
                        Style {
                            italic: true,
                            ..style
                        },
                        out,
                    ),
                    "ul" | "ol" | "p" | "div" | "li" => {
                        if !out.is_empty() && !out.last().is_some_and(|r| r.line_break) {
                            out.push(Run {
                                line_break: true,
                                ..Default::default()
                            });
                        }
                        collect_runs(child_ref, style, out)
                    }
                    _ => collect_runs(child_ref, style, out),
                }
            }
            _ => {}
        }
    }
}

fn push_text(out: &mut Vec<Run>, text: &str, style: Style) {
    let collapsed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let leading = text.starts_with(char::is_whitespace) && !out.is_empty();
    let trailing = text.ends_with(char::is_whitespace);
    if collapsed.is_empty() {
        let after_text = out
            .last()
            .is_some_and(|r| !r.line_break && !r.text.ends_with(' '));
        if (leading || trailing) && after_text {
            out.push(Run {
                text: " ".into(),
                bold: style.bold,
                italic: style.italic,
                line_break: false,
            });
        }
        return;
    }
    let mut t = String::new();
    if leading {
        t.push(' ');
    }
    t.push_str(&collapsed);
    if trailing {
        t.push(' ');
    }
    out.push(Run {
        text: t,
        bold: style.bold,
        italic: style.italic,
        line_break: false,
    });
}

fn trim(mut runs: Vec<Run>) -> Vec<Run> {
    while runs.last().is_some_and(|r| r.line_break) {
        runs.pop();
    }
    runs
}

/// Converts an HTML fragment into blocks. Top-level inline content and `<p>` / `<div>`
/// become paragraphs, `<ul>` / `<ol>` lists; empty paragraphs are dropped.
pub fn blocks(html: &str) -> Vec<Block> {
    let fragment = Html::parse_fragment(html);
    let mut out = Vec::new();
    let mut inline: Vec<Run> = Vec::new();
    let flush = |inline: &mut Vec<Run>, out: &mut Vec<Block>| {
        let runs = trim(std::mem::take(inline));
        if runs.iter().any(|r| !r.text.trim().is_empty()) {
            out.push(Block::P { runs });
        }
    };
    for child in fragment.root_element().children() {
        match child.value() {
            Node::Text(t) => push_text(&mut inline, t, Style::default()),
            Node::Element(e) => {
                let Some(el) = ElementRef::wrap(child) else {
                    continue;
                };
                match e.name() {
                    "p" | "div" => {
                        flush(&mut inline, &mut out);
                        collect_runs(el, Style::default(), &mut inline);
                        flush(&mut inline, &mut out);
                    }
                    "ul" | "ol" => {
                        flush(&mut inline, &mut out);
                        let items = el
                            .children()
                            .filter_map(ElementRef::wrap)
                            .map(|li| {
                                let mut runs = Vec::new();
                                collect_runs(li, Style::default(), &mut runs);
                                trim(runs)
                            })
                            .collect();
                        out.push(Block::List {
                            ordered: e.name() == "ol",
                            items,
                        });
                    }
                    "br" => inline.push(Run {
                        line_break: true,
                        ..Default::default()
                    }),
                    "b" | "strong" => collect_runs(
                        el,
                        Style {
                            bold: true,
                            italic: false,
                        },
                        &mut inline,
                    ),
                    "i" | "em" => collect_runs(
                        el,
                        Style {
                            bold: false,
                            italic: true,
                        },
                        &mut inline,
                    ),
                    _ => collect_runs(el, Style::default(), &mut inline),
                }
            }
            _ => {}
        }
    }
    flush(&mut inline, &mut out);
    out
}

/// The plain text of a rich-text (HTML) field: paragraphs and list items on lines of their
/// own (list items with `- `), `<br>` as a line break, markup dropped, entities decoded.
/// Used where only text can go, e.g. the item description (BT-154) of an e-invoice.
pub fn plain_text(html: &str) -> String {
    fn line(runs: &[Run]) -> String {
        runs.iter()
            .map(|r| if r.line_break { "\n" } else { r.text.as_str() })
            .collect()
    }
    let mut out: Vec<String> = Vec::new();
    for block in blocks(html) {
        match block {
            Block::P { runs } => out.push(line(&runs)),
            Block::List { items, .. } => {
                out.extend(items.iter().map(|item| format!("- {}", line(item))))
            }
        }
    }
    out.join("\n")
}

/// Plain text (no HTML) as one paragraph; line breaks kept.
pub fn plain_blocks(text: &str) -> Vec<Block> {
    let mut runs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if n > 0 {
            runs.push(Run {
                line_break: true,
                ..Default::default()
            });
        }
        runs.push(Run {
            text: line.to_string(),
            ..Default::default()
        });
    }
    if runs.is_empty() {
        Vec::new()
    } else {
        vec![Block::P { runs }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Run {
        Run {
            text: text.into(),
            ..Default::default()
        }
    }

    #[test]
    fn plain_text_keeps_lines_and_drops_markup() {
        assert_eq!(
            plain_text(
                "<p>Setup &amp; <b>training</b><br>on site</p><ul><li>A</li><li>B</li></ul>"
            ),
            "Setup & training\non site\n- A\n- B"
        );
        assert_eq!(plain_text(""), "");
    }

    #[test]
    fn paragraphs_breaks_and_emphasis() {
        let b = blocks("<p>Dear <b>Ms</b> <i>Smith</i>,<br>thanks</p><p></p>plain");
        assert_eq!(b.len(), 2);
        let Block::P { runs } = &b[0] else { panic!() };
        assert_eq!(runs[0], run("Dear "));
        assert!(runs[1].bold && runs[1].text == "Ms", "{b:?}");
        assert_eq!(runs[2], run(" "));
        assert!(runs[3].italic && runs[3].text == "Smith");
        assert!(runs.iter().any(|r| r.line_break));
        assert_eq!(
            b[1],
            Block::P {
                runs: vec![run("plain")]
            }
        );
    }

    #[test]
    fn lists_and_entities() {
        let b = blocks("<ul><li>a &amp; b</li><li><strong>c</strong></li></ul><ol><li>x</li></ol>");
        assert_eq!(
            b[0],
            Block::List {
                ordered: false,
                items: vec![
                    vec![run("a & b")],
                    vec![Run {
                        text: "c".into(),
                        bold: true,
                        ..Default::default()
                    }]
                ]
            }
        );
        assert!(matches!(&b[1], Block::List { ordered: true, .. }));
    }

    #[test]
    fn markup_characters_stay_text() {
        let b = blocks("# * $ [ ] &lt; \\ @");
        assert_eq!(
            b,
            vec![Block::P {
                runs: vec![run("# * $ [ ] < \\ @")]
            }]
        );
    }
}
