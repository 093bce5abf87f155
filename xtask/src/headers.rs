//! `www/_headers`, the headers a static host (Netlify, Cloudflare Pages)
//! sends: each rule is a path (`/*` for every path) and its indented
//! `Name: value` lines. The post-build hook writes the page's
//! Content-Security-Policy into the pages from it, for hosts that send no
//! headers, and tidy checks that `cargo xtask serve` sends what it gives
//! every path.

use crate::Result;

/// One rule: a path and its headers, in the file's order.
pub struct Rule {
    pub path: String,
    pub headers: Vec<(String, String)>,
}

/// The rules of a `_headers` file (comments and blank lines skipped).
pub fn rules(file: &str) -> Result<Vec<Rule>> {
    let mut rules: Vec<Rule> = Vec::new();
    for line in file.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if !line.starts_with(char::is_whitespace) {
            rules.push(Rule {
                path: trimmed.to_owned(),
                headers: Vec::new(),
            });
            continue;
        }
        let (name, value) = trimmed
            .split_once(": ")
            .ok_or_else(|| format!("_headers: {trimmed:?} is not `Name: value`"))?;
        rules
            .last_mut()
            .ok_or_else(|| format!("_headers: {trimmed:?} comes before any path"))?
            .headers
            .push((name.to_owned(), value.to_owned()));
    }
    Ok(rules)
}

/// The headers the rule for `path` gives, as `Name: value` (tidy compares
/// them).
#[cfg(test)]
pub fn of(rules: &[Rule], path: &str) -> Vec<String> {
    rules
        .iter()
        .filter(|r| r.path == path)
        .flat_map(|r| r.headers.iter().map(|(n, v)| format!("{n}: {v}")))
        .collect()
}

/// The policy every path gets (`/*`), for a `<meta http-equiv>`: without
/// `frame-ancestors`, which a policy in a page cannot set (the host's
/// header gives it per page).
pub fn page_policy(rules: &[Rule]) -> Result<String> {
    let policy = rules
        .iter()
        .filter(|r| r.path == "/*")
        .flat_map(|r| &r.headers)
        .find(|(name, _)| name == "Content-Security-Policy")
        .map(|(_, value)| value)
        .ok_or("_headers gives /* no Content-Security-Policy")?;
    Ok(policy
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty() && !d.starts_with("frame-ancestors"))
        .collect::<Vec<_>>()
        .join("; "))
}

/// `file` (a `_headers` file) with the site's address `site` named
/// beside every `'self'` of its policies: WebKit matches `'self'` in a
/// frame sandboxed without `allow-same-origin` (WordPress's embeds)
/// against the frame's opaque origin, which nothing matches, so there
/// only the address lets the page load its own files. Elsewhere it allows
/// nothing `'self'` does not.
pub fn naming_site(file: &str, site: &str) -> String {
    file.lines()
        .map(|line| {
            if line.trim_start().starts_with("Content-Security-Policy:") {
                line.replace("'self'", &format!("'self' {site}"))
            } else {
                line.to_owned()
            }
        })
        .map(|line| line + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    const FILE: &str = "# a comment\n/*\n  A: 1\n  Content-Security-Policy: default-src 'none'; frame-ancestors 'none'; img-src 'self'\n\n/embed.html\n  B: 2\n";

    #[test]
    fn rules_and_the_policy_a_page_can_carry() {
        let rules = super::rules(FILE).unwrap();
        assert_eq!(super::of(&rules, "/embed.html"), ["B: 2"]);
        assert_eq!(super::of(&rules, "/*").len(), 2);
        assert_eq!(
            super::page_policy(&rules).unwrap(),
            "default-src 'none'; img-src 'self'"
        );
        assert_eq!(
            super::naming_site(
                "# 'self'\n/*\n  Content-Security-Policy: img-src 'self'; worker-src 'self' blob:\n",
                "https://x.org/w/"
            ),
            "# 'self'\n/*\n  Content-Security-Policy: img-src 'self' https://x.org/w/; worker-src 'self' https://x.org/w/ blob:\n"
        );
        assert!(super::rules("  A: 1\n").is_err());
        assert!(super::rules("/*\n  no colon\n").is_err());
    }

    /// The policy `www/_headers` deploys is strict: scripts from the
    /// origin only (no inline script, no eval), no plugins, no `<base>`,
    /// and frames per page: the embed anywhere, the full page nowhere.
    #[test]
    fn the_deployed_policy_is_strict() {
        let file = std::fs::read_to_string(crate::root().join("www/_headers")).unwrap();
        let rules = super::rules(&file).unwrap();
        let policy = super::page_policy(&rules).unwrap();
        let directive = |name: &str| {
            policy
                .split("; ")
                .find(|d| d.split(' ').next() == Some(name))
                .unwrap_or_else(|| panic!("no {name} in {policy}"))
                .to_owned()
        };
        assert_eq!(directive("default-src"), "default-src 'none'");
        assert_eq!(
            directive("script-src"),
            "script-src 'self' 'wasm-unsafe-eval'"
        );
        assert_eq!(directive("object-src"), "object-src 'none'");
        assert_eq!(directive("base-uri"), "base-uri 'none'");
        assert!(!policy.contains("unsafe-inline") && !policy.contains("'unsafe-eval'"));
        let frames = |path: &str| super::of(&rules, path);
        for page in ["/", "/index.html"] {
            assert_eq!(
                frames(page),
                ["Content-Security-Policy: frame-ancestors 'none'; worker-src 'self'"]
            );
        }
        assert_eq!(
            frames("/embed.html"),
            ["Content-Security-Policy: frame-ancestors *"]
        );
    }
}
