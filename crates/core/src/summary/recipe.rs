//! The code to write for each lesson, on three platforms: the browser's
//! JavaScript (the idiom the page's probe measures, with the same calls),
//! Rust (std and tokio, as the native probe uses them) and .NET (the
//! article's platform). Each recipe is a file of the site,
//! `recipes/LESSON.EXT`, which the page fetches and shows as text when
//! the summary or the lesson's section shows, never with the first load;
//! the end-to-end tests import and run the JavaScript ones in three
//! engines, and the native crate's tests compile and run the Rust ones.
//! Beside the code stands a note in the reader's language
//! (`recipe.note.LESSON`) with what the article adds to it.

use super::Lesson;
use crate::text::{Key, Phrase};

/// A platform a recipe is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// The browser: an ES module.
    Js,
    /// Rust with std and tokio.
    Rust,
    /// .NET, in C#.
    Dotnet,
}

impl Platform {
    /// Every platform, in the order the page shows them.
    pub const ALL: [Platform; 3] = [Platform::Js, Platform::Rust, Platform::Dotnet];

    /// Its stable name (`data-platform`, catalog keys).
    pub fn id(self) -> &'static str {
        match self {
            Platform::Js => "js",
            Platform::Rust => "rust",
            Platform::Dotnet => "dotnet",
        }
    }

    /// Its files' extension.
    pub fn extension(self) -> &'static str {
        match self {
            Platform::Js => "js",
            Platform::Rust => "rs",
            Platform::Dotnet => "cs",
        }
    }

    /// Its name, as a tab says it.
    pub fn phrase(self) -> Phrase {
        Phrase::new(Key::of(&format!("recipe.platform.{}", self.id())))
    }
}

/// Where `lesson`'s recipe for `platform` is, relative to the site's root.
pub fn path(lesson: Lesson, platform: Platform) -> String {
    format!("recipes/{}.{}", lesson.id(), platform.extension())
}

/// What the article adds to `lesson`'s code, in words.
pub fn note(lesson: Lesson) -> Phrase {
    Phrase::new(Key::of(&format!("recipe.note.{}", lesson.id())))
}

/// Where a lesson's JavaScript recipe runs, which its block says above
/// the code (and the file's first line, in English).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunsOn {
    /// Any page, any worker.
    Anywhere,
    /// A worker, of any page.
    Worker,
    /// A cross-origin isolated page (its shared memory).
    IsolatedPage,
    /// A worker of a cross-origin isolated page (it blocks on shared
    /// memory).
    IsolatedWorker,
    /// A half for any page and a shared-memory half for an isolated one.
    AnywhereOrIsolated,
}

impl RunsOn {
    /// Its stable name (catalog keys `recipe.runs.ID`).
    pub fn id(self) -> &'static str {
        match self {
            RunsOn::Anywhere => "any",
            RunsOn::Worker => "worker",
            RunsOn::IsolatedPage => "isolated",
            RunsOn::IsolatedWorker => "isolated_worker",
            RunsOn::AnywhereOrIsolated => "any_or_isolated",
        }
    }

    /// Where it runs, in words.
    pub fn phrase(self) -> Phrase {
        Phrase::new(Key::of(&format!("recipe.runs.{}", self.id())))
    }
}

/// Where `lesson`'s JavaScript recipe runs: what an ordinary page (no
/// isolation headers) lacks is shared memory, which three of them need.
/// (The native crate's `recipes` test holds each file's first line to it.)
pub fn runs_on(lesson: Lesson) -> RunsOn {
    use crate::experiments::{hidden_tab, main_starvation, spin_ladder, wake_latency};
    match lesson.id() {
        main_starvation::lessons::NEVER_BLOCK_MAIN => RunsOn::IsolatedPage,
        spin_ladder::lessons::SPIN_BRIEFLY => RunsOn::IsolatedWorker,
        wake_latency::lessons::SIGNAL_DONT_POLL => RunsOn::AnywhereOrIsolated,
        hidden_tab::lessons::KEEP_TIME_HIDDEN => RunsOn::Worker,
        _ => RunsOn::Anywhere,
    }
}

/// The recipes' styles, fetched with their first block (the first load
/// carries none of them).
pub const STYLES: &str = "recipes/recipes.css";

/// The most lines a recipe may have: short enough to read at a glance,
/// with room for a first line that says where it runs and, where it needs
/// what an ordinary page lacks, a guard that says so at once.
pub const MAX_LINES: usize = 22;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lesson's note and every tab has its words (the files
    /// themselves are checked by the native crate's `recipes` test).
    #[test]
    fn every_recipe_has_its_words() {
        let en = crate::text::Catalog::english();
        for lesson in Lesson::all() {
            assert!(!en.render(&note(lesson)).contains('⟦'), "{lesson:?}");
            assert_eq!(
                path(lesson, Platform::Rust),
                format!("recipes/{}.rs", lesson.id())
            );
        }
        for platform in Platform::ALL {
            assert!(!en.render(&platform.phrase()).contains('⟦'));
        }
        for lesson in Lesson::all() {
            assert!(!en.render(&runs_on(lesson).phrase()).contains('⟦'));
        }
    }
}
