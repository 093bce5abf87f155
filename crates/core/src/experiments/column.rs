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
}
