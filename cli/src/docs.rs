//! `warpscope docs`: the kernel-language reference (`docs/language.md`) as the app's static
//! page `static/language.html`. The page is committed; a test checks it is up to date.

use pulldown_cmark::{html, Options, Parser};

/// The reference's Markdown.
const LANGUAGE: &str = include_str!("../../docs/language.md");

/// The whole HTML page.
pub fn language_page() -> String {
    let mut body = String::new();
    html::push_html(&mut body, Parser::new_ext(LANGUAGE, Options::ENABLE_TABLES));
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>The warpscope kernel language</title>
  <link rel="icon" href="icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <!-- Generated from docs/language.md by `warpscope docs > static/language.html`; do not edit. -->
  <header class="masthead">
    <a class="brand" href="./"><img src="icon.svg" alt="" width="28" height="28"><span class="brand-name">warpscope</span></a>
    <p class="tagline">Kernel language reference</p>
  </header>
  <main class="reference">
{body}  </main>
</body>
</html>
"#
    )
}
