//! The page's languages, the ones the article is published in, and what
//! each needs beyond its texts: which one a reader gets, plural categories,
//! decimal separators and dates. The texts themselves are not here: they
//! are the catalogs in `www/i18n/`, rendered by [`crate::text`].

/// A language of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English, the default.
    En,
    /// German.
    De,
    /// Russian.
    Ru,
    /// Portuguese (Brazilian, as the article's copy).
    Pt,
    /// Japanese.
    Ja,
    /// Spanish.
    Es,
}

/// A CLDR plural category (the ones these languages use for whole numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Plural {
    /// "one".
    One,
    /// "few".
    Few,
    /// "many".
    Many,
    /// "other".
    Other,
}

impl Plural {
    /// Its CLDR name, as catalogs spell it.
    pub fn name(self) -> &'static str {
        match self {
            Plural::One => "one",
            Plural::Few => "few",
            Plural::Many => "many",
            Plural::Other => "other",
        }
    }

    /// The category named `name`, if it is one.
    pub fn from_name(name: &str) -> Option<Plural> {
        [Plural::One, Plural::Few, Plural::Many, Plural::Other]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

impl Lang {
    /// Every language, the default first.
    pub const ALL: [Lang; 6] = [Lang::En, Lang::De, Lang::Ru, Lang::Pt, Lang::Ja, Lang::Es];

    /// Its BCP 47 code: `?lang=`, `<html lang>`, the catalog's file name.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Ru => "ru",
            Lang::Pt => "pt",
            Lang::Ja => "ja",
            Lang::Es => "es",
        }
    }

    /// Its name in itself, as a language picker shows it.
    pub fn endonym(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
            Lang::Ru => "Русский",
            Lang::Pt => "Português",
            Lang::Ja => "日本語",
            Lang::Es => "Español",
        }
    }

    /// The language of a tag such as `de`, `de-AT` or `PT_br` (its primary
    /// subtag), if the page has it.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?;
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// The plural category of the whole number `n` (CLDR's rules).
    pub fn plural(self, n: u64) -> Plural {
        match self {
            Lang::Ja => Plural::Other,
            Lang::Ru => {
                let (m10, m100) = (n % 10, n % 100);
                if m10 == 1 && m100 != 11 {
                    Plural::One
                } else if (2..=4).contains(&m10) && !(12..=14).contains(&m100) {
                    Plural::Few
                } else {
                    Plural::Many
                }
            }
            Lang::Pt | Lang::Es | Lang::En | Lang::De => {
                let one = match self {
                    Lang::Pt => n <= 1,
                    _ => n == 1,
                };
                let many =
                    matches!(self, Lang::Pt | Lang::Es) && n != 0 && n.is_multiple_of(1_000_000);
                if one {
                    Plural::One
                } else if many {
                    Plural::Many
                } else {
                    Plural::Other
                }
            }
        }
    }

    /// Its decimal separator.
    pub fn decimal_separator(self) -> char {
        match self {
            Lang::En | Lang::Ja => '.',
            Lang::De | Lang::Ru | Lang::Pt | Lang::Es => ',',
        }
    }

    /// `text` (numbers written by [`crate::number`], with `.`, maybe
    /// between marks such as `≈`, `–` or `‡`) as this language writes
    /// them: each whole part's digits grouped as [`Lang::count`] groups
    /// them, and this language's decimal separator.
    pub fn localize_number(self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + text.len() / 3);
        let mut rest = text;
        let mut after_point = false;
        while let Some(c) = rest.chars().next() {
            if c.is_ascii_digit() {
                let end = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                let (digits, tail) = rest.split_at(end);
                if after_point {
                    out.push_str(digits);
                } else {
                    self.push_grouped(&mut out, digits);
                }
                rest = tail;
                after_point = false;
            } else {
                out.push(if c == '.' {
                    self.decimal_separator()
                } else {
                    c
                });
                after_point = c == '.';
                rest = &rest[c.len_utf8()..];
            }
        }
        out
    }

    /// A whole count as this language writes it, its digits grouped in
    /// threes (CLDR: `,` in English and Japanese, `.` in German, Portuguese
    /// and Spanish, a no-break space in Russian; Spanish groups from five
    /// digits on, the others from four).
    pub fn count(self, n: u64) -> String {
        let mut out = String::new();
        self.push_grouped(&mut out, &n.to_string());
        out
    }

    /// Pushes `digits` (ASCII) onto `out`, grouped as [`Lang::count`] says.
    fn push_grouped(self, out: &mut String, digits: &str) {
        let (separator, from) = match self {
            Lang::En | Lang::Ja => (',', 4),
            Lang::De | Lang::Pt => ('.', 4),
            Lang::Es => ('.', 5),
            Lang::Ru => ('\u{a0}', 4),
        };
        if digits.len() < from {
            out.push_str(digits);
            return;
        }
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(separator);
            }
            out.push(digit);
        }
    }

    /// A calendar date as this language writes it.
    pub fn date(self, year: i64, month: u32, day: u32) -> String {
        match self {
            Lang::En => format!("{year:04}-{month:02}-{day:02}"),
            Lang::De | Lang::Ru => format!("{day:02}.{month:02}.{year:04}"),
            Lang::Pt | Lang::Es => format!("{day:02}/{month:02}/{year:04}"),
            Lang::Ja => format!("{year:04}/{month:02}/{day:02}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_name_the_page_languages() {
        assert_eq!(Lang::from_tag("de-AT"), Some(Lang::De));
        assert_eq!(Lang::from_tag("PT_br"), Some(Lang::Pt));
        assert_eq!(Lang::from_tag("fr"), None);
        assert_eq!(Lang::from_tag(" ru_RU "), Some(Lang::Ru));
        assert_eq!(Lang::from_tag(""), None);
        for l in Lang::ALL {
            assert_eq!(Lang::from_tag(l.code()), Some(l));
        }
    }

    #[test]
    fn plural_categories_follow_cldr() {
        use Plural::*;
        let cats = |l: Lang, ns: &[u64]| ns.iter().map(|&n| l.plural(n)).collect::<Vec<_>>();
        assert_eq!(cats(Lang::En, &[0, 1, 2, 11]), [Other, One, Other, Other]);
        assert_eq!(cats(Lang::De, &[1, 200]), [One, Other]);
        assert_eq!(
            cats(Lang::Ru, &[1, 2, 5, 11, 12, 21, 22, 25, 111, 200]),
            [One, Few, Many, Many, Many, One, Few, Many, Many, Many]
        );
        assert_eq!(
            cats(Lang::Pt, &[0, 1, 2, 1_000_000]),
            [One, One, Other, Many]
        );
        assert_eq!(
            cats(Lang::Es, &[0, 1, 2, 2_000_000]),
            [Other, One, Other, Many]
        );
        assert_eq!(cats(Lang::Ja, &[1, 2]), [Other, Other]);
        for p in [One, Few, Many, Other] {
            assert_eq!(Plural::from_name(p.name()), Some(p));
        }
    }

    #[test]
    fn numbers_and_dates_as_each_language_writes_them() {
        assert_eq!(Lang::De.localize_number("15.6"), "15,6");
        assert_eq!(Lang::Ja.localize_number("15.6"), "15.6");
        // Whole parts grouped, decimals never; marks and signs kept.
        assert_eq!(Lang::En.localize_number("1265"), "1,265");
        assert_eq!(Lang::En.localize_number("-12345.6789"), "-12,345.6789");
        assert_eq!(Lang::De.localize_number("1265.25"), "1.265,25");
        assert_eq!(Lang::Es.localize_number("1265.25"), "1265,25");
        assert_eq!(Lang::Es.localize_number("15000"), "15.000");
        assert_eq!(Lang::Ru.localize_number("1000.5"), "1\u{a0}000,5");
        assert_eq!(
            Lang::Pt.localize_number("≈15000–16000.5‡"),
            "≈15.000–16.000,5‡"
        );
        assert_eq!(Lang::En.localize_number("–"), "–");
        assert_eq!(Lang::En.localize_number("999.9999"), "999.9999");
        assert_eq!(Lang::En.count(999), "999");
        assert_eq!(Lang::En.count(1000), "1,000");
        assert_eq!(Lang::Ja.count(100_000), "100,000");
        assert_eq!(Lang::De.count(1_234_567), "1.234.567");
        assert_eq!(Lang::Pt.count(20_000), "20.000");
        assert_eq!(Lang::Es.count(5000), "5000");
        assert_eq!(Lang::Es.count(10_000), "10.000");
        assert_eq!(Lang::Ru.count(200_000), "200\u{a0}000");
        assert_eq!(Lang::Ru.count(0), "0");
        assert_eq!(Lang::En.date(2026, 12, 1), "2026-12-01");
        assert_eq!(Lang::De.date(2026, 12, 1), "01.12.2026");
        assert_eq!(Lang::Ja.date(2026, 12, 1), "2026/12/01");
        assert_eq!(Lang::Es.date(2026, 12, 1), "01/12/2026");
    }
}
