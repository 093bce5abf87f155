//! How a comparison tells its sources apart: a colour each (the
//! stylesheet's `src-0` …) and its origin's id.

use waitlab_core::compare::Origin;

/// Colours in the stylesheet (`src-0` …).
pub(super) const COLOURS: usize = 8;

pub(super) fn origin_id(origin: Origin) -> &'static str {
    match origin {
        Origin::Browser => "browser",
        Origin::Native => "native",
        Origin::Stated => "stated",
        Origin::Linked => "shared",
        Origin::Engine => "engine",
    }
}
