//! An experiment's configuration ([`Config`]), and `config!`, which
//! declares one from its fields: each field's default, its value in a
//! short run, its form field with its limits, and its limit in a link or
//! message. From that one list come the struct, `Default`, `parse` (the
//! form's texts, checked), [`Config`] with its short run, the [`Form`](crate::field::Form) the
//! page draws, and the bytes a link or a worker message carries.

/// What every layer asks of an experiment's configuration (written for
/// each by `config!`, in its folder's `mod.rs`).
pub trait Config: Default + Clone + PartialEq + Send + Sync + 'static {
    /// The configuration the form starts from and Run all runs, on a
    /// machine of `cores` logical cores.
    fn for_cores(cores: u32) -> Self;
    /// About how long a run of it takes in a browser, ms.
    fn estimated_ms(&self) -> f64;
    /// A short run of it (the native probe's `--quick`, tests).
    fn quick(self) -> Self;
}

/// Declares a configuration of whole-number fields:
///
/// ```text
/// config! {
///     /// Doc of the struct.
///     pub struct NameConfig {
///         /// Doc of a field.
///         field: u32 = DEFAULT, quick(SHORT) form("test-id", "error-name", "label.key", MIN, MAX) link(MOST);
///         seed: u64 = SEED;
///     }
///     for_cores: |cores| …,          // optional: defaults that follow the machine
///     check: |config| …,             // the checks across fields, after each field's own
///     estimate: |config| …,          // about how long a run takes, ms
///     hint: |config| …,              // what is said beside Run
/// }
/// ```
///
/// A field with `form(…)` is a field of the page's form, in declaration
/// order; a `u32` field needs `link(MOST)`, the largest value a link or a
/// worker message may carry; a `u64` (a seed) is carried whole. Fields are
/// written to links in declaration order, so that order is part of the
/// link format.
macro_rules! config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident: $ty:ty = $default:expr $(,
                    $(quick($quick:expr))?
                    $(form($testid:literal, $error:literal, $label:literal, $min:expr, $max:expr))?
                    $(link($most:expr))?
                )?;
            )+
        }
        $(for_cores: $for_cores:expr,)?
        check: $check:expr,
        estimate: $estimate:expr,
        hint: $hint:expr $(,)?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty,)+
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $($field: $default,)+ }
            }
        }

        impl $name {
            /// The configuration of the form's texts, in its fields' order,
            /// or why the reader's values are refused.
            pub fn parse(texts: &[&str]) -> Result<Self, $crate::field::FieldError> {
                let defaults = Self::default();
                let _ = &defaults;
                let mut texts = texts.iter().copied();
                let config = Self {
                    $($field: $crate::experiments::config::config!(
                        @parse texts, defaults.$field $($(, $error, $min, $max)?)?
                    ),)+
                };
                let check: fn(&Self) -> Result<(), $crate::field::FieldError> = $check;
                check(&config)?;
                Ok(config)
            }
        }

        impl $crate::bytes::Bytes for $name {
            fn write(&self, w: &mut $crate::bytes::Writer) {
                $(w.uvar(u64::from(self.$field));)+
            }

            fn read(r: &mut $crate::bytes::Reader) -> Result<Self, $crate::bytes::Damaged> {
                Ok(Self {
                    $($field: $crate::experiments::config::config!(@read r $($(, $most)?)?),)+
                })
            }
        }

        impl $crate::experiments::Config for $name {
            fn for_cores(cores: u32) -> Self {
                $crate::experiments::config::config!(@for_cores cores $(, $for_cores)?)
            }

            fn estimated_ms(&self) -> f64 {
                let estimate: fn(&Self) -> f64 = $estimate;
                estimate(self)
            }

            #[allow(unused_mut)] // for a configuration without a short run
            fn quick(mut self) -> Self {
                $($($(self.$field = $quick;)?)?)+
                self
            }
        }

        impl $crate::field::Form for $name {
            const FIELDS: &'static [$crate::field::FormField<Self>] = &[
                $($($($crate::field::FormField {
                    label: $crate::key!($label),
                    testid: $testid,
                    value: |c| c.$field,
                    min: $min,
                    max: $max,
                },)?)?)+
            ];

            fn from_fields(texts: &[&str]) -> Result<Self, $crate::field::FieldError> {
                Self::parse(texts)
            }

            fn hint(&self) -> $crate::text::Phrase {
                let hint: fn(&Self) -> $crate::text::Phrase = $hint;
                hint(self)
            }
        }

        /// Its form, checked (`field::check_form`).
        #[cfg(test)]
        mod form {
            #[test]
            fn reads_back_its_defaults_and_refuses_the_rest() {
                $crate::field::check_form(super::$name::default());
            }
        }
    };
    (@parse $texts:ident, $default:expr) => {
        $default
    };
    (@parse $texts:ident, $default:expr, $error:literal, $min:expr, $max:expr) => {
        $crate::field::parse($error, $texts.next().unwrap_or(""), $min, $max)?
    };
    (@read $r:ident) => {
        $r.uvar()?
    };
    (@read $r:ident, $most:expr) => {{
        let most: u32 = $most;
        $r.upto(u64::from(most))?
    }};
    (@for_cores $cores:ident) => {{
        let _ = $cores;
        Self::default()
    }};
    (@for_cores $cores:ident, $for_cores:expr) => {{
        let for_cores: fn(u32) -> Self = $for_cores;
        for_cores($cores)
    }};
}

pub(crate) use config;
