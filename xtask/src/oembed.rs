//! oEmbed (<https://oembed.com>), as static files of the build: each
//! experiment has an address a blogger can paste into WordPress (or any
//! consumer that discovers providers), `experiments/<slug>.html`, whose
//! head links its oEmbed answer, `oembed/<slug>.json`: a `rich` embed
//! whose HTML is a link to the address and the experiment's iframe
//! (`embed.html?embed=<slug>`), as WordPress's own embeds are. A
//! reader who opens the address itself is sent on to the experiment on
//! the full page.
//!
//! Both need absolute addresses (the consumer fetches the answer and puts
//! its HTML in another site), so the build must know where the site will
//! be: [`SITE_URL_VAR`], by default where `cargo xtask serve` serves.
//! A run's share link cannot be pasted instead: its runs are in the
//! fragment, which never reaches the consumer's request, and the answer
//! is one static file per experiment.

use crate::Result;
use crate::shell::escape;
use serde_json::json;
use std::path::Path;
use waitlab_core::experiments::Experiment;
use waitlab_core::text::Catalog;

/// The variable that gives the site's public address to the build.
pub const SITE_URL_VAR: &str = "WAITLAB_SITE_URL";
/// The site's address when the variable is not set: `cargo xtask serve`'s.
pub const DEFAULT_SITE_URL: &str = "http://127.0.0.1:8080/";
/// The address the tests' builds are made for (`cargo xtask test`, `bench`
/// and `gallery`): the end-to-end suite serves such a build there, so
/// that its answers, and the policy that names it
/// (`headers::naming_site`), hold.
pub const TEST_SITE_URL: &str = "http://127.0.0.1:8417/";
/// The folder of the addresses to paste, and of the answers.
pub const PAGES: &str = "experiments";
pub const ANSWERS: &str = "oembed";
/// The iframe's size in the answer: a blog's column, and the height of
/// the first screen with room to grow (WordPress then sizes it from the
/// embed's messages; other consumers keep this). 600 px wide, as
/// WordPress's own embeds of its posts: an answer made once cannot follow
/// a consumer's `maxwidth`, and a post made in the classic editor puts the
/// iframe in the theme's column without a wrapper that narrows it (Twenty
/// Twenty-Three's is 650 px; 720 ran past it).
const WIDTH: u32 = 600;
const HEIGHT: u32 = 640;

/// The site's public address, from [`SITE_URL_VAR`] (or the default),
/// ending in `/`.
pub fn site_url() -> Result<String> {
    let url = std::env::var(SITE_URL_VAR).unwrap_or_else(|_| DEFAULT_SITE_URL.to_owned());
    checked_site_url(&url)
}

fn checked_site_url(url: &str) -> Result<String> {
    let scheme_ok = url.starts_with("https://") || url.starts_with("http://");
    let clean = !url.contains(|c: char| c.is_whitespace() || "\"'<>#?&\\".contains(c));
    if !scheme_ok || !clean || url.split('/').nth(2).is_none_or(str::is_empty) {
        return Err(format!(
            "{SITE_URL_VAR}={url:?}: give the site's address, as https://example.org/waitlab/"
        ));
    }
    Ok(if url.ends_with('/') {
        url.to_owned()
    } else {
        format!("{url}/")
    })
}

/// The address to paste for `e`, on `site`.
pub fn page_url(site: &str, e: Experiment) -> String {
    format!("{site}{PAGES}/{}.html", e.slug())
}

/// The oEmbed answer for `e` on `site`, its title from `en`. Its HTML is
/// made as WordPress makes its own embeds: a `<blockquote>` linking the
/// address (what a reader without frames or scripts gets), then the
/// iframe. WordPress keeps of it only `a href`, `blockquote` and the
/// iframe's `src width height frameborder marginwidth marginheight
/// scrolling title` (`wp_filter_oembed_result`); seeing the blockquote,
/// it loads its host script `wp-embed.js`, which shows the iframe, sized,
/// once the frame tells it its height. Other consumers keep `allow`.
fn answer(site: &str, e: Experiment, en: &Catalog) -> serde_json::Value {
    let title = format!("waitlab: {}", en.text(e.heading()));
    let html = format!(
        "<blockquote><a href=\"{page}\">{title}</a></blockquote>\
         <iframe src=\"{site}embed.html?embed={slug}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         title=\"{title}\" frameborder=\"0\" allow=\"cross-origin-isolated; clipboard-write\"></iframe>",
        page = page_url(site, e),
        slug = e.slug(),
        title = escape(&title),
    );
    json!({
        "version": "1.0",
        "type": "rich",
        "title": title,
        "provider_name": "waitlab",
        "provider_url": site,
        "html": html,
        "width": WIDTH,
        "height": HEIGHT,
    })
}

/// The address's page for `e` on `site`: its title and description, the
/// discovery link, and a move on to the experiment on the full page.
fn page(site: &str, e: Experiment, en: &Catalog) -> String {
    let title = escape(&format!("waitlab: {}", en.text(e.heading())));
    let about = en
        .text(e.explanation().first().copied().unwrap_or(e.heading()))
        .to_owned();
    let (slug, about) = (e.slug(), escape(&about));
    let full = format!("../#{slug}");
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<meta name=\"description\" content=\"{about}\">\n\
         <link rel=\"canonical\" href=\"{page}\">\n\
         <link rel=\"alternate\" type=\"application/json+oembed\" href=\"{site}{ANSWERS}/{slug}.json\" title=\"{title}\">\n\
         <meta property=\"og:title\" content=\"{title}\">\n<meta property=\"og:description\" content=\"{about}\">\n\
         <meta http-equiv=\"refresh\" content=\"0; url={full}\">\n</head>\n\
         <body>\n<p><a href=\"{full}\">{title}</a></p>\n</body>\n</html>\n",
        page = page_url(site, e),
    )
}

/// Writes every experiment's page and answer into the build `staging`,
/// for `site`, from the English catalog `en`.
pub fn write(staging: &Path, site: &str, en: &Catalog) -> Result {
    for folder in [PAGES, ANSWERS] {
        std::fs::create_dir_all(staging.join(folder)).map_err(|e| format!("{folder}: {e}"))?;
    }
    for e in Experiment::ALL {
        let slug = e.slug();
        let files = [
            (format!("{PAGES}/{slug}.html"), page(site, e, en)),
            (
                format!("{ANSWERS}/{slug}.json"),
                answer(site, e, en).to_string(),
            ),
        ];
        for (name, text) in files {
            std::fs::write(staging.join(&name), text).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use waitlab_core::lang::Lang;
    use waitlab_core::text::Part;

    fn en() -> Catalog {
        let i18n = crate::root().join("www/i18n");
        let page = crate::catalogs::part_json(&i18n, Lang::En, Part::Page).unwrap();
        Catalog::from_json(Lang::En, &page).unwrap()
    }

    #[test]
    fn the_site_address_is_checked() {
        assert_eq!(
            checked_site_url("https://example.org/w").unwrap(),
            "https://example.org/w/"
        );
        assert_eq!(
            checked_site_url(DEFAULT_SITE_URL).unwrap(),
            DEFAULT_SITE_URL
        );
        for bad in [
            "example.org",
            "https://",
            "ftp://example.org/",
            "https://example.org/\"><script>",
            "https://example.org/#x",
        ] {
            assert!(checked_site_url(bad).is_err(), "{bad}");
        }
    }

    /// The answer has what the spec asks of a rich one (version, type,
    /// html, width, height), and the page links it in its head.
    #[test]
    fn every_experiment_has_an_answer_and_a_page_that_finds_it() {
        let (en, site) = (en(), "https://example.org/waitlab/");
        for e in Experiment::ALL {
            let a = answer(site, e, &en);
            assert_eq!(a["version"], "1.0");
            assert_eq!(a["type"], "rich");
            assert!(a["width"].as_u64().is_some() && a["height"].as_u64().is_some());
            // WordPress's own pattern: a bare blockquote (kses leaves no
            // attribute on it), then the iframe.
            let html = a["html"].as_str().unwrap();
            let quote = format!("<blockquote><a href=\"{}\">waitlab: ", page_url(site, e));
            let src = format!("<iframe src=\"{site}embed.html?embed={}\"", e.slug());
            let (head, frame) = html.split_once("</blockquote>").expect(html);
            assert!(head.starts_with(&quote) && head.ends_with("</a>"), "{html}");
            assert!(
                frame.starts_with(&src) && frame.ends_with("></iframe>"),
                "{html}"
            );
            let page = page(site, e, &en);
            let head = &page[..page.find("</head>").unwrap()];
            let link = format!(
                "type=\"application/json+oembed\" href=\"{site}oembed/{}.json\"",
                e.slug()
            );
            assert!(head.contains(&link), "{head}");
            assert!(!page.contains("<script"));
        }
    }
}
