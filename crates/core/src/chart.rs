//! Chart geometry: scales, ticks and shapes in SVG user units.
//!
//! The page only turns these numbers into SVG elements, so everything that
//! decides where a bar or a tick goes is tested here natively. Waits span
//! five orders of magnitude (a microtask takes microseconds, a clamped timer
//! milliseconds), hence the log scale; values at or below zero are pinned to
//! the scale's floor rather than rejected.

use crate::number::fixed;
use crate::stats::Bin;

/// A mapping from data values to a pixel range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// `value` in `[lo, hi]` maps linearly onto `[from, to]`.
    Linear {
        /// Domain start.
        lo: f64,
        /// Domain end.
        hi: f64,
        /// Pixel at `lo`.
        from: f64,
        /// Pixel at `hi`.
        to: f64,
    },
    /// `log10(value)` maps linearly; values below `lo` are pinned to `lo`.
    Log {
        /// Domain start, > 0.
        lo: f64,
        /// Domain end, > `lo`.
        hi: f64,
        /// Pixel at `lo`.
        from: f64,
        /// Pixel at `hi`.
        to: f64,
    },
}

/// A tick mark: where it goes and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Position in pixels.
    pub pos: f64,
    /// Label text.
    pub label: String,
}

/// An axis-aligned rectangle in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width (≥ 0).
    pub width: f64,
    /// Height (≥ 0).
    pub height: f64,
}

impl Scale {
    /// A linear scale over `[lo, hi]` widened to round tick values; a
    /// degenerate domain is widened to a unit around it.
    pub fn linear_nice(lo: f64, hi: f64, from: f64, to: f64) -> Scale {
        let (lo, hi) = if hi > lo {
            (lo, hi)
        } else {
            (lo - 0.5, lo + 0.5)
        };
        let step = nice_step((hi - lo) / 5.0);
        Scale::Linear {
            lo: (lo / step).floor() * step,
            hi: (hi / step).ceil() * step,
            from,
            to,
        }
    }

    /// A log scale from the power of ten at or below `lo` to the one at or
    /// above `hi`; `lo` is floored at `floor` (> 0).
    pub fn log_decades(lo: f64, hi: f64, floor: f64, from: f64, to: f64) -> Scale {
        let lo = lo.max(floor);
        let hi = hi.max(lo * 10.0);
        Scale::Log {
            lo: 10f64.powf(lo.log10().floor()),
            hi: 10f64.powf(hi.log10().ceil()),
            from,
            to,
        }
    }

    /// The pixel for `value`; outside the domain it extrapolates (linear)
    /// or pins to the floor (log, below `lo`).
    pub fn map(&self, value: f64) -> f64 {
        match *self {
            Scale::Linear { lo, hi, from, to } => from + (value - lo) / (hi - lo) * (to - from),
            Scale::Log { lo, hi, from, to } => {
                let v = value.max(lo);
                from + (v.log10() - lo.log10()) / (hi.log10() - lo.log10()) * (to - from)
            }
        }
    }

    /// Tick marks: round steps for linear scales, one per decade for log.
    pub fn ticks(&self) -> Vec<Tick> {
        match *self {
            Scale::Linear { lo, hi, .. } => {
                self.linear_ticks(lo, hi, nice_step((hi - lo) / 5.0), format_ms)
            }
            Scale::Log { lo, hi, .. } => {
                let first = lo.log10().round() as i32;
                let last = hi.log10().round() as i32;
                (first..=last)
                    .map(|e| {
                        let v = 10f64.powi(e);
                        Tick {
                            pos: self.map(v),
                            label: format_ms(v),
                        }
                    })
                    .collect()
            }
        }
    }
}

impl Scale {
    /// Tick marks of a linear scale that counts (ticks of a loop, say):
    /// whole steps with whole labels. A log scale's own ticks otherwise.
    pub fn count_ticks(&self) -> Vec<Tick> {
        match *self {
            Scale::Linear { lo, hi, .. } => {
                let step = nice_step((hi - lo) / 5.0).max(1.0);
                self.linear_ticks(lo, hi, step, |v| format!("{}", v as i64))
            }
            Scale::Log { .. } => self.ticks(),
        }
    }

    /// Ticks every `step` from `lo` to `hi`, each labelled by `label`.
    fn linear_ticks(&self, lo: f64, hi: f64, step: f64, label: fn(f64) -> String) -> Vec<Tick> {
        let first = (lo / step).ceil() as i64;
        let last = (hi / step + 1e-9).floor() as i64;
        (first..=last)
            .map(|i| {
                let v = i as f64 * step;
                Tick {
                    pos: self.map(v),
                    label: label(v),
                }
            })
            .collect()
    }
}

/// The round step (1, 2 or 5 times a power of ten) nearest above `raw`.
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let pow = 10f64.powf(raw.log10().floor());
    let m = raw / pow;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * pow
}

/// Formats milliseconds with precision that suits the magnitude:
/// `0.005`, `0.12`, `1.10`, `15.6`, `250`.
pub fn format_ms(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".to_owned()
    } else if a < 0.001 {
        fixed(v, 4)
    } else if a < 0.01 {
        fixed(v, 3)
    } else if a < 1.0 {
        fixed(v, 2).trim_end_matches('0').to_owned()
    } else if a < 10.0 {
        fixed(v, 2)
    } else if a < 100.0 {
        fixed(v, 1)
    } else {
        fixed(v, 0)
    }
}

/// Bars of a histogram: `x` maps bin edges, `y` maps counts (with `y`'s
/// zero at the baseline). Empty bins give zero-height bars so the bars and
/// the bins correspond one to one.
pub fn histogram_bars(bins: &[Bin], x: &Scale, y: &Scale) -> Vec<Rect> {
    let base = y.map(0.0);
    bins.iter()
        .map(|b| {
            let (x0, x1) = (x.map(b.lo), x.map(b.hi));
            let top = y.map(f64::from(b.count));
            Rect {
                x: x0.min(x1),
                y: top.min(base),
                width: (x1 - x0).abs().max(1.0),
                height: (base - top).abs(),
            }
        })
        .collect()
}

/// The size every chart label is set in, px (`svg.chart` in the page's
/// style sheet says the same).
pub const LABEL_PX: f64 = 11.0;

/// About how wide `text` sets at `font_px`: 0.6 em a character (a
/// monospace advance, wider than most proportional letters) and a full em
/// for East Asian wide ones (kana, kanji, hangul, full-width forms). SVG
/// text cannot be measured before it is drawn, so charts lay labels out
/// with this estimate, which errs wide.
pub fn text_width(text: &str, font_px: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| if is_wide(c) { 1.0 } else { 0.6 })
        .sum();
    ems * font_px
}

/// East Asian wide and full-width characters (Unicode's EastAsianWidth W
/// and F, by block).
fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}'
        | '\u{20000}'..='\u{3FFFD}')
}

/// The width of a column of row labels set right-aligned before the plot:
/// the widest label plus `pad`, kept within `min..=max` so that the plot
/// keeps its room. A label wider than the column less `pad` is cut short
/// to fit ([`fit`]).
pub fn label_column<'a>(
    labels: impl IntoIterator<Item = &'a str>,
    pad: f64,
    min: f64,
    max: f64,
) -> f64 {
    let widest = labels
        .into_iter()
        .map(|l| text_width(l, LABEL_PX))
        .fold(0.0, f64::max);
    (widest + pad).clamp(min, max)
}

/// `text` as it fits in `room`: whole, or cut short with "…" (the full
/// text is the mark's tooltip and what a screen reader says of it).
pub fn fit(text: &str, room: f64) -> String {
    if text_width(text, LABEL_PX) <= room {
        return text.to_owned();
    }
    let head: String = fitting(text.chars(), room).collect();
    format!("{}…", head.trim_end())
}

/// The first of `chars` that fit in `room` beside a "…".
fn fitting(chars: impl Iterator<Item = char>, room: f64) -> impl Iterator<Item = char> {
    let ellipsis = text_width("…", LABEL_PX);
    let mut used = 0.0;
    chars.take_while(move |c| {
        used += text_width(c.encode_utf8(&mut [0; 4]), LABEL_PX);
        used + ellipsis <= room
    })
}

/// `labels` each as it fits in `room` ([`fit`]), told apart: labels that
/// differ but would be cut to the same text are cut from the front
/// instead ("…setTimeout(10) in a worker"), where what tells them apart
/// most often is; any still alike keep both ends (a head and a tail of
/// half the room each, one "…" between).
pub fn fit_apart<'a>(labels: impl IntoIterator<Item = &'a str>, room: f64) -> Vec<String> {
    let labels: Vec<&str> = labels.into_iter().collect();
    let mut shown: Vec<String> = labels.iter().map(|l| fit(l, room)).collect();
    let alike = |shown: &[String], i: usize| {
        (0..labels.len()).any(|j| j != i && shown[j] == shown[i] && labels[j] != labels[i])
    };
    let clash: Vec<usize> = (0..labels.len()).filter(|&i| alike(&shown, i)).collect();
    for &i in &clash {
        shown[i] = fit_tail(labels[i], room);
    }
    let still: Vec<usize> = clash.into_iter().filter(|&i| alike(&shown, i)).collect();
    // Each half has its own "…"; they share one.
    let half = (room + text_width("…", LABEL_PX)) / 2.0;
    for &i in &still {
        let (head, tail) = (fit(labels[i], half), fit_tail(labels[i], half));
        shown[i] = format!("{head}{}", tail.strip_prefix('…').unwrap_or(&tail));
    }
    shown
}

/// `text` as it fits in `room`, cut short at its front ("…" and its end).
fn fit_tail(text: &str, room: f64) -> String {
    if text_width(text, LABEL_PX) <= room {
        return text.to_owned();
    }
    let mut tail: Vec<char> = fitting(text.chars().rev(), room).collect();
    tail.reverse();
    let tail: String = tail.into_iter().collect();
    format!("…{}", tail.trim_start())
}

/// `ticks` of an axis `width` wide with every label that would overlap
/// another (set centred on its tick, kept inside the chart, a gap of
/// [`TICK_GAP`] between labels) left out, keeping every k-th for the
/// least k that lets them stand apart; each tick keeps its place.
pub fn spaced(mut ticks: Vec<Tick>, width: f64) -> Vec<Tick> {
    let span = |t: &Tick| {
        let half = text_width(&t.label, LABEL_PX) / 2.0;
        let centre = tick_centre(t.pos, &t.label, width);
        (centre - half, centre + half)
    };
    let fits = |k: usize| {
        let kept: Vec<(f64, f64)> = ticks.iter().step_by(k).map(span).collect();
        kept.windows(2).all(|w| w[0].1 + TICK_GAP <= w[1].0)
    };
    let k = (1..=ticks.len().max(1)).find(|&k| fits(k)).unwrap_or(1);
    for (i, t) in ticks.iter_mut().enumerate() {
        if i % k != 0 {
            t.label.clear();
        }
    }
    ticks
}

/// Where a tick's `label` at `pos` is centred on an axis `width` wide:
/// on its tick, or moved in so that it does not run off the chart.
pub fn tick_centre(pos: f64, label: &str, width: f64) -> f64 {
    let half = text_width(label, LABEL_PX) / 2.0;
    pos.min(width - 2.0 - half).max(2.0 + half)
}

/// The least room between two axis labels, px.
pub const TICK_GAP: f64 = 6.0;

/// `text` broken at spaces into lines that fit in `room` (a word wider
/// than `room` is a line of its own, cut short by [`fit`]).
pub fn wrap(text: &str, room: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), LABEL_PX) <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines.into_iter().map(|l| fit(&l, room)).collect()
}

/// Where a legend entry goes: its start, its first line, and its text as
/// the lines it takes (one, unless it is too wide for a line of its own).
#[derive(Debug, Clone, PartialEq)]
pub struct LegendSpot {
    /// Where its symbol starts.
    pub x: f64,
    /// Its first line, from 0.
    pub line: usize,
    /// Its text, a line each.
    pub lines: Vec<String>,
}

/// Where each entry of a legend goes, from `start` on its first line: an
/// entry is a `mark` wide symbol, then its label, then `gap`; an entry that
/// would cross `end` starts the next line, and one wider than a whole line
/// wraps onto lines of its own.
pub fn legend_rows(start: f64, end: f64, labels: &[&str], mark: f64, gap: f64) -> Vec<LegendSpot> {
    let room = end - start - mark;
    let (mut x, mut line) = (start, 0);
    labels
        .iter()
        .map(|label| {
            let lines = wrap(label, room);
            let width = mark
                + lines
                    .iter()
                    .map(|l| text_width(l, LABEL_PX))
                    .fold(0.0, f64::max);
            if x > start && (x + width > end || lines.len() > 1) {
                (x, line) = (start, line + 1);
            }
            let spot = LegendSpot { x, line, lines };
            if spot.lines.len() > 1 {
                // The next entry starts on the line after its last.
                (x, line) = (end, line + spot.lines.len() - 1);
            } else {
                x += width + gap;
            }
            spot
        })
        .collect()
}

/// The narrowest and widest a chart is drawn, CSS px: it is drawn at its
/// box's width within these, one unit a pixel, so its text keeps its size
/// (a chart scaled down to a phone would shrink its text with it).
pub const MIN_WIDTH: f64 = 200.0;
/// See [`MIN_WIDTH`].
pub const MAX_WIDTH: f64 = 760.0;

/// The width to draw a chart whose box is `box_px` wide (0 for a box not
/// laid out, such as one in a closed `<details>`: drawn at the widest).
pub fn drawn_width(box_px: f64) -> f64 {
    if box_px > 0.0 {
        box_px.floor().clamp(MIN_WIDTH, MAX_WIDTH)
    } else {
        MAX_WIDTH
    }
}

/// A line of text in a chart, px: [`LABEL_PX`] and the gap to the next.
pub const LINE_PX: f64 = 14.0;

/// Where a chart with axes draws its marks, px: right of `left` (the y
/// axis's labels sit left of it), from `top` down to `bottom` (the x
/// axis's labels sit below it); its right edge follows the frame's width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plot {
    /// The y axis's line.
    pub left: f64,
    /// The highest mark.
    pub top: f64,
    /// The x axis's line.
    pub bottom: f64,
}

impl Plot {
    /// A plot `left` px in, from 10 px below the frame's top down to
    /// `bottom`.
    pub const fn new(left: f64, bottom: f64) -> Plot {
        Plot {
            left,
            top: 10.0,
            bottom,
        }
    }

    /// Where the footer (legend, axis name) starts: below the x axis's
    /// labels.
    pub fn footer_top(self) -> f64 {
        self.bottom + 14.0 + LINE_PX
    }
}

/// How a chart with a label per row sets its labels: in a column before
/// the plot, as wide as its labels ask but leaving the plot
/// [`RowLayout::MIN_PLOT`], when that column is at least
/// [`RowLayout::MIN_COLUMN`]; else on a line of their own above each row's
/// marks (on a phone).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowLayout {
    /// Whether labels are set above their rows.
    pub above: bool,
    /// Where the plot starts.
    pub left: f64,
    /// The distance from one row to the next.
    pub pitch: f64,
    /// The marks' band of a row.
    row: f64,
    /// The chart's width.
    width: f64,
}

/// Where a row's label goes: its baseline's start (`end` false) or end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelSpot {
    /// x of the anchor.
    pub x: f64,
    /// Baseline.
    pub y: f64,
    /// Whether the label ends at `x` (set right-aligned).
    pub end: bool,
    /// The room it has.
    pub room: f64,
}

impl RowLayout {
    /// The least plot width beside a label column.
    pub const MIN_PLOT: f64 = 300.0;
    /// The narrowest label column: narrower, labels go above their rows.
    pub const MIN_COLUMN: f64 = 160.0;

    /// The layout of rows labelled `labels`, `row` px of marks each, in a
    /// chart `width` wide.
    pub fn new<'a>(labels: impl IntoIterator<Item = &'a str>, width: f64, row: f64) -> RowLayout {
        // The column gives up room to the plot down to its least (its
        // labels cut shorter); under that, labels go above their rows.
        let column = label_column(labels, 20.0, 160.0, 440.0).min(width - Self::MIN_PLOT);
        if column >= Self::MIN_COLUMN {
            RowLayout {
                above: false,
                left: column,
                pitch: row,
                row,
                width,
            }
        } else {
            RowLayout {
                above: true,
                left: 12.0,
                pitch: row + LINE_PX,
                row,
                width,
            }
        }
    }

    /// The middle of row `i`'s marks, rows starting at `top`.
    pub fn centre(&self, top: f64, i: usize) -> f64 {
        top + self.pitch * (i as f64 + 1.0) - self.row / 2.0
    }

    /// Where the label of the row whose marks are centred at `centre` goes.
    pub fn label(&self, centre: f64) -> LabelSpot {
        if self.above {
            LabelSpot {
                x: self.left,
                y: centre - self.row / 2.0 - 3.0,
                end: false,
                room: self.width - self.left - 12.0,
            }
        } else {
            LabelSpot {
                x: self.left - 8.0,
                y: centre + 4.0,
                end: true,
                room: self.left - 12.0,
            }
        }
    }
}

#[cfg(test)]
mod tests;
