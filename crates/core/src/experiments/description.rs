//! What one experiment is, said once in its folder ([`Description`]), and
//! how code that handles every experiment alike (the report, the
//! comparison, the CSV, the link) reaches it through [`Experiment`]
//! ([`Visit`]), so that none of it lists the experiments.

use super::{Column, Experiment};
use crate::compare::Measured;
use crate::export::Sample;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::shared_memory::Lacks;
use crate::text::Key;

/// Who an experiment is on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    /// Its name in the schema, the link, the catalogs' prefixes and every
    /// crate's module: `producer_consumer`.
    pub id: &'static str,
    /// The same name as the page's section ids and `?embed=` values spell
    /// it: `producer-consumer`.
    pub slug: &'static str,
    /// Its number on the page, the article's order ("1", "2a", …; the
    /// article's experiment 5 has no browser counterpart).
    pub badge: &'static str,
    /// Its section's heading.
    pub heading: Key,
    /// Its section's explanation, a key per paragraph: what the article
    /// measured, what the browser's counterpart is, and what the native
    /// numbers or the calibration add.
    pub explanation: &'static [Key],
    /// What its progress counts: a phrase of `done` and `count`.
    pub progress: Key,
    /// Its section's bit in a result link's body (`link::encode_body`):
    /// 0-4 and 6 in the first byte, 8 and up in the second.
    pub link_bit: u8,
}

/// One experiment, described by its result type: who it is, where a report
/// keeps it, its comparison columns and rows, its CSV samples, its link
/// section, and what it lacks without shared memory. (Its findings are
/// the result's own `findings`, in the folder's `findings.rs`.)
/// Adding an experiment is its folder with this, and a line in
/// `experiments!`.
pub trait Description: Clone + 'static {
    /// Which experiment it is.
    const EXPERIMENT: Experiment;
    /// Who it is on the page.
    const META: Meta;
    /// What one comparison row measured, which its columns read.
    type Measure;
    /// Its comparison columns, in table order.
    const COLUMNS: &'static [Column<Self::Measure>];
    /// Whether its rows mark unresolved values themselves (a figure that
    /// is not itself a reading of the clock), rather than each value being
    /// checked against the clock.
    const MARKS_ITS_OWN: bool = false;

    /// Its results in `report`.
    fn of(report: &Report) -> Option<&Self>;
    /// Where `report` keeps its results.
    fn slot(report: &mut Report) -> &mut Option<Self>;
    /// Whether it measured anything: a result to show rather than only
    /// the reasons why nothing ran.
    fn measured_anything(&self) -> bool;
    /// Its comparison rows, measured on `env`.
    fn rows(&self, env: &Environment) -> Vec<Measured<Self::Measure>>;
    /// Its CSV lines before the environment's columns.
    fn samples(&self) -> Vec<Sample<'_>>;
    /// Writes its link section.
    fn write(&self, w: &mut Writer);
    /// Reads its link section.
    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError>;
    /// What it lacks without shared memory.
    fn lacks() -> Lacks {
        Lacks::Nothing
    }
}

/// Something done with one experiment's [`Description`], whichever it is
/// ([`Experiment::visit`]). Each use is its own small type, compiled where
/// it is used: a wasm module that only names experiments carries no
/// experiment's rows, CSV or link section.
pub trait Visit {
    /// What it gives.
    type Out;
    /// Does it with `E`.
    fn visit<E: Description>(self) -> Self::Out;
}
