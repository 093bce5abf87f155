//! What one experiment is, said once in its folder ([`Description`]), and
//! the same seen through [`Experiment`] by code that handles every
//! experiment alike (the report, the comparison, the CSV, the link), so
//! that none of it lists the experiments.

use super::{Column, Experiment, Spec};
use crate::compare::{Measured, Row};
use crate::export::Sample;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::shared_memory::Lacks;
use crate::text::Key;
use std::marker::PhantomData;

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

/// An experiment's [`Description`] with its types erased, so that code
/// handling every experiment alike reaches it through [`Experiment`].
pub(crate) trait Slice: Sync {
    fn meta(&self) -> &'static Meta;
    fn columns(&self) -> Vec<Spec>;
    fn has(&self, report: &Report) -> bool;
    fn measured_anything(&self, report: &Report) -> bool;
    fn copy(&self, from: &Report, to: &mut Report);
    fn rows(&self, report: &Report) -> Option<Vec<Row>>;
    fn marks_its_own(&self) -> bool;
    fn samples<'a>(&self, report: &'a Report) -> Vec<Sample<'a>>;
    fn write(&self, report: &Report, w: &mut Writer);
    fn read(&self, r: &mut Reader<'_>, into: &mut Report) -> Result<(), LinkError>;
    fn lacks(&self) -> Lacks;
}

/// The [`Slice`] of `E`.
pub(crate) struct Of<E>(pub(crate) PhantomData<fn() -> E>);

impl<E: Description> Slice for Of<E> {
    fn meta(&self) -> &'static Meta {
        &E::META
    }

    fn columns(&self) -> Vec<Spec> {
        E::COLUMNS.iter().map(|c| c.spec).collect()
    }

    fn has(&self, report: &Report) -> bool {
        E::of(report).is_some()
    }

    fn measured_anything(&self, report: &Report) -> bool {
        E::of(report).is_some_and(E::measured_anything)
    }

    fn copy(&self, from: &Report, to: &mut Report) {
        *E::slot(to) = E::of(from).cloned();
    }

    fn rows(&self, report: &Report) -> Option<Vec<Row>> {
        let rows = E::of(report)?.rows(&report.env);
        Some(
            rows.into_iter()
                .map(|m| Row {
                    values: m.measure.as_ref().map_or_else(Vec::new, |measure| {
                        E::COLUMNS.iter().map(|c| (c.value)(measure)).collect()
                    }),
                    what: m.what,
                    analogue: m.analogue,
                    notes: m.notes,
                    requested_ms: m.requested_ms,
                })
                .collect(),
        )
    }

    fn marks_its_own(&self) -> bool {
        E::MARKS_ITS_OWN
    }

    fn samples<'a>(&self, report: &'a Report) -> Vec<Sample<'a>> {
        E::of(report).map_or_else(Vec::new, E::samples)
    }

    fn write(&self, report: &Report, w: &mut Writer) {
        if let Some(e) = E::of(report) {
            e.write(w);
        }
    }

    fn read(&self, r: &mut Reader<'_>, into: &mut Report) -> Result<(), LinkError> {
        *E::slot(into) = Some(E::read(r)?);
        Ok(())
    }

    fn lacks(&self) -> Lacks {
        E::lacks()
    }
}
