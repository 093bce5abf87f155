//! What the page says, as data: a [`Phrase`] is a catalog key and the
//! values to put into it; a [`Catalog`] is one language's texts (the page
//! loads them from `www/i18n/`, the native probe has the English ones built
//! in) and renders a phrase in its language.
//!
//! A language's texts come in three [`Part`]s: what the page says before
//! anything has run (`LANG.json`, the first load), what runs, their
//! results and result links say (`LANG.runs.json`, fetched when the first
//! run starts or the first link opens), and what the comparisons with
//! native numbers say (`LANG.compare.json`, fetched when the reader first
//! reaches one).
//!
//! Core computes phrases (findings, table rows, errors) and never words
//! them: the same run reads in every language, and a number is written once
//! ([`crate::number`]) and given the language's decimal separator here.
//!
//! A catalog entry is a template with `{name}` placeholders, or, where a
//! count decides the wording, an object of CLDR plural forms (`one`, `few`,
//! `many`, `other`) chosen by the argument named `count`.

use crate::chart::format_ms;
use crate::clock::ClockInfo;
use crate::lang::{Lang, Plural};
use crate::number::fixed;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A value to put into a phrase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arg {
    /// A time in ms, written to the precision its size suits; `marked`
    /// adds ‡ (below the clock's resolution).
    Ms {
        /// The time.
        value: f64,
        /// Whether the clock does not resolve it.
        marked: bool,
    },
    /// A time in µs, to 0.1 µs under 100 µs, else whole.
    Us(f64),
    /// A whole number.
    Count(u64),
    /// A number to `places` decimals.
    Fixed(f64, u8),
    /// Code or an API name, the same in every language.
    Code(Cow<'static, str>),
    /// Text that comes from data (a user agent, a set's provenance, an
    /// error the browser gave), shown as it is.
    Data(String),
    /// A phrase of its own.
    Phrase(Box<Phrase>),
    /// Phrases, listed.
    List(Vec<Phrase>),
    /// A calendar date (year, month, day), as the language writes dates.
    Date(i64, u32, u32),
}

impl Arg {
    /// A time `clock` read, ms: never below zero, marked ‡ where the clock
    /// does not resolve it, and a time it read as none is under one step
    /// of it ("<1.00‡", `figure.under_step`), not a "0".
    pub fn ms_on(value: f64, clock: Option<ClockInfo>) -> Arg {
        match clock {
            Some(c) if value <= 0.0 => {
                Arg::Phrase(Box::new(Phrase::new(crate::key!("figure.under_step")).arg(
                    "step",
                    Arg::Ms {
                        value: c.tolerance_ms(),
                        marked: true,
                    },
                )))
            }
            _ => Arg::Ms {
                value: value.max(0.0),
                marked: clock.is_some_and(|c| !c.resolves(value)),
            },
        }
    }
}

/// A catalog key, such as `timed_waits.finding.clamped`, as the code holds it:
/// its name's 32-bit FNV-1a hash, so the app carries no key names (a
/// [`key!`](crate::key) literal is hashed at compile time). The catalogs
/// stay keyed by name and are hashed as they load; a tidy test keeps the
/// names' hashes distinct.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Key(u32);

impl Key {
    /// Its hash, as links carry it.
    pub fn hash(self) -> u32 {
        self.0
    }

    /// The key of a hash a link carried (a key no catalog has says so
    /// when rendered).
    pub fn from_hash(hash: u32) -> Key {
        Key(hash)
    }

    /// The key named `name`.
    pub const fn of(name: &str) -> Key {
        let bytes = name.as_bytes();
        let mut hash: u32 = 0x811c_9dc5;
        let mut i = 0;
        while i < bytes.len() {
            hash ^= bytes[i] as u32;
            hash = hash.wrapping_mul(0x0100_0193);
            i += 1;
        }
        Key(hash)
    }
}

/// The [`Key`] of a literal name, computed at compile time:
/// `key!("timed_waits.finding.clamped")`.
#[macro_export]
macro_rules! key {
    ($name:literal) => {{
        const KEY: $crate::text::Key = $crate::text::Key::of($name);
        KEY
    }};
}

/// A catalog key and its arguments. A report keeps what it says as
/// phrases (a run's failure), so its JSON and links carry them too: a
/// phrase read back says itself in whichever language renders it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Phrase {
    /// The entry.
    pub key: Key,
    /// Its placeholders' values, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<(Cow<'static, str>, Arg)>,
}

impl Phrase {
    /// The phrase `key` without arguments.
    pub fn new(key: Key) -> Phrase {
        Phrase {
            key,
            args: Vec::new(),
        }
    }

    /// Text from data shown as it is, as a phrase of its own (the `data`
    /// entry): a name, a browser's error, an older file's sentence.
    pub fn written(text: impl Into<String>) -> Phrase {
        Phrase::new(crate::key!("data")).data("text", text)
    }

    /// Adds an argument.
    pub fn arg(mut self, name: &'static str, value: Arg) -> Phrase {
        self.args.push((Cow::Borrowed(name), value));
        self
    }

    /// Adds a time in ms.
    pub fn ms(self, name: &'static str, value: f64) -> Phrase {
        self.arg(
            name,
            Arg::Ms {
                value,
                marked: false,
            },
        )
    }

    /// Adds a whole number, its digits grouped as the reader's language
    /// groups them ([`crate::lang::Lang::count`]).
    pub fn count(self, name: &'static str, n: impl Into<u64>) -> Phrase {
        self.arg(name, Arg::Count(n.into()))
    }

    /// Adds a whole number as code writes it, digits only: an argument
    /// such as the 1000 of `Thread.Sleep(1000)`.
    pub fn digits(self, name: &'static str, n: impl Into<u64>) -> Phrase {
        self.arg(name, Arg::Data(n.into().to_string()))
    }

    /// Adds a phrase.
    pub fn phrase(self, name: &'static str, p: Phrase) -> Phrase {
        self.arg(name, Arg::Phrase(Box::new(p)))
    }

    /// Adds text from data.
    pub fn data(self, name: &'static str, text: impl Into<String>) -> Phrase {
        self.arg(name, Arg::Data(text.into()))
    }

    /// Adds code.
    pub fn code(self, name: &'static str, code: &'static str) -> Phrase {
        self.arg(name, Arg::Code(Cow::Borrowed(code)))
    }

    /// Every key this phrase uses, its own and its arguments'.
    pub fn keys(&self) -> Vec<Key> {
        let mut out = vec![self.key];
        for (_, a) in &self.args {
            match a {
                Arg::Phrase(p) => out.extend(p.keys()),
                Arg::List(ps) => out.extend(ps.iter().flat_map(Phrase::keys)),
                _ => {}
            }
        }
        out
    }
}

/// A part of a language's texts, one file each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// What the page says before anything has run: headings,
    /// explanations, forms, the environment, the bundled sets beside the
    /// article, notices about the browser.
    Page,
    /// What runs, their results and result links say: progress, findings,
    /// tables and charts of a run, share texts, worker and link errors.
    Runs,
    /// What the comparisons with native numbers say: their headings, chart
    /// and table texts, and the article's stated figures.
    Compare,
}

impl Part {
    /// Every part.
    pub const ALL: [Part; 3] = [Part::Page, Part::Runs, Part::Compare];

    /// The file of `lang`'s texts of this part, relative to `i18n/`.
    pub fn file(self, lang: Lang) -> String {
        match self {
            Part::Page => format!("{}.json", lang.code()),
            Part::Runs => format!("{}.runs.json", lang.code()),
            Part::Compare => format!("{}.compare.json", lang.code()),
        }
    }
}

/// One catalog entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A template.
    Text(String),
    /// Templates by plural category (`other` always among them).
    Plural(Vec<(Plural, String)>),
}

impl Entry {
    /// Its templates.
    pub fn templates(&self) -> Vec<&str> {
        match self {
            Entry::Text(t) => vec![t],
            Entry::Plural(forms) => forms.iter().map(|(_, t)| t.as_str()).collect(),
        }
    }
}

/// The names of `template`'s `{placeholders}`, in order.
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if is_name(&after[..close]) => {
                out.push(&after[..close]);
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The entries of a catalog's JSON file, by name (sorted by it):
/// an object of templates, or of objects of plural forms.
pub fn entries_from_json(json: &str) -> Result<Vec<(String, Entry)>, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let object = value.as_object().ok_or("a catalog is a JSON object")?;
    object
        .iter()
        .map(|(key, v)| {
            let entry = match v {
                serde_json::Value::String(t) => Entry::Text(t.clone()),
                serde_json::Value::Object(forms) => Entry::Plural(
                    forms
                        .iter()
                        .map(|(name, t)| match (Plural::from_name(name), t.as_str()) {
                            (Some(p), Some(t)) => Ok((p, t.to_owned())),
                            _ => Err(format!("{key}: “{name}” is not a plural form of text")),
                        })
                        .collect::<Result<_, String>>()?,
                ),
                _ => return Err(format!("{key}: neither a text nor plural forms")),
            };
            Ok((key.clone(), entry))
        })
        .collect()
}

/// One language's texts.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    lang: Lang,
    entries: BTreeMap<Key, Entry>,
}

impl Catalog {
    /// An empty catalog of `lang`.
    pub fn new(lang: Lang) -> Catalog {
        Catalog {
            lang,
            entries: BTreeMap::new(),
        }
    }

    /// A catalog from its JSON file (`www/i18n/LANG.json`): an object of
    /// templates, or of objects of plural forms. The native probe reads the
    /// English one so; the page lets the browser parse its file.
    pub fn from_json(lang: Lang, json: &str) -> Result<Catalog, String> {
        Catalog::from_parts(lang, &[json])
    }

    /// A catalog of `lang` from the JSON files of its parts (see
    /// [`Part`]): the native probe builds in the English one so, and the
    /// tests read the served ones.
    pub fn from_parts(lang: Lang, parts: &[&str]) -> Result<Catalog, String> {
        let mut catalog = Catalog::new(lang);
        for json in parts {
            for (name, entry) in entries_from_json(json)? {
                catalog.insert(&name, entry);
            }
        }
        Ok(catalog)
    }

    /// Adds (or replaces) the entry named `name`.
    pub fn insert(&mut self, name: &str, entry: Entry) {
        self.entries.insert(Key::of(name), entry);
    }

    /// The English catalog, every part and every experiment's texts, for
    /// the tests (the native probe builds it in itself; core holds no text
    /// of its own).
    #[cfg(test)]
    pub(crate) fn english() -> Catalog {
        let page = [
            include_str!("../../../www/i18n/en.json"),
            include_str!("../../../www/i18n/en.runs.json"),
            include_str!("../../../www/i18n/en.compare.json"),
        ];
        let parts: Vec<&str> = page
            .into_iter()
            .chain(crate::experiments::ENGLISH_TEXTS.iter().copied())
            .collect();
        Catalog::from_parts(Lang::En, &parts).expect("a valid English catalog")
    }

    /// Its language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The entry of `key`.
    pub fn entry(&self, key: Key) -> Option<&Entry> {
        self.entries.get(&key)
    }

    /// The text of `key` without arguments.
    pub fn text(&self, key: Key) -> String {
        self.render(&Phrase::new(key))
    }

    /// `phrase` in this catalog's language. A key the catalog lacks shows
    /// its `fallback` argument if it has one (data's own words), else as
    /// `⟦key⟧` (a test keeps every catalog complete).
    pub fn render(&self, phrase: &Phrase) -> String {
        let count = phrase.args.iter().find_map(|(n, a)| match (n, a) {
            (n, Arg::Count(c)) if n == "count" => Some(*c),
            _ => None,
        });
        let template = match self.entries.get(&phrase.key) {
            Some(Entry::Text(t)) => t.as_str(),
            Some(Entry::Plural(forms)) => {
                let category = self.lang.plural(count.unwrap_or(0));
                forms
                    .iter()
                    .find(|(p, _)| *p == category)
                    .or_else(|| forms.iter().find(|(p, _)| *p == Plural::Other))
                    .map_or("", |(_, t)| t.as_str())
            }
            None => {
                return match phrase.args.iter().find(|(n, _)| n == "fallback") {
                    Some((_, fallback)) => self.format(fallback),
                    None => format!("⟦#{:08x}⟧", phrase.key.0),
                };
            }
        };
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let arg = after.find('}').and_then(|close| {
                let name = &after[..close];
                let (_, value) = phrase.args.iter().find(|(n, _)| n == name)?;
                Some((close, value))
            });
            match arg {
                Some((close, value)) => {
                    out.push_str(&self.format(value));
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// A number written by [`crate::number`] in this language.
    pub fn number(&self, text: &str) -> String {
        self.lang.localize_number(text)
    }

    /// A time in ms as a figure (without the unit).
    pub fn ms(&self, value: f64) -> String {
        self.number(&format_ms(value))
    }

    fn format(&self, arg: &Arg) -> String {
        match arg {
            Arg::Ms { value, marked } => {
                let mut s = self.ms(*value);
                if *marked {
                    s.push('‡');
                }
                s
            }
            Arg::Us(us) => self.number(&fixed(*us, if us.abs() >= 100.0 { 0 } else { 1 })),
            Arg::Count(n) => self.lang.count(*n),
            Arg::Fixed(v, places) => self.number(&fixed(*v, *places)),
            Arg::Code(c) => c.to_string(),
            Arg::Data(d) => d.clone(),
            Arg::Phrase(p) => self.render(p),
            Arg::Date(y, m, d) => self.lang.date(*y, *m, *d),
            Arg::List(ps) => {
                let sep = match self.entries.get(&crate::key!("list.separator")) {
                    Some(Entry::Text(s)) => s.as_str(),
                    _ => ", ",
                };
                ps.iter()
                    .map(|p| self.render(p))
                    .collect::<Vec<_>>()
                    .join(sep)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(lang: Lang, entries: &[(&str, Entry)]) -> Catalog {
        let mut c = Catalog::new(lang);
        for (name, e) in entries {
            c.insert(name, e.clone());
        }
        c
    }

    fn text(s: &str) -> Entry {
        Entry::Text(s.to_owned())
    }

    #[test]
    fn phrases_fill_their_templates() {
        let de = catalog(
            Lang::De,
            &[
                ("took", text("{what} dauerte {t} ms, {n} Mal")),
                ("sleep", text("Thread.Sleep")),
                ("list.separator", text(" / ")),
            ],
        );
        let p = Phrase::new(Key::of("took"))
            .phrase("what", Phrase::new(Key::of("sleep")))
            .arg(
                "t",
                Arg::Ms {
                    value: 15.6,
                    marked: true,
                },
            )
            .count("n", 3u32);
        assert_eq!(de.render(&p), "Thread.Sleep dauerte 15,6‡ ms, 3 Mal");
        assert_eq!(
            de.render(&Phrase::new(Key::of("nope"))),
            format!("⟦#{:08x}⟧", Key::of("nope").0)
        );
        let list = Phrase::new(Key::of("took")).arg(
            "what",
            Arg::List(vec![
                Phrase::new(Key::of("sleep")),
                Phrase::new(Key::of("sleep")),
            ]),
        );
        assert_eq!(
            de.render(&list),
            "Thread.Sleep / Thread.Sleep dauerte {t} ms, {n} Mal"
        );
        assert_eq!(p.keys(), [Key::of("took"), Key::of("sleep")]);
    }

    #[test]
    fn a_count_picks_the_plural_form() {
        let forms = Entry::Plural(vec![
            (Plural::One, "{count} замер".to_owned()),
            (Plural::Few, "{count} замера".to_owned()),
            (Plural::Many, "{count} замеров".to_owned()),
            (Plural::Other, "{count} замера".to_owned()),
        ]);
        let ru = catalog(Lang::Ru, &[("samples", forms)]);
        let n = |c: u64| ru.render(&Phrase::new(Key::of("samples")).count("count", c));
        assert_eq!([n(1), n(3), n(200)], ["1 замер", "3 замера", "200 замеров"]);
        assert_eq!(n(100_000), "100\u{a0}000 замеров");
    }

    #[test]
    fn counts_are_grouped_and_code_is_not() {
        let de = catalog(Lang::De, &[("row", text("{n} × Thread.Sleep({d} ms)"))]);
        let row = Phrase::new(Key::of("row"))
            .count("n", 20_000u32)
            .digits("d", 1000u32);
        assert_eq!(de.render(&row), "20.000 × Thread.Sleep(1000 ms)");
    }

    #[test]
    fn keys_are_fnv1a_of_their_names() {
        // FNV-1a 32 test vectors.
        assert_eq!(Key::of(""), Key(0x811c_9dc5));
        assert_eq!(Key::of("a"), Key(0xe40c_292c));
        assert_eq!(Key::of("foobar"), Key(0xbf9c_f968));
        assert_eq!(crate::key!("foobar"), Key::of("foobar"));
    }

    #[test]
    fn placeholders_are_found() {
        assert_eq!(placeholders("{a} and {b_2}, not { x } or {}"), ["a", "b_2"]);
        assert_eq!(placeholders("setTimeout({d})"), ["d"]);
    }
}
