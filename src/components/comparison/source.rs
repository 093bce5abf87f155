//! How a comparison tells its sources apart: a colour each (the
//! stylesheet's `src-0` …), a letter that its chart, legend, table and
//! sentences repeat (colour is never the only cue), and its origin's id.

use leptos::prelude::*;
use waitlab_core::compare::Origin;

/// Colours in the stylesheet (`src-0` …).
pub(super) const COLOURS: usize = 8;

/// What marks one source of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Tag {
    /// Its colour: 0 this browser's run, a bundled set's 1 + its index,
    /// a linked run's after those.
    pub(super) colour: usize,
    /// Its letter, by its place in the comparison.
    pub(super) letter: char,
}

impl Tag {
    /// The stylesheet's class of its colour.
    pub(super) fn class(self) -> String {
        format!("src-{}", self.colour % COLOURS)
    }

    /// Its swatch and letter (in the ink's colour, readable on any
    /// scheme), before its name.
    pub(super) fn swatch(self) -> impl IntoView {
        view! {
            <span class=format!("swatch {}", self.class())></span>
            <span class="source-letter" aria-hidden="true">{self.letter}</span>
        }
    }
}

pub(super) fn origin_id(origin: Origin) -> &'static str {
    match origin {
        Origin::Browser => "browser",
        Origin::Native => "native",
        Origin::Stated => "stated",
        Origin::Linked => "shared",
        Origin::Engine => "engine",
    }
}
