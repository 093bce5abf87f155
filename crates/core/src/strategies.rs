//! `strategies!`: the ways one experiment waits, the page's and the native
//! probe's, as one enum with what every such enum has: its variants in
//! display order (`BROWSER`, `NATIVE`, `every`), a one-byte wire code
//! (its position in `every`, which only ever grows at its end), a stable
//! id (its name in reports and links' JSON) and its label in the catalogs
//! (its prefix, then its id: `wake_latency.strategy.spin_until`); and its
//! `Way`, by which an experiment names what it `Tried`.

use crate::text::Phrase;

/// A way of waiting an experiment compares (its strategies, written by
/// `strategies!`).
pub trait Way: Copy + 'static {
    /// How many there are, the page's and the native probe's.
    const COUNT: usize;
    /// The page's, in display order.
    const BROWSER: &'static [Self];
    /// Its one-byte code on the wire (links, the worker protocol).
    fn code(self) -> u8;
    /// The one of a wire code, if there is one.
    fn from_code(code: u8) -> Option<Self>;
    /// Its id.
    fn id(self) -> &'static str;
    /// How the page names it.
    fn label(self) -> Phrase;
    /// What it stands for in the article.
    fn analogue(self) -> Phrase;
}

/// Declares a strategy enum: its doc, name and catalog prefix (ending in
/// `.`), then its
/// page's variants and its native probe's, each with its doc and id.
macro_rules! strategies {
    (
        $(#[$doc:meta])*
        pub enum $name:ident in $prefix:literal {
            browser { $($(#[$bdoc:meta])* $b:ident = $bid:literal,)+ }
            native { $($(#[$ndoc:meta])* $n:ident = $nid:literal,)* }
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $($(#[$bdoc])* #[serde(rename = $bid)] $b,)+
            $($(#[$ndoc])* #[serde(rename = $nid)] $n,)*
        }

        impl $name {
            /// The page's, in display order.
            pub const BROWSER: [$name; [$($bid),+].len()] = [$($name::$b),+];

            /// The native probe's, in display order.
            pub const NATIVE: [$name; <[&str]>::len(&[$($nid),*])] = [$($name::$n),*];

            /// Every one, the page's then the native probe's (links code
            /// one as its position here, which only ever grows at its end).
            pub fn every() -> impl Iterator<Item = $name> {
                $name::BROWSER.into_iter().chain($name::NATIVE)
            }

            /// Its one-byte code on the wire (links, the worker protocol).
            pub fn code(self) -> u8 {
                $name::every().position(|x| x == self).unwrap_or(0) as u8
            }

            /// The one of a wire code, if there is one.
            pub fn from_code(code: u8) -> Option<$name> {
                $name::every().nth(usize::from(code))
            }

            /// Stable identifier.
            pub fn id(self) -> &'static str {
                match self {
                    $($name::$b => $bid,)+
                    $($name::$n => $nid,)*
                }
            }

            /// What the code looks like.
            pub fn label(self) -> $crate::text::Phrase {
                $crate::text::Phrase::new($crate::text::Key::of(&format!(
                    concat!($prefix, "{}"),
                    self.id()
                )))
            }

            /// How a wait of it shows on a timeline: its kind (holding
            /// its thread or not, [`Self::holds_thread`]) and its name.
            pub fn timeline(self) -> ($crate::trace::Kind, $crate::trace::Name) {
                ($crate::trace::Kind::waiting(self.holds_thread()), $crate::trace::Name::of(self.label().key))
            }
        }

        impl $crate::strategies::Way for $name {
            const COUNT: usize = <[&str]>::len(&[$($bid,)+ $($nid),*]);
            const BROWSER: &'static [$name] = &$name::BROWSER;

            fn code(self) -> u8 {
                $name::code(self)
            }

            fn from_code(code: u8) -> Option<$name> {
                $name::from_code(code)
            }

            fn id(self) -> &'static str {
                $name::id(self)
            }

            fn label(self) -> $crate::text::Phrase {
                $name::label(self)
            }

            fn analogue(self) -> $crate::text::Phrase {
                $name::analogue(self)
            }
        }

        /// On the wire, its code.
        impl $crate::bytes::Bytes for $name {
            fn write(&self, w: &mut $crate::bytes::Writer) {
                w.byte(self.code());
            }

            fn read(r: &mut $crate::bytes::Reader) -> Result<Self, $crate::bytes::Damaged> {
                $crate::protocol::job::read_code(r, $name::from_code)
            }
        }

        #[cfg(test)]
        mod strategy_codes {
            use super::$name;

            #[test]
            fn codes_and_ids_round_trip() {
                for way in $name::every() {
                    assert_eq!($name::from_code(way.code()), Some(way));
                    let json = serde_json::to_string(&way).unwrap();
                    assert_eq!(json, format!("\"{}\"", way.id()));
                }
                assert_eq!($name::from_code($name::every().count() as u8), None);
            }
        }
    };
}

pub(crate) use strategies;

/// Checks that each of `browser` stands for the same .NET code as the
/// native way beside it, and that `alike` says the same of both.
#[cfg(test)]
pub(crate) fn assert_pairs_up<W: Way + std::fmt::Debug>(
    browser: &[W],
    native: &[W],
    alike: impl Fn(W) -> bool,
) {
    assert_eq!(browser.len(), native.len());
    for (&b, &n) in browser.iter().zip(native) {
        assert_eq!(b.analogue(), n.analogue(), "{b:?} beside {n:?}");
        assert_eq!(alike(b), alike(n), "{b:?} beside {n:?}");
    }
}
