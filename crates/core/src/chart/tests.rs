//! Tests of the chart geometry (`chart.rs`).

use super::*;

#[test]
fn nice_steps() {
    assert_eq!(nice_step(0.3), 0.5);
    assert_eq!(nice_step(1.0), 1.0);
    assert_eq!(nice_step(1.2), 2.0);
    assert_eq!(nice_step(7.0), 10.0);
    assert_eq!(nice_step(0.0), 1.0);
    assert_eq!(nice_step(f64::NAN), 1.0);
}

#[test]
fn linear_scale_and_ticks() {
    let s = Scale::linear_nice(0.3, 9.2, 0.0, 100.0);
    assert_eq!(
        s,
        Scale::Linear {
            lo: 0.0,
            hi: 10.0,
            from: 0.0,
            to: 100.0
        }
    );
    assert_eq!(s.map(5.0), 50.0);
    let labels: Vec<_> = s.ticks().into_iter().map(|t| t.label).collect();
    assert_eq!(labels, ["0", "2.00", "4.00", "6.00", "8.00", "10.0"]);
    let flat = Scale::linear_nice(4.0, 4.0, 0.0, 10.0);
    assert!(flat.map(4.0) > 0.0 && flat.map(4.0) < 10.0);
}

#[test]
fn log_scale_pins_and_spans_decades() {
    let s = Scale::log_decades(0.004, 16.0, 0.001, 0.0, 400.0);
    assert_eq!(
        s,
        Scale::Log {
            lo: 0.001,
            hi: 100.0,
            from: 0.0,
            to: 400.0
        }
    );
    assert_eq!(s.map(0.0), 0.0);
    assert!((s.map(1.0) - 240.0).abs() < 1e-9);
    assert_eq!(s.ticks().len(), 6);
    assert_eq!(s.ticks()[0].label, "0.001");
    // An all-zero series still has a valid domain.
    let z = Scale::log_decades(0.0, 0.0, 0.001, 0.0, 10.0);
    assert!(z.map(0.0).is_finite());
}

#[test]
fn formats() {
    assert_eq!(format_ms(0.005), "0.005");
    assert_eq!(format_ms(0.0001), "0.0001");
    assert_eq!(format_ms(0.12), "0.12");
    assert_eq!(format_ms(0.1), "0.1");
    assert_eq!(format_ms(1.1), "1.10");
    assert_eq!(format_ms(15.62), "15.6");
    assert_eq!(format_ms(250.0), "250");
}

#[test]
fn bars_match_bins() {
    let bins = [
        Bin {
            lo: 0.0,
            hi: 1.0,
            count: 2,
        },
        Bin {
            lo: 1.0,
            hi: 2.0,
            count: 0,
        },
    ];
    let x = Scale::Linear {
        lo: 0.0,
        hi: 2.0,
        from: 0.0,
        to: 100.0,
    };
    let y = Scale::Linear {
        lo: 0.0,
        hi: 2.0,
        from: 50.0,
        to: 0.0,
    };
    let r = histogram_bars(&bins, &x, &y);
    assert_eq!(
        r[0],
        Rect {
            x: 0.0,
            y: 0.0,
            width: 50.0,
            height: 50.0
        }
    );
    assert_eq!(r[1].height, 0.0);
}

#[test]
fn text_is_measured_wide_enough() {
    assert_eq!(text_width("", LABEL_PX), 0.0);
    assert!((text_width("await", 10.0) - 30.0).abs() < 1e-9);
    // Japanese sets at a full em a character, Cyrillic like Latin.
    assert!((text_width("待機", 10.0) - 20.0).abs() < 1e-9);
    assert!((text_width("ожидание", 10.0) - 48.0).abs() < 1e-9);
}

#[test]
fn label_columns_fit_the_widest_label_within_bounds() {
    let short = ["a", "bb"];
    assert_eq!(label_column(short, 16.0, 120.0, 400.0), 120.0);
    let long = ["x".repeat(50)];
    let need = text_width(&long[0], LABEL_PX) + 16.0;
    assert!(
        (label_column(long.iter().map(String::as_str), 16.0, 120.0, 400.0) - need).abs() < 1e-9
    );
    let huge = ["x".repeat(200)];
    let column = label_column(huge.iter().map(String::as_str), 16.0, 120.0, 400.0);
    assert_eq!(column, 400.0);
    let cut = fit(&huge[0], column - 16.0);
    assert!(cut.ends_with('…') && text_width(&cut, LABEL_PX) <= column - 16.0);
    assert_eq!(fit("short", 100.0), "short");
}

#[test]
fn long_text_wraps_at_spaces_within_its_room() {
    let lines = wrap(
        "median as a multiple of the event wait's (log scale)",
        150.0,
    );
    assert!(lines.len() > 1, "{lines:?}");
    assert!(
        lines.iter().all(|l| text_width(l, LABEL_PX) <= 150.0),
        "{lines:?}"
    );
    assert_eq!(
        lines.join(" "),
        "median as a multiple of the event wait's (log scale)"
    );
    // A word wider than the room is cut short on a line of its own.
    let lines = wrap("a Thread.Sleep(1)Thread.Sleep(1)Thread.Sleep(1) b", 100.0);
    assert_eq!(lines.len(), 3);
    assert!(lines[1].ends_with('…'));
    assert!(wrap("", 100.0).is_empty());
}

#[test]
fn charts_draw_at_their_box_within_bounds() {
    assert_eq!(drawn_width(350.6), 350.0);
    assert_eq!(drawn_width(100.0), MIN_WIDTH);
    assert_eq!(drawn_width(1200.0), MAX_WIDTH);
    assert_eq!(drawn_width(0.0), MAX_WIDTH);
}

/// Labels go in a column on a wide chart, above their rows on a narrow
/// one; either way they stay inside the chart and clear of the plot.
#[test]
fn row_labels_move_above_their_rows_when_narrow() {
    let labels = ["Thread.Sleep(1) im Worker", "setTimeout(1)"];
    let wide = RowLayout::new(labels, MAX_WIDTH, 18.0);
    assert!(!wide.above && wide.left >= 160.0);
    let spot = wide.label(wide.centre(8.0, 0));
    assert!(spot.end && spot.x < wide.left && spot.x - spot.room >= 0.0);
    // Long labels give up room to the plot before they go above it.
    let long = ["x".repeat(80)];
    let embed = RowLayout::new(long.iter().map(String::as_str), 680.0, 18.0);
    assert!(!embed.above && (embed.left - 380.0).abs() < 1e-9);
    let narrow = RowLayout::new(labels, 350.0, 18.0);
    assert!(narrow.above && narrow.left < 20.0);
    assert_eq!(narrow.pitch, 18.0 + LINE_PX);
    let (first, second) = (narrow.centre(8.0, 0), narrow.centre(8.0, 1));
    let spot = narrow.label(second);
    // Its label sits between the row above's marks and its own.
    assert!(spot.y - LABEL_PX >= first + 9.0 - 1e-9 && spot.y <= second - 9.0);
    assert!(!spot.end && spot.x + spot.room <= 350.0);
}

#[test]
fn legend_entries_never_overlap_and_wrap_within_the_chart() {
    let labels = [
        "— blockierend",
        "— asynchron",
        "x",
        "— ein sehr langer Eintrag, der nicht in eine Zeile passt",
        "y",
    ];
    let at = legend_rows(10.0, 200.0, &labels, 12.0, 8.0);
    assert_eq!((at[0].x, at[0].line), (10.0, 0));
    let right = |s: &LegendSpot| {
        s.x + 12.0
            + s.lines
                .iter()
                .map(|l| text_width(l, LABEL_PX))
                .fold(0.0, f64::max)
    };
    for pair in at.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let a_last = a.line + a.lines.len().max(1) - 1;
        assert!(
            b.line > a_last && b.x == 10.0 || b.line == a.line && b.x >= right(a) + 8.0 - 1e-9,
            "{at:?}"
        );
    }
    for spot in &at {
        assert!(right(spot) <= 200.0, "{spot:?}");
    }
    // The long entry wraps onto lines of its own, and the next starts
    // after them.
    assert!(at[3].lines.len() > 1 && at[3].x == 10.0);
    assert_eq!(at[4].line, at[3].line + at[3].lines.len());
    assert_eq!(at[3].lines.join(" "), labels[3]);
}

#[test]
fn counts_tick_in_whole_steps() {
    let x = Scale::linear_nice(1.0, 15.0, 0.0, 100.0);
    let labels: Vec<String> = x.count_ticks().into_iter().map(|t| t.label).collect();
    assert_eq!(labels, ["0", "5", "10", "15"]);
    let few = Scale::linear_nice(1.0, 3.0, 0.0, 100.0);
    let labels: Vec<String> = few.count_ticks().into_iter().map(|t| t.label).collect();
    assert!(labels.iter().all(|l| !l.contains('.')), "{labels:?}");
}

/// Row labels that differ keep what tells them apart when cut short:
/// experiment 1's four waits of a fresh task's timer in a worker, in
/// Japanese, read the same cut from the back ("…await setTimeou…").
#[test]
fn labels_cut_short_stay_apart() {
    let labels: Vec<String> = [0, 1, 10, 15]
        .map(|d| format!("ワーカー内の新しいタスクからの await setTimeout({d})"))
        .into();
    let room = 200.0;
    let cut: Vec<String> = labels.iter().map(|l| fit(l, room)).collect();
    assert!(cut.windows(2).all(|w| w[0] == w[1]), "the fault: {cut:?}");
    let shown = fit_apart(labels.iter().map(String::as_str), room);
    for (s, d) in shown.iter().zip([0, 1, 10, 15]) {
        assert!(s.ends_with(&format!("({d})")), "{s}");
        assert!(text_width(s, LABEL_PX) <= room, "{s}");
    }
    // Alike from the front and the back: a head, "…", a tail.
    let middle = [
        "await a long name 1 of the way in a worker, back to back",
        "await a long name 2 of the way in a worker, back to back",
    ];
    let shown = fit_apart(middle, 150.0);
    assert_ne!(shown[0], shown[1], "{shown:?}");
    assert!(
        shown
            .iter()
            .all(|s| text_width(s, LABEL_PX) <= 150.0 && s.matches('…').count() == 1)
    );
    // Labels that fit, or that are the same, are left as they are.
    assert_eq!(fit_apart(["a", "b", "a"], room), ["a", "b", "a"]);
}

/// An axis's labels never overlap: at a phone's width a log axis of
/// seven decades keeps every other label, each tick its place.
#[test]
fn axis_labels_stand_apart() {
    let overlaps = |ticks: &[Tick], width: f64| {
        let spans: Vec<(f64, f64)> = ticks
            .iter()
            .filter(|t| !t.label.is_empty())
            .map(|t| {
                let half = text_width(&t.label, LABEL_PX) / 2.0;
                let c = t.pos.min(width - 2.0 - half).max(2.0 + half);
                (c - half, c + half)
            })
            .collect();
        spans.windows(2).any(|w| w[0].1 + TICK_GAP > w[1].0)
    };
    let narrow = Scale::log_decades(0.0001, 100.0, 0.0001, 120.0, 290.0);
    assert!(overlaps(&narrow.ticks(), 300.0), "the fault, at 300 px");
    let spaced_ticks = spaced(narrow.ticks(), 300.0);
    assert!(!overlaps(&spaced_ticks, 300.0));
    assert_eq!(
        spaced_ticks.len(),
        narrow.ticks().len(),
        "every grid line stays"
    );
    assert!(spaced_ticks.iter().filter(|t| !t.label.is_empty()).count() >= 3);
    let wide = Scale::log_decades(0.0001, 100.0, 0.0001, 300.0, 1000.0);
    assert_eq!(spaced(wide.ticks(), 1024.0), wide.ticks(), "room for all");
}
