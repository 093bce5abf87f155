//! A small static file server over the built dist, on a free loopback
//! port. [`Mode::Isolated`] sends the headers the dist's `_headers` file
//! gives each path (COOP/COEP/CORP, Document-Isolation-Policy and the
//! Content-Security-Policy, with the pages' own `frame-ancestors`), as a
//! static host that reads it does; [`Mode::Plain`] is an ordinary host
//! where the service worker cannot be installed (its script is missing),
//! and [`Mode::PlainWithServiceWorker`] an ordinary host that serves it
//! (both send no headers: the pages' own `<meta>` policy applies).
//!
//! It also puts an error probe into the pages (`index.html`,
//! `embed.html`), as a script file of the origin that runs first, so that
//! the pages' policy allows it: it records console errors, uncaught
//! exceptions and Content-Security-Policy violations in
//! `window.__waitlabErrors` from the first moment, and reports each
//! violation to this server ([`policy_violations`]), so that one in a
//! frame or on a page a test has left is not lost.
//!
//! A [`Fault`] makes it a broken host: a damaged or replaced file, a
//! response that never comes, or a script (a file too) that runs before
//! the page's own.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

/// The pages the app runs in: the full page and the embed's.
const PAGES: [&str; 2] = ["index.html", "embed.html"];

/// Records errors before any other script runs (served as [`PROBE`]). A
/// violation by an element a test put there to be refused
/// (`data-waitlab-expected`) goes to `window.__waitlabExpected` instead.
const ERROR_PROBE: &str = "window.__waitlabErrors=[];\
(function(){var e=console.error;console.error=function(){window.__waitlabErrors.push(Array.from(arguments).join(' '));e.apply(console,arguments);};\
addEventListener('error',function(ev){window.__waitlabErrors.push('error: '+ev.message);});\
addEventListener('unhandledrejection',function(ev){window.__waitlabErrors.push('rejection: '+ev.reason);});\
window.__waitlabExpected=[];\
document.addEventListener('securitypolicyviolation',function(ev){\
var said='policy violation: '+ev.effectiveDirective+' blocked '+(ev.blockedURI||'?')+' at '+ev.sourceFile+':'+ev.lineNumber+(ev.sample?' ('+ev.sample+')':'');\
if(ev.target&&ev.target.dataset&&ev.target.dataset.waitlabExpected!==undefined){window.__waitlabExpected.push(said);return;}\
window.__waitlabErrors.push(said);try{navigator.sendBeacon('/__violation',location.href+': '+said);}catch(x){}});})();";

/// The error probe's path.
const PROBE: &str = "__probe.js";
/// Where the probe reports a policy violation.
const VIOLATION: &str = "__violation";
/// The path of the `N`th [`Fault::HeadScript`] is this and `N.js`.
const HEAD_SCRIPT: &str = "__head-";
/// A worker script a test writes: this, its source in unpadded base64url,
/// and `.js`. A test's own worker (the benches' raw-JS probes) is then a
/// file of the origin, which the page's `worker-src 'self'` allows, where
/// a `blob:` worker would be refused.
pub const WORKER_SCRIPT: &str = "__worker/";

/// Where a test leaves a file for another page to fetch: a `POST` of this
/// and a name keeps its body (up to 64 MiB), a `GET` of it serves it.
pub const UPLOAD: &str = "__upload/";

/// Where npm's speedscope is served from (`WAITLAB_SPEEDSCOPE`, its
/// `dist/release` folder): a foreign page, sent none of waitlab's headers.
pub const SPEEDSCOPE: &str = "__speedscope/";

/// The files tests left ([`UPLOAD`]), by name.
fn uploads() -> std::sync::MutexGuard<'static, std::collections::HashMap<String, Vec<u8>>> {
    static FILES: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, Vec<u8>>>,
    > = std::sync::OnceLock::new();
    FILES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Every Content-Security-Policy violation a page of any server reported,
/// as `page: what`, in the order they came.
pub fn policy_violations() -> Vec<String> {
    violations().clone()
}

fn violations() -> std::sync::MutexGuard<'static, Vec<String>> {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    SEEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The path of a blank page every server has.
pub const BLANK: &str = "__blank.html";
/// A page of one paragraph on the same host: the baseline a load of
/// waitlab's is measured beside (what a first paint costs on this machine
/// right now).
pub const REFERENCE: &str = "__reference.html";

/// What kind of host the server plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Sends the headers `_headers` gives each path.
    Isolated,
    /// No headers, and no service worker script (so no isolation at all).
    Plain,
    /// No headers, but the service worker that adds them is served.
    PlainWithServiceWorker,
}

/// How a host misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Serves only the first 1,000 bytes of this file. (Each fault names
    /// its file whole, or, starting with `*`, every file ending in the
    /// rest.)
    Truncate(&'static str),
    /// Serves this text instead of the file.
    Replace(&'static str, &'static str),
    /// Serves this text, then the file.
    Prepend(&'static str, &'static str),
    /// Never answers for this file (holds the connection a minute).
    Hang(&'static str),
    /// Runs this script in the pages before any of their own (as a file
    /// of the origin, which their policy allows).
    HeadScript(&'static str),
}

/// A running server; it lives until the test process ends.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub origin: String,
}

impl Server {
    /// Serves `dist` on a free port.
    pub fn start(dist: &Path, mode: Mode) -> Server {
        Self::start_with(dist, mode, &[])
    }

    /// Serves `dist` on a free port with `faults`.
    pub fn start_with(dist: &Path, mode: Mode, faults: &[Fault]) -> Server {
        Self::start_on(dist, mode, faults, 0)
    }

    /// Serves `dist` at the address its build was made for, where that is
    /// a port of this machine's loopback (`cargo xtask test` builds it for
    /// one), else on a free port: its oEmbed answers, and its policy that
    /// names the site beside `'self'`, then hold for this server.
    pub fn start_at_site(dist: &Path, mode: Mode) -> Server {
        let port = site_port(dist);
        let server = Self::start_on(dist, mode, &[], port.unwrap_or(0));
        if port.is_none() {
            eprintln!(
                "the dist was built for no loopback address: it is served at {} instead",
                server.origin
            );
        }
        server
    }

    fn start_on(dist: &Path, mode: Mode, faults: &[Fault], port: u16) -> Server {
        let faults = faults.to_vec();
        let listener = TcpListener::bind(("127.0.0.1", port)).unwrap_or_else(|e| {
            panic!("cannot serve on 127.0.0.1:{port} (the dist's site address, if not 0): {e}")
        });
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let dist = dist.to_path_buf();
        let headers = match mode {
            Mode::Isolated => deployed_headers(&dist),
            Mode::Plain | Mode::PlainWithServiceWorker => Vec::new(),
        };
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (dist, faults, headers) = (dist.clone(), faults.clone(), headers.clone());
                std::thread::spawn(move || {
                    let _ = handle(stream, &dist, mode, &headers, &faults);
                });
            }
        });
        Server { origin }
    }
}

/// The port of the address `dist` was built for (its oEmbed answers'
/// `provider_url`), if that is `http://127.0.0.1:PORT/`.
fn site_port(dist: &Path) -> Option<u16> {
    let answer = std::fs::read_to_string(dist.join("oembed/timed-waits.json")).ok()?;
    let answer: serde_json::Value = serde_json::from_str(&answer).ok()?;
    answer["provider_url"]
        .as_str()?
        .strip_prefix("http://127.0.0.1:")?
        .trim_end_matches('/')
        .parse()
        .ok()
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// The rules of `dist/_headers`: each path (`/*` for every path) and its
/// header lines, as a static host reads them. Panics if `/*` gives no
/// isolation headers, so that a test never runs an isolated host without
/// them.
fn deployed_headers(dist: &Path) -> Vec<(String, String)> {
    let file =
        std::fs::read_to_string(dist.join("_headers")).expect("the dist has a _headers file");
    let mut rules: Vec<(String, String)> = Vec::new();
    for line in file
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
    {
        if line.starts_with(char::is_whitespace) {
            let rule = rules
                .last_mut()
                .expect("_headers: a header before any path");
            rule.1.push_str(&format!("{}\r\n", line.trim()));
        } else {
            rules.push((line.trim().to_owned(), String::new()));
        }
    }
    assert!(
        headers_for(&rules, "/").contains("Cross-Origin-Embedder-Policy"),
        "_headers gives /* no isolation headers"
    );
    rules
}

/// The header lines `rules` give the request `path`: every rule for `/*`,
/// then every rule for exactly `path`, each policy its own header (a
/// browser enforces each).
fn headers_for(rules: &[(String, String)], path: &str) -> String {
    rules
        .iter()
        .filter(|(rule, _)| rule == "/*" || rule == path)
        .map(|(_, lines)| lines.as_str())
        .collect()
}

fn handle(
    mut stream: TcpStream,
    dist: &Path,
    mode: Mode,
    rules: &[(String, String)],
    faults: &[Fault],
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let head_only = request_line.starts_with("HEAD ");
    let target = request_line.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let headers = headers_for(rules, path);
    let headers = headers.as_str();
    let relative = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    let file: PathBuf = dist.join(relative);
    let escapes = relative.split('/').any(|part| part == "..");
    let withheld = mode == Mode::Plain && relative == "coi-sw.js";
    let inside = !escapes && !withheld;
    // A fault's file is named whole, or by its end after a `*`.
    let named = |name: &str| {
        name == relative
            || name
                .strip_prefix('*')
                .is_some_and(|end| relative.ends_with(end))
    };
    if faults
        .iter()
        .any(|f| matches!(f, Fault::Hang(name) if named(name)))
    {
        std::thread::sleep(std::time::Duration::from_secs(60));
        return Ok(());
    }
    // A blank page of the same origin, for probes that need a page
    // without waitlab in it.
    if relative == VIOLATION {
        let mut body = vec![0; length.min(64 * 1024)];
        std::io::Read::read_exact(&mut reader, &mut body)?;
        violations().push(String::from_utf8_lossy(&body).into_owned());
        return respond(&mut stream, headers, "204 No Content", b"", "text/plain");
    }
    if let Some(name) = relative.strip_prefix(UPLOAD) {
        if request_line.starts_with("POST ") {
            let mut body = vec![0; length.min(64 << 20)];
            std::io::Read::read_exact(&mut reader, &mut body)?;
            uploads().insert(name.to_owned(), body);
            return respond(&mut stream, headers, "204 No Content", b"", "text/plain");
        }
        let body = uploads().get(name).cloned();
        return match body {
            Some(body) => respond(&mut stream, "", "200 OK", &body, "application/json"),
            None => respond(&mut stream, "", "404 Not Found", b"", "text/plain"),
        };
    }
    if let Some(file) = relative.strip_prefix(SPEEDSCOPE) {
        let dir = std::env::var_os("WAITLAB_SPEEDSCOPE").map(PathBuf::from);
        let path = dir.map(|d| d.join(file)).filter(|_| !escapes);
        return match path.and_then(|p| std::fs::read(&p).ok().map(|b| (p, b))) {
            Some((p, body)) => respond(&mut stream, "", "200 OK", &body, content_type(&p)),
            None => respond(&mut stream, "", "404 Not Found", b"", "text/plain"),
        };
    }
    if relative == PROBE {
        return respond(
            &mut stream,
            headers,
            "200 OK",
            ERROR_PROBE.as_bytes(),
            "text/javascript",
        );
    }
    let head_scripts: Vec<&str> = faults
        .iter()
        .filter_map(|f| match f {
            Fault::HeadScript(js) => Some(*js),
            _ => None,
        })
        .collect();
    if let Some(js) = relative
        .strip_prefix(HEAD_SCRIPT)
        .and_then(|rest| rest.strip_suffix(".js"))
        .and_then(|n| n.parse::<usize>().ok())
        .and_then(|n| head_scripts.get(n))
    {
        return respond(
            &mut stream,
            headers,
            "200 OK",
            js.as_bytes(),
            "text/javascript",
        );
    }
    if let Some(source) = relative
        .strip_prefix(WORKER_SCRIPT)
        .and_then(|rest| rest.strip_suffix(".js"))
    {
        use base64::Engine;
        return match base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(source) {
            Ok(js) => respond(&mut stream, headers, "200 OK", &js, "text/javascript"),
            Err(_) => respond(&mut stream, headers, "400 Bad Request", b"", "text/plain"),
        };
    }
    if relative == BLANK {
        return respond(
            &mut stream,
            headers,
            "200 OK",
            b"<!doctype html><title>blank</title>",
            "text/html",
        );
    }
    if relative == REFERENCE {
        return respond(
            &mut stream,
            headers,
            "200 OK",
            b"<!doctype html><meta charset=utf-8><title>reference</title><p>One paragraph, painted.</p>",
            "text/html",
        );
    }
    let (status, body, kind) = match std::fs::read(&file) {
        Ok(mut body) if inside => {
            if PAGES.contains(&relative) {
                let scripts: String = std::iter::once(format!("/{PROBE}"))
                    .chain((0..head_scripts.len()).map(|n| format!("/{HEAD_SCRIPT}{n}.js")))
                    .map(|src| format!("<script src={src}></script>"))
                    .collect();
                body = before_page_scripts(&String::from_utf8_lossy(&body), &scripts).into_bytes();
            }
            for fault in faults {
                match *fault {
                    Fault::Truncate(f) if named(f) => body.truncate(1000),
                    Fault::Replace(f, text) if named(f) => body = text.as_bytes().to_vec(),
                    Fault::Prepend(f, text) if named(f) => {
                        body.splice(0..0, text.bytes());
                    }
                    _ => {}
                }
            }
            ("200 OK", body, content_type(&file))
        }
        _ => ("404 Not Found", b"not found".to_vec(), "text/plain"),
    };
    let body = if head_only { &[][..] } else { &body[..] };
    respond(&mut stream, headers, status, body, kind)
}

fn respond(
    stream: &mut TcpStream,
    headers: &str,
    status: &str,
    body: &[u8],
    kind: &str,
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        body.len()
    );
    head.push_str(headers);
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

/// `html` with `scripts` ahead of everything the page runs: right after
/// `<head>`, or, in minified HTML that leaves the optional tag out, just
/// before its first element (the charset). Panics if neither is there, so
/// that the error probe never silently goes missing.
fn before_page_scripts(html: &str, scripts: &str) -> String {
    if let Some(at) = html.find("<head>") {
        let at = at + "<head>".len();
        return format!("{}{scripts}{}", &html[..at], &html[at..]);
    }
    let at = html
        .find("<meta charset")
        .expect("index.html has a <head> or a <meta charset> to put the test's scripts before");
    format!("{}{scripts}{}", &html[..at], &html[at..])
}

#[cfg(test)]
mod tests {
    #[test]
    fn scripts_go_first_with_or_without_a_head_tag() {
        let probe = "<script>p</script>";
        assert_eq!(
            super::before_page_scripts(
                "<html><head><meta charset=utf-8><script src=a.js></script>",
                probe
            ),
            "<html><head><script>p</script><meta charset=utf-8><script src=a.js></script>"
        );
        assert_eq!(
            super::before_page_scripts(
                "<!doctype html><html lang=en><meta charset=utf-8><script src=a.js></script>",
                probe
            ),
            "<!doctype html><html lang=en><script>p</script><meta charset=utf-8><script src=a.js></script>"
        );
    }
}
