//! An experiment's comparison columns: each an id, a unit and how a row's
//! value is read from what the row measured.

use crate::value::{Unit, Value};

/// A comparison column as every experiment's table and chart read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Stable identifier, used by stated figures and the catalogs'
    /// `column.EXPERIMENT.ID` headers.
    pub id: &'static str,
    /// The unit of its values.
    pub unit: Unit,
    /// Whether the comparison chart plots it (every charted column of an
    /// experiment shares one axis: times, or ratios).
    pub charted: bool,
    /// Whether the chart plots it instead of the charted columns where a
    /// source measured rows but none with a charted value: a time where
    /// the charted column is a ratio to a row that source could not
    /// measure (`compare::chart_columns`).
    pub instead: bool,
}

/// One column of an experiment whose rows measure an `M`: its [`Spec`]
/// and how a row's value is read from its measure.
pub struct Column<M> {
    /// What the column is.
    pub spec: Spec,
    /// Its value in a row that measured `M`.
    pub value: fn(&M) -> Value,
}

impl<M> Column<M> {
    const fn new(id: &'static str, unit: Unit, value: fn(&M) -> Value) -> Self {
        Column {
            spec: Spec {
                id,
                unit,
                charted: false,
                instead: false,
            },
            value,
        }
    }

    /// A column of milliseconds.
    pub const fn ms(id: &'static str, value: fn(&M) -> Value) -> Self {
        Self::new(id, Unit::Ms, value)
    }

    /// A column of microseconds.
    pub const fn us(id: &'static str, value: fn(&M) -> Value) -> Self {
        Self::new(id, Unit::Us, value)
    }

    /// A column of nanoseconds.
    pub const fn ns(id: &'static str, value: fn(&M) -> Value) -> Self {
        Self::new(id, Unit::Ns, value)
    }

    /// A column of ratios.
    pub const fn times(id: &'static str, value: fn(&M) -> Value) -> Self {
        Self::new(id, Unit::Times, value)
    }

    /// A column of counts.
    pub const fn count(id: &'static str, value: fn(&M) -> Value) -> Self {
        Self::new(id, Unit::Count, value)
    }

    /// The same column, plotted by the comparison chart.
    pub const fn charted(mut self) -> Self {
        self.spec.charted = true;
        self
    }

    /// The same column, plotted instead of the charted ones where a
    /// source has none of their values ([`Spec::instead`]).
    pub const fn charted_instead(mut self) -> Self {
        self.spec.instead = true;
        self
    }
}
