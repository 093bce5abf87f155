//! `cargo xtask bench`'s page weight: what a first load transfers (gzip -9
//! and brotli -q 11 of every file), the gates on it, and where the wasm's
//! bytes go (twiggy, before wasm-opt, with names kept).

use crate::tools::{self, find_in};
use crate::{Result, root, run, split};
use std::path::{Path, PathBuf};
use std::process::Command;
use waitlab_core::experiments::Experiment;
use waitlab_core::lang::Lang;
use waitlab_core::link::set::{self, INDEX_PATH};
use waitlab_core::summary::Lesson;
use waitlab_core::summary::recipe::{self, Platform};
use waitlab_core::text::Part;

/// Budget for everything a first load of the full page transfers, bytes
/// of gzip -9, in every language. 200 KB until the first screen began to
/// answer (Run all and its way to one experiment at the top, the summary's
/// place and a shared link's landing, an embed's isolation detected):
/// those cost about 3 KB of the main module, which nothing else could
/// give back at once. 205 KB since reports keep phrases rather than
/// sentences (a run's failure said in each reader's language: phrases
/// serialize, their argument names are `Cow`, and links carry them), about
/// 0.6 KB of the main module; the provenance's words in six languages took
/// the last 0.4 KB of the 204 (Russian, the largest, is 209,146 B). 210 KB
/// since the tenth experiment (a hidden tab): 3.4 KB in English, its
/// section's words in the shell (0.5 KB) and the page's texts (0.8 KB),
/// and about 2 KB of the main module (one more experiment in each list
/// the first load reaches: links, comparisons, forms' places); Russian,
/// the largest, is 213,189 B.
const FULL_PAGE_BUDGET: u64 = 210 * 1024;
/// Budget for an embed of one experiment: its first screen, which fetches
/// the app when the reader presses Run.
const EMBED_BUDGET: u64 = 180 * 1024;
/// Budget for what the languages add to a reader's first load over an
/// English-only build of the same page (see [`LanguageCost`]).
const LANGUAGE_BUDGET: u64 = 10 * 1024;
/// The code that exists for the languages, by the paths of its items in
/// the app's wasm (names kept): catalogs and their rendering, the plural
/// rules, numbers by locale, loading the texts, the reader's language and
/// its picker.
const LANGUAGE_CODE: [&str; 5] = [
    "waitlab_core::text::",
    "waitlab_core::lang::",
    "waitlab_browser::catalog::",
    "waitlab::i18n::",
    "waitlab::pages::home::LanguagePicker",
];

/// What the languages cost a reader's first load, against an English-only
/// build of the same page: that build would carry the English texts (both
/// parts) in its wasm and none of the languages' code; this one carries the
/// code and fetches the page's part of the reader's catalog. The code's
/// bytes are its items' share of the wasm before wasm-opt (twiggy), applied
/// to the shipped wasm's gzip: an estimate, since code inlined into its
/// callers is not counted and gzip is not additive.
pub struct LanguageCost {
    /// The share of the app's wasm in [`LANGUAGE_CODE`]'s items.
    code_share: f64,
}

/// One file's sizes.
struct Sizes {
    raw: u64,
    gzip: u64,
    brotli: u64,
}

impl Sizes {
    fn add(&mut self, other: &Sizes) {
        self.raw += other.raw;
        self.gzip += other.gzip;
        self.brotli += other.brotli;
    }
}

fn compressed(file: &Path, program: &str, args: &[&str]) -> Result<u64> {
    let out = Command::new(program)
        .args(args)
        .arg(file)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} failed on {}", file.display()));
    }
    Ok(out.stdout.len() as u64)
}

fn sizes(file: &Path) -> Result<Sizes> {
    Ok(Sizes {
        raw: std::fs::metadata(file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .len(),
        gzip: compressed(file, "gzip", &["-9", "-c"])?,
        brotli: compressed(file, "brotli", &["-q", "11", "-c"])?,
    })
}

/// Where `part` of `lang`'s texts is in `dist`.
fn texts(dist: &Path, lang: Lang, part: Part) -> PathBuf {
    dist.join("i18n").join(part.file(lang))
}

/// The folder of the app's chunks in `dist` (`app-<hash>-split`).
fn chunk_folder(dist: &Path) -> Result<PathBuf> {
    Ok(dist.join(split::folder_beside(&find_in(dist, "app.js")?)?))
}

/// The chunks that the split points `splits` fetch (each chunk once) and
/// those of `before` did not, as the last split's manifest lists them: a
/// reader who reaches a form fetches its chunks; a first run of that
/// experiment then its runner's, and once it ends the results'; a reader
/// who reaches a comparison the comparisons'.
fn chunks_of(dist: &Path, splits: &[&str], before: &[&str]) -> Result<Vec<PathBuf>> {
    let mut had: Vec<String> = Vec::new();
    for &split in before {
        had.extend(split_chunks(split)?);
    }
    let mut names: Vec<String> = Vec::new();
    for &split in splits {
        for name in split_chunks(split)? {
            if !names.contains(&name) && !had.contains(&name) {
                names.push(name);
            }
        }
    }
    let folder = chunk_folder(dist)?;
    Ok(names
        .iter()
        .map(|c| folder.join(format!("{c}.wasm")))
        .collect())
}

/// The chunks that the split point `split` fetches, as the last split's
/// manifest lists them.
fn split_chunks(split: &str) -> Result<Vec<String>> {
    let manifest = split::manifest(true);
    let listed = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("{}: {e} (the split's manifest)", manifest.display()))?;
    let names = listed
        .lines()
        .find_map(|line| line.strip_prefix(split)?.strip_prefix(' '))
        .ok_or_else(|| format!("{} lists no chunks for {split}", manifest.display()))?;
    Ok(names.split(' ').map(str::to_owned).collect())
}

/// What the app is before it works, wherever it starts: its glue and
/// wasm, the chunks' loader (the glue imports it) and the bundled sets'
/// index.
fn app(dist: &Path) -> Result<Vec<PathBuf>> {
    let mut files = vec![find_in(dist, "app.js")?, find_in(dist, "app_bg.wasm")?];
    files.push(chunk_folder(dist)?.join("split.js"));
    files.push(dist.join(INDEX_PATH));
    Ok(files)
}

/// The files a first load of the full page transfers: `index.html` with
/// its static shell, its scripts, the style, the page's texts in `lang`,
/// and the app.
fn first_load(dist: &Path, lang: Lang) -> Result<Vec<PathBuf>> {
    let mut files = vec![
        dist.join("index.html"),
        dist.join("head.js"),
        find_in(dist, "start.js")?,
        texts(dist, lang, Part::Page),
        find_in(dist, "style.css")?,
    ];
    files.extend(app(dist)?);
    Ok(files)
}

/// The files an embed's first screen transfers (`embed.html`, its
/// script, the style and the page's texts in `lang`): the app comes when
/// the reader presses Run.
fn embed_screen(dist: &Path, lang: Lang) -> Result<Vec<PathBuf>> {
    Ok(vec![
        dist.join("embed.html"),
        dist.join("head.js"),
        dist.join("embed.js"),
        find_in(dist, "style.css")?,
        texts(dist, lang, Part::Page),
    ])
}

/// Gzip -9 of `files`, in all.
fn gzip_total(files: &[PathBuf]) -> Result<u64> {
    files
        .iter()
        .map(|f| compressed(f, "gzip", &["-9", "-c"]))
        .sum()
}

/// Of `candidates`, the one whose files weigh the most (gzip -9): their
/// total, the files and the candidate.
fn heaviest<T: Copy>(
    candidates: impl IntoIterator<Item = T>,
    files_of: impl Fn(T) -> Result<Vec<PathBuf>>,
) -> Result<(u64, Vec<PathBuf>, T)> {
    let mut most: Option<(u64, Vec<PathBuf>, T)> = None;
    for candidate in candidates {
        let files = files_of(candidate)?;
        let gzip = gzip_total(&files)?;
        if most.as_ref().is_none_or(|m| gzip > m.0) {
            most = Some((gzip, files, candidate));
        }
    }
    most.ok_or_else(|| "nothing to weigh".into())
}

/// The bundled sets' packs for `experiments` (as the built index lists
/// them), which the page fetches when the reader first reaches a
/// comparison.
fn packs(dist: &Path, experiments: &[Experiment]) -> Result<Vec<PathBuf>> {
    let index = dist.join(INDEX_PATH);
    let packed = std::fs::read(&index).map_err(|e| format!("{}: {e}", index.display()))?;
    let inflated = miniz_oxide::inflate::decompress_to_vec(&packed)
        .map_err(|_| format!("{} does not inflate", index.display()))?;
    let sets = set::decode_index(&inflated).map_err(|e| format!("{}: {e}", index.display()))?;
    let mut files = Vec::new();
    for s in &sets {
        for e in s.experiments.iter().filter(|e| experiments.contains(e)) {
            files.push(dist.join(set::part_path(&s.set, *e)));
        }
    }
    Ok(files)
}

/// Prints a table of `files` and returns their gzip total.
fn table(title: &str, dist: &Path, files: &[PathBuf]) -> Result<u64> {
    println!("  {title}");
    let row = |name: &str, s: &Sizes| {
        println!("    {name:<40} {:>9} {:>9} {:>9}", s.raw, s.gzip, s.brotli);
    };
    let zero = || Sizes {
        raw: 0,
        gzip: 0,
        brotli: 0,
    };
    // Many small files are one row each kind: the wasm chunks, the packs.
    let (mut total, mut chunks, mut packs) = (zero(), zero(), zero());
    let (mut chunk_count, mut pack_count) = (0, 0);
    for file in files {
        let s = sizes(file)?;
        total.add(&s);
        let name = file
            .strip_prefix(dist)
            .unwrap_or(file)
            .display()
            .to_string();
        if name.starts_with("data/") {
            pack_count += 1;
            packs.add(&s);
        } else if name.contains("-split/") && name.ends_with(".wasm") {
            chunk_count += 1;
            chunks.add(&s);
        } else {
            row(&name, &s);
        }
    }
    row(&format!("{chunk_count} wasm chunks"), &chunks);
    row(&format!("{pack_count} native packs"), &packs);
    row("total", &total);
    Ok(total.gzip)
}

/// Gzip -9 of the English texts of both parts, as an English-only build
/// would hold them: every template, back to back, without names or JSON.
fn english_texts(dist: &Path) -> Result<u64> {
    let mut all = String::new();
    for part in Part::ALL {
        let file = texts(dist, Lang::En, part);
        let json =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let entries = waitlab_core::text::entries_from_json(&json)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        for (_, entry) in &entries {
            entry.templates().iter().for_each(|t| all.push_str(t));
        }
    }
    let out = root().join("target/bench-wasm/english-texts.txt");
    std::fs::write(&out, all).map_err(|e| format!("{}: {e}", out.display()))?;
    compressed(&out, "gzip", &["-9", "-c"])
}

/// Prints what a first load transfers; returns the gates it failed.
pub fn report(dist: &Path, languages: &LanguageCost) -> Result<Vec<String>> {
    println!("== page weight: bytes raw, gzip -9, brotli -q 11 ==");
    let mut failed = Vec::new();
    let full = table(
        "full page in English, first load",
        dist,
        &first_load(dist, Lang::En)?,
    )?;
    let gate = |what: &str, got: u64, budget: u64, failed: &mut Vec<String>| {
        let verdict = if got <= budget { "ok" } else { "OVER" };
        println!(
            "    {what}: {:.1} KB gzip, budget {:.1} KB: {verdict}",
            got as f64 / 1024.0,
            budget as f64 / 1024.0
        );
        if got > budget {
            failed.push(format!("{what} {got} B gzip over {budget} B"));
        }
    };
    gate("full page", full, FULL_PAGE_BUDGET, &mut failed);
    let gz = |f: &Path| compressed(f, "gzip", &["-9", "-c"]);
    let wasm = gz(&find_in(dist, "app_bg.wasm")?)?;
    let code = (languages.code_share * wasm as f64).round() as u64;
    let inline = english_texts(dist)?;
    println!("  the languages: first load of the full page in each, and what languages add");
    println!(
        "    (over an English-only build: their code, {:.1} % of the app wasm, ~{code} B, \
         plus the reader's page texts, less the English texts such a build carries, {inline} B)",
        100.0 * languages.code_share
    );
    for lang in Lang::ALL {
        let total = gzip_total(&first_load(dist, lang)?)?;
        let catalog = gz(&texts(dist, lang, Part::Page))?;
        let runs = gz(&texts(dist, lang, Part::Runs))?;
        let added = (code + catalog).saturating_sub(inline);
        println!(
            "    {:<4} {total:>9} B in all, page's texts {catalog:>6} B, languages add {added:>6} B \
             (runs' texts {runs:>5} B at the first Run)",
            lang.code()
        );
        gate(
            &format!("languages for a reader of {}", lang.code()),
            added,
            LANGUAGE_BUDGET,
            &mut failed,
        );
        // The full page's budget holds for every reader, not only an
        // English one (English's is gated above, with its table).
        if lang != Lang::En {
            gate(
                &format!("full page for a reader of {}", lang.code()),
                total,
                FULL_PAGE_BUDGET,
                &mut failed,
            );
        }
    }
    // An embed's first screen, in its heaviest language.
    let screen = heaviest(Lang::ALL, |lang| embed_screen(dist, lang))?;
    let shown = table(
        &format!(
            "embed, first screen in {} (the heaviest language): embed.html, its script, the \
             style and the page's texts",
            screen.2.code()
        ),
        dist,
        &screen.1,
    )?;
    gate("embed", shown, EMBED_BUDGET, &mut failed);
    // Pressing Run in an embed fetches the app and the section's form at
    // once; the heaviest form is the one reported. It transfers no more
    // than the full page does by the time its reader has reached the same
    // form.
    let form = |e: Experiment| format!("form_{}", e.id());
    let pressed = heaviest(Experiment::ALL, |e| {
        let mut files = embed_screen(dist, Lang::En)?;
        files.extend(app(dist)?);
        files.extend(chunks_of(dist, &[&form(e)], &[])?);
        Ok(files)
    })?;
    let after_press = table(
        &format!(
            "embed of {} (the heaviest) once Run is pressed: its first screen, the app and the \
             form's chunks",
            pressed.2.slug()
        ),
        dist,
        &pressed.1,
    )?;
    let its_form = gzip_total(&chunks_of(dist, &[&form(pressed.2)], &[])?)?;
    gate(
        "embed once Run is pressed, against the full page with the same form",
        after_press,
        full + its_form,
        &mut failed,
    );
    let worker = ["worker_loader.js", "worker.js", "worker_bg.wasm"]
        .into_iter()
        .map(|pattern| find_in(dist, pattern))
        .collect::<Result<Vec<_>>>()?;
    // The reader has reached the form before the first Run: its chunks are
    // in already.
    let first_run = |e: Experiment| -> Result<Vec<PathBuf>> {
        let mut files = worker.clone();
        files.push(texts(dist, Lang::En, Part::Runs));
        files.extend(chunks_of(dist, &[e.id(), "results"], &[&form(e)])?);
        Ok(files)
    };
    let (_, run_files, run_of) = heaviest(Experiment::ALL, first_run)?;
    table(
        &format!(
            "loaded at the first Run of {} (the heaviest): the probe worker, the texts of runs \
             (English), the runner's chunks, and as it ends the results' (views, share bars)",
            run_of.slug()
        ),
        dist,
        &run_files,
    )?;
    let forms: Vec<String> = Experiment::ALL.into_iter().map(form).collect();
    let forms: Vec<&str> = forms.iter().map(String::as_str).collect();
    table(
        "loaded as the reader reaches each section's form (below the first screen): every form's \
         chunks",
        dist,
        &chunks_of(dist, &forms, &[])?,
    )?;
    // A comparison is below its section's form.
    let mut reached = chunks_of(dist, &["comparisons"], &[&form(Experiment::TimedWaits)])?;
    reached.push(texts(dist, Lang::En, Part::Compare));
    reached.extend(packs(dist, &Experiment::ALL)?);
    table(
        "loaded when the reader first reaches a comparison (below the first form): the \
         comparisons' texts (English) and chunks (with the reader of links and packs) and the \
         sets' parts (an embed fetches its experiment's only)",
        dist,
        &reached,
    )?;
    // A lesson's code comes when its block is first opened, in the
    // summary or a section, after a run: none of it is in a first load.
    let (_, recipe, lesson) = heaviest(Lesson::all(), |lesson| {
        let mut files = vec![dist.join(recipe::STYLES)];
        files.extend(Platform::ALL.map(|p| dist.join(recipe::path(lesson, p))));
        Ok(files)
    })?;
    table(
        &format!(
            "loaded when a lesson's code is first opened ({}, the heaviest): its three recipes \
             and their styles",
            lesson.id()
        ),
        dist,
        &recipe,
    )?;
    Ok(failed)
}

/// Prints the largest contributors of the app's and the worker's wasm,
/// by crate and by function, from the release build before wasm-opt, and
/// returns the languages' share of the app's.
pub fn contributors() -> Result<LanguageCost> {
    let twiggy = tools::ensure_twiggy()?;
    tools::ensure_build_tools()?;
    let wasm_bindgen = tools::wasm_bindgen();
    let release = root().join("target/wasm32-unknown-unknown/release");
    let out = root().join("target/bench-wasm");
    let mut languages = LanguageCost { code_share: 0.0 };
    for bin in ["app", "worker"] {
        run(Command::new(&wasm_bindgen)
            .args(["--target", "no-modules", "--out-dir"])
            .arg(&out)
            .arg(release.join(format!("{bin}.wasm"))))?;
        let wasm = out.join(format!("{bin}_bg.wasm"));
        let csv = Command::new(&twiggy)
            .args(["top", "-n", "1000000", "--format", "csv"])
            .arg(&wasm)
            .output()
            .map_err(|e| format!("twiggy: {e}"))?;
        let text = String::from_utf8_lossy(&csv.stdout);
        let mut by_crate: Vec<(String, u64)> = Vec::new();
        let mut items: Vec<(u64, String)> = Vec::new();
        for line in text.lines().skip(1) {
            let Some((name, size)) = split_row(line) else {
                continue;
            };
            if name.starts_with("custom section") || name.contains("subsection") {
                continue;
            }
            let krate = crate_of(&name);
            match by_crate.iter_mut().find(|(k, _)| *k == krate) {
                Some((_, total)) => *total += size,
                None => by_crate.push((krate, size)),
            }
            items.push((size, name));
        }
        let total: u64 = by_crate.iter().map(|(_, s)| s).sum();
        if bin == "app" {
            let code: u64 = items
                .iter()
                .filter(|(_, name)| LANGUAGE_CODE.iter().any(|p| name.contains(p)))
                .map(|(size, _)| size)
                .sum();
            languages.code_share = code as f64 / total as f64;
        }
        by_crate.sort_by_key(|(_, size)| std::cmp::Reverse(*size));
        items.sort_by_key(|(size, _)| std::cmp::Reverse(*size));
        println!("== where {bin}_bg.wasm's {total} bytes go (before wasm-opt, code and data) ==");
        for (krate, size) in by_crate.iter().take(12) {
            println!(
                "    {krate:<32} {size:>8} {:>5.1} %",
                100.0 * *size as f64 / total as f64
            );
        }
        println!("  largest items:");
        for (size, name) in items.iter().take(8) {
            let short: String = name.chars().take(110).collect();
            println!("    {size:>8}  {short}");
        }
        if bin == "app" {
            println!(
                "  the languages' code ({}): {:.1} %",
                LANGUAGE_CODE.join(", "),
                100.0 * languages.code_share
            );
        }
    }
    Ok(languages)
}

/// `name,shallow,…` of twiggy's CSV, the name possibly quoted.
fn split_row(line: &str) -> Option<(String, u64)> {
    let (name, rest) = match line.strip_prefix('"') {
        Some(quoted) => {
            let end = quoted.find("\",")?;
            (quoted[..end].replace("\"\"", "\""), &quoted[end + 2..])
        }
        None => {
            let (n, r) = line.split_once(',')?;
            (n.to_owned(), r)
        }
    };
    Some((name, rest.split(',').next()?.parse().ok()?))
}

/// The crate an item belongs to: its path's first segment, past any
/// `<impl …` or generic wrapper; data segments and wasm's own sections by
/// their kind.
fn crate_of(name: &str) -> String {
    if name.starts_with("data segment") {
        return "(data: strings and tables)".to_owned();
    }
    let name = name.trim_start_matches(['<', '&', ' ']);
    let name = name.strip_prefix("mut ").unwrap_or(name);
    let segment: String = name
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    match segment.as_str() {
        "" | "code" | "elem" | "type" | "table" | "import" | "export" | "global" | "memory" => {
            "(wasm structure)".to_owned()
        }
        "T" | "F" | "I" => "(generic impls)".to_owned(),
        s => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn twiggy_rows_and_crates() {
        assert_eq!(
            super::split_row("\"<a as b>::c,d\",120,0.1,,"),
            Some(("<a as b>::c,d".to_owned(), 120))
        );
        assert_eq!(super::split_row("x::y,7,1.0"), Some(("x::y".to_owned(), 7)));
        assert_eq!(super::crate_of("<tachys::html::X as Y>::build"), "tachys");
        assert_eq!(super::crate_of("core[abc]::fmt::write"), "core");
        assert_eq!(
            super::crate_of("data segment \".rodata\""),
            "(data: strings and tables)"
        );
    }
}
