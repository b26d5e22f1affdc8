//! SVG logos, sanitized before they are stored or rendered (issue 9 § Bad input;
//! `docs/decisions.md` § Account settings (issue 9)).
//!
//! The upload is parsed as XML (roxmltree; a document that is not well-formed, declares
//! entities, or whose root is not `<svg>` is refused) and written out again from a
//! whitelist: SVG drawing elements (shapes, paths, text, groups, gradients, patterns,
//! clip paths, masks, markers) with geometry and presentation attributes. Filters
//! (`<filter>`, the `filter` attribute and CSS property) go: a blur is rasterized at every
//! render and made every PDF take seconds (issue 29). Before any of this the text is held
//! against `kontor_einvoice::xml_limits` (at most 64 levels deep, 64 attributes on an
//! element, 250,000 elements), so the writer's recursion is bounded too. Everything else is dropped with its content: `script`,
//! `foreignObject`, `iframe`, animation elements, other XML namespaces (editor metadata),
//! event handler attributes (`on…`), `href`/`xlink:href` that are not a local `#fragment`
//! or a `data:image/png` / `data:image/jpeg` URI, and any `url(…)` in attributes, `style`
//! attributes or `<style>` sheets that points elsewhere. `<a>` is unwrapped (its drawing
//! stays, the link goes). A leaf: pure functions, no I/O.

use std::fmt::Write;

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Elements kept (SVG drawing and paint servers).
const ELEMENTS: &[&str] = &[
    "svg",
    "g",
    "defs",
    "symbol",
    "use",
    "title",
    "desc",
    "style",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "text",
    "tspan",
    "textPath",
    "image",
    "linearGradient",
    "radialGradient",
    "stop",
    "pattern",
    "clipPath",
    "mask",
    "marker",
];

/// Attributes kept (geometry, presentation, paint-server and filter parameters).
const ATTRIBUTES: &[&str] = &[
    "id",
    "class",
    "style",
    "transform",
    "d",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "fx",
    "fy",
    "fr",
    "dx",
    "dy",
    "width",
    "height",
    "points",
    "pathLength",
    "viewBox",
    "preserveAspectRatio",
    "version",
    "fill",
    "fill-opacity",
    "fill-rule",
    "stroke",
    "stroke-width",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-opacity",
    "opacity",
    "color",
    "display",
    "visibility",
    "overflow",
    "clip-path",
    "clip-rule",
    "mask",
    "marker-start",
    "marker-mid",
    "marker-end",
    "paint-order",
    "vector-effect",
    "shape-rendering",
    "image-rendering",
    "text-rendering",
    "color-interpolation",
    "color-interpolation-filters",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "font-variant",
    "font-stretch",
    "text-anchor",
    "text-decoration",
    "dominant-baseline",
    "alignment-baseline",
    "baseline-shift",
    "letter-spacing",
    "word-spacing",
    "writing-mode",
    "rotate",
    "textLength",
    "lengthAdjust",
    "startOffset",
    "offset",
    "stop-color",
    "stop-opacity",
    "gradientUnits",
    "gradientTransform",
    "spreadMethod",
    "patternUnits",
    "patternContentUnits",
    "patternTransform",
    "clipPathUnits",
    "maskUnits",
    "maskContentUnits",
    "markerUnits",
    "markerWidth",
    "markerHeight",
    "refX",
    "refY",
    "orient",
    "href",
    "media",
];

/// Why an upload is not an SVG Kontor keeps.
#[derive(Debug, PartialEq, Eq)]
pub enum SvgError {
    /// Not XML text whose root is `<svg>` (so: not an SVG at all).
    NotSvg,
    /// It is meant as an SVG but is not well-formed or declares entities; the text says why.
    Malformed(String),
}

/// Whether `bytes` look like an SVG document: UTF-8 text whose first markup (after an
/// optional BOM, XML declaration, comments and doctype) opens an `svg` element.
pub fn looks_like_svg(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("<?") {
            match r.find("?>") {
                Some(end) => rest = r[end + 2..].trim_start(),
                None => return false,
            }
        } else if let Some(r) = rest.strip_prefix("<!--") {
            match r.find("-->") {
                Some(end) => rest = r[end + 3..].trim_start(),
                None => return false,
            }
        } else if let Some(r) = rest.strip_prefix("<!DOCTYPE") {
            // An internal subset `[ … ]` may hold `>` of its own.
            let close = match (r.find('['), r.find('>')) {
                (Some(open), Some(gt)) if open < gt => {
                    r.find(']').and_then(|b| r[b..].find('>').map(|g| b + g))
                }
                (_, gt) => gt,
            };
            match close {
                Some(end) => rest = r[end + 1..].trim_start(),
                None => return false,
            }
        } else {
            let tag = rest.strip_prefix('<').unwrap_or("");
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
                .collect();
            return name == "svg" || name.ends_with(":svg");
        }
    }
}

/// A `url(…)` target that may stay: a local fragment or an embedded PNG/JPEG.
fn is_safe_target(target: &str) -> bool {
    let t = target.trim().trim_matches(['"', '\'']).trim();
    let lower = t.to_ascii_lowercase();
    t.starts_with('#')
        || lower.starts_with("data:image/png;")
        || lower.starts_with("data:image/png,")
        || lower.starts_with("data:image/jpeg;")
        || lower.starts_with("data:image/jpeg,")
}

/// CSS (a `style` attribute or a `<style>` sheet) with every `url(…)` that is not
/// [`is_safe_target`] replaced by `none`; `None` when the CSS imports or scripts
/// (`@import`, `expression(`, `javascript:`, a backslash escape that could hide them) or
/// names a filter (`filter: blur(…)` costs seconds per render).
fn clean_css(css: &str) -> Option<String> {
    let lower = css.to_ascii_lowercase();
    if lower.contains("@import")
        || lower.contains("filter")
        || lower.contains("expression(")
        || lower.contains("javascript:")
        || css.contains('\\')
    {
        return None;
    }
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.to_ascii_lowercase().find("url(") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 4..];
        let end = after.find(')')?;
        if is_safe_target(&after[..end]) {
            out.push_str(&rest[start..start + 4 + end + 1]);
        } else {
            out.push_str("none");
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

fn is_svg_element(node: &roxmltree::Node, root_ns: Option<&str>) -> bool {
    node.is_element() && node.tag_name().namespace() == root_ns
}

/// The attribute's value as kept, or `None` when it goes.
fn keep_attribute(attr: &roxmltree::Attribute) -> Option<(String, String)> {
    let name = attr.name();
    let value = attr.value();
    let (written, local) = match attr.namespace() {
        None => (name.to_string(), name),
        Some(XLINK_NS) if name == "href" => ("xlink:href".to_string(), "href"),
        Some(XML_NS) if name == "space" => ("xml:space".to_string(), "space"),
        Some(_) => return None,
    };
    if local == "space" {
        return matches!(value, "preserve" | "default").then(|| (written, value.to_string()));
    }
    if !ATTRIBUTES.contains(&local) {
        return None;
    }
    if local == "href" {
        return is_safe_target(value).then(|| (written, value.to_string()));
    }
    if value.to_ascii_lowercase().contains("url(") || local == "style" {
        let cleaned = clean_css(value)?;
        return Some((written, cleaned));
    }
    Some((written, value.to_string()))
}

fn write_node(node: roxmltree::Node, root_ns: Option<&str>, out: &mut String) {
    if node.is_text() {
        escape(node.text().unwrap_or(""), out);
        return;
    }
    if !is_svg_element(&node, root_ns) {
        return;
    }
    let name = node.tag_name().name();
    if name == "a" {
        for child in node.children() {
            write_node(child, root_ns, out);
        }
        return;
    }
    if !ELEMENTS.contains(&name) {
        return;
    }
    if name == "style" {
        let css: String = node.children().filter_map(|c| c.text()).collect();
        if let Some(css) = clean_css(&css) {
            out.push_str("<style>");
            escape(&css, out);
            out.push_str("</style>");
        }
        return;
    }
    if name == "image" {
        // An image without a kept (embedded) source shows nothing: drop it.
        let embedded = node.attributes().any(|a| {
            a.name() == "href" && is_safe_target(a.value()) && !a.value().starts_with('#')
        });
        if !embedded {
            return;
        }
    }
    out.push('<');
    out.push_str(name);
    let is_root = node.parent().is_some_and(|p| p.is_root());
    if is_root {
        let _ = write!(out, " xmlns=\"{SVG_NS}\" xmlns:xlink=\"{XLINK_NS}\"");
    }
    for attr in node.attributes() {
        if let Some((written, value)) = keep_attribute(&attr) {
            out.push(' ');
            out.push_str(&written);
            out.push_str("=\"");
            escape(&value, out);
            out.push('"');
        }
    }
    out.push('>');
    for child in node.children() {
        write_node(child, root_ns, out);
    }
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// Every `data:image/png` / `data:image/jpeg` image embedded in the SVG must be a
/// readable image of at most [`crate::input::uploads::MAX_IMAGE_SIDE`] pixels a side (it is
/// drawn at every render). Errors: [`SvgError::Malformed`] naming the size or why it
/// cannot be read.
fn check_embedded_images(doc: &roxmltree::Document) -> Result<(), SvgError> {
    use base64::Engine;
    for node in doc.descendants().filter(|n| n.tag_name().name() == "image") {
        for attr in node.attributes().filter(|a| a.name() == "href") {
            let value = attr.value().trim();
            if value.starts_with('#') || !is_safe_target(value) {
                continue;
            }
            let data = value
                .split_once(";base64,")
                .map(|(_, b)| {
                    let cleaned: String = b.chars().filter(|c| !c.is_whitespace()).collect();
                    base64::engine::general_purpose::STANDARD.decode(cleaned)
                })
                .and_then(Result::ok)
                .ok_or_else(|| {
                    SvgError::Malformed("holds an embedded image that is not base64 data".into())
                })?;
            if let Some(why) = crate::input::uploads::image_size_error(&data) {
                return Err(SvgError::Malformed(format!(
                    "holds an embedded image that {why}"
                )));
            }
        }
    }
    Ok(())
}

/// The sanitized SVG of `bytes` (see the module docs), as UTF-8 text that starts with
/// `<svg xmlns="http://www.w3.org/2000/svg"`. Errors: [`SvgError::NotSvg`] when the bytes
/// are not an SVG document at all, [`SvgError::Malformed`] when they look like one but are
/// not well-formed XML, declare entities, or have another root element.
pub fn sanitize(bytes: &[u8]) -> Result<String, SvgError> {
    if !looks_like_svg(bytes) {
        return Err(SvgError::NotSvg);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| SvgError::NotSvg)?;
    let text = text.trim_start_matches('\u{feff}');
    if text.contains("<!ENTITY") {
        return Err(SvgError::Malformed(
            "declares XML entities, which logos may not".into(),
        ));
    }
    kontor_einvoice::xml_limits::check_with(text, kontor_einvoice::xml_limits::Doctype::Allow)
        .map_err(|e| match e {
            kontor_einvoice::Error::NotAnInvoice(why) | kontor_einvoice::Error::Pdf(why) => {
                SvgError::Malformed(why.trim_start_matches("it ").to_string())
            }
            other => SvgError::Malformed(other.to_string()),
        })?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: 200_000,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options)
        .map_err(|e| SvgError::Malformed(format!("is not well-formed XML: {e}")))?;
    let root = doc.root_element();
    let ns = root.tag_name().namespace();
    if root.tag_name().name() != "svg" || !matches!(ns, None | Some(SVG_NS)) {
        return Err(SvgError::Malformed("has no <svg> root element".into()));
    }
    check_embedded_images(&doc)?;
    let mut out = String::with_capacity(text.len());
    write_node(root, ns, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(svg: &str) -> String {
        sanitize(svg.as_bytes()).unwrap()
    }

    #[test]
    fn drawing_stays() {
        let out = clean(
            r##"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><g transform="scale(2)"><rect x="1" y="1" width="5" height="5" fill="url(#g)"/><text x="1" y="9" font-family="Sans">K &amp; Co</text></g></svg>"##,
        );
        assert!(
            out.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg""#),
            "{out}"
        );
        for kept in [
            r#"viewBox="0 0 10 10""#,
            r##"<stop offset="0" stop-color="#fff">"##,
            r##"fill="url(#g)""##,
            "K &amp; Co",
            r#"transform="scale(2)""#,
        ] {
            assert!(out.contains(kept), "{kept} missing in {out}");
        }
        // The output is itself well-formed.
        assert!(roxmltree::Document::parse(&out).is_ok());
    }

    #[test]
    fn scripts_handlers_and_external_references_go() {
        let out = clean(
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
<script>alert(2)</script>
<script type="text/javascript"><![CDATA[alert(3)]]></script>
<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
<a href="javascript:alert(4)"><circle r="3" onclick="alert(5)" fill="red"/></a>
<image href="https://evil.example/track.png" width="1" height="1"/>
<image xlink:href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" width="1" height="1"/>
<use xlink:href="https://evil.example/sprite.svg#icon"/>
<use href="#local"/>
<rect style="fill: url(https://evil.example/x); stroke: red" filter="url(http://evil.example/f)" width="1" height="1"/>
<style>@import url(https://evil.example/a.css);</style>
<style>.a { fill: url('https://evil.example/p') } .b { fill: url(#g) }</style>
<animate attributeName="href" to="javascript:alert(6)"/>
<set attributeName="onmouseover" to="alert(7)"/>
<iframe src="https://evil.example"/>
</svg>"##,
        );
        for gone in [
            "script",
            "alert",
            "onload",
            "onclick",
            "foreignObject",
            "evil.example",
            "javascript",
            "@import",
            "animate",
            "<set",
            "iframe",
            "<a",
        ] {
            assert!(!out.contains(gone), "{gone} survived in {out}");
        }
        for kept in [
            r#"<circle r="3" fill="red">"#,
            r#"xlink:href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==""#,
            r##"<use href="#local">"##,
            "stroke: red",
            "fill: none",
            ".b { fill: url(#g) }",
        ] {
            assert!(out.contains(kept), "{kept} missing in {out}");
        }
        assert!(!out.contains("filter"), "{out}");
    }

    #[test]
    fn filters_go_and_depth_is_bounded() {
        let out = clean(
            r##"<svg xmlns="http://www.w3.org/2000/svg"><defs><filter id="b"><feGaussianBlur stdDeviation="80"/></filter></defs><rect filter="url(#b)" style="filter: blur(40px); fill: red" width="9" height="9"/><style>rect { filter: blur(9px) }</style></svg>"##,
        );
        assert!(!out.contains("filter") && !out.contains("blur"), "{out}");
        assert!(out.contains(r#"<rect width="9" height="9">"#), "{out}");
        let deep = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\">{}{}</svg>",
            "<g>".repeat(100_000),
            "</g>".repeat(100_000)
        );
        match sanitize(deep.as_bytes()) {
            Err(SvgError::Malformed(why)) => assert!(why.contains("64 levels"), "{why}"),
            other => panic!("{other:?}"),
        }
        let many: String = (0..100).map(|i| format!(" a{i}=\"1\"")).collect();
        assert!(matches!(
            sanitize(format!("<svg xmlns=\"http://www.w3.org/2000/svg\"{many}/>").as_bytes()),
            Err(SvgError::Malformed(_))
        ));
    }

    #[test]
    fn other_namespaces_and_their_content_go() {
        let out = clean(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.0"><inkscape:metadata><secret/></inkscape:metadata><path d="M0 0L1 1" inkscape:label="x"/></svg>"#,
        );
        assert_eq!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><path d="M0 0L1 1"></path></svg>"#
        );
    }

    #[test]
    fn not_svg_or_not_well_formed_is_refused() {
        assert_eq!(sanitize(b"hello"), Err(SvgError::NotSvg));
        assert_eq!(sanitize(b"\x89PNG\r\n\x1a\n"), Err(SvgError::NotSvg));
        assert_eq!(sanitize(b"<html><svg></svg></html>"), Err(SvgError::NotSvg));
        assert!(matches!(
            sanitize(b"<svg xmlns=\"http://www.w3.org/2000/svg\"><rect></svg>"),
            Err(SvgError::Malformed(_))
        ));
        assert!(matches!(
            sanitize(
                b"<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY a \"aaaa\">]><svg xmlns=\"http://www.w3.org/2000/svg\">&a;</svg>"
            ),
            Err(SvgError::Malformed(_))
        ));
        assert!(matches!(
            sanitize(b"<svg xmlns=\"http://example.com/not-svg\"/>"),
            Err(SvgError::Malformed(_))
        ));
        // A public doctype without entities, as editors write it, is fine.
        assert!(sanitize(
            b"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n<!-- logo --><svg xmlns=\"http://www.w3.org/2000/svg\"/>"
        )
        .is_ok());
    }

    #[test]
    fn css_urls_are_judged_one_by_one() {
        assert_eq!(
            clean_css("fill:url(#a);stroke:URL( 'http://x' )").as_deref(),
            Some("fill:url(#a);stroke:none")
        );
        assert_eq!(clean_css("fill: u\\72l(http://x)"), None);
        assert_eq!(clean_css("x: expression(alert(1))"), None);
    }
}
