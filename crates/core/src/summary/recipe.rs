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

/// The recipes' styles, fetched with their first block (the first load
/// carries none of them).
pub const STYLES: &str = "recipes/recipes.css";

/// The most lines a recipe may have: short enough to read at a glance.
pub const MAX_LINES: usize = 15;

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
    }
}
