//! A comparison's table: one body per source, its values and its
//! verdicts against the first source with samples.

use super::source::{COLOURS, origin_id};
use crate::components::blocks::marked_cell;
use crate::i18n::{num, t, tr};
use leptos::prelude::*;
use waitlab_core::compare::verdict::{self, Judged, Verdict};
use waitlab_core::compare::{Group, Value};
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::text::Phrase;

/// The comparison table: one body per source.
#[component]
pub(super) fn ComparisonTable(
    /// Which experiment.
    experiment: Experiment,
    /// The sources with their colours.
    groups: Vec<(usize, Group)>,
    /// Each source's verdicts against one of them, if two are shown.
    verdicts: Option<Verdicts>,
) -> impl IntoView {
    let columns = experiment.columns();
    let marked = groups.iter().any(|(_, g)| {
        g.rows.iter().any(|r| {
            r.values
                .iter()
                .any(|v| matches!(v, Value::Unresolved { .. }))
        })
    });
    let notes = verdicts.as_ref().map(|v| v.notes(&groups));
    let heading = verdicts.as_ref().and_then(|v| v.heading(&groups));
    let span = 2 + columns.len() + usize::from(heading.is_some());
    let bodies = groups
        .into_iter()
        .enumerate()
        .map(|(i, (colour, g))| {
            let judged = verdicts.as_ref().map(|v| v.judged[i].clone());
            let rows = g
                .rows
                .into_iter()
                .enumerate()
                .map(|(j, row)| {
                    let cells = row
                        .values
                        .iter()
                        .zip(&columns)
                        .map(|(v, c)| match *v {
                            Value::Unresolved { value, figure_ms, clock } => {
                                marked_cell(num(&c.unit.format(value)), figure_ms, Some(clock)).into_any()
                            }
                            Value::Stated { .. } => view! {
                                <td class="num stated" title=t(key!("compare.stated_title"))>{num(&v.format(c.unit))}</td>
                            }
                            .into_any(),
                            Value::Absent | Value::Measured(_) => view! { <td class="num">{num(&v.format(c.unit))}</td> }.into_any(),
                        })
                        .collect_view();
                    view! {
                        <tr data-testid="cmp-row">
                            <td class="mech">{tr(&row.what)}
                                {row.notes.iter().map(|n| view! { <div class="note">{tr(n)}</div> }).collect_view()}
                            </td>
                            <td class="analogue">{tr(&row.analogue)}</td>
                            {cells}
                            {judged.as_ref().and_then(|judged| judged.get(j)).map(verdict_cell)}
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <tbody data-testid=format!("group-{}", origin_id(g.origin))>
                    <tr class="group"><th colspan=span>
                        <span class=format!("swatch src-{}", colour % COLOURS)></span>{tr(&g.source)}
                    </th></tr>
                    {rows}
                </tbody>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="results compare" data-testid="comparison-table">
                <thead><tr>
                    <th>{t(key!("compare.what"))}</th>
                    <th>{t(key!("table.analogue"))}</th>
                    {columns.iter().map(|c| view! { <th class="num">{tr(&experiment.header(c))}</th> }).collect_view()}
                    {heading.map(|h| view! { <th>{tr(&h)}</th> })}
                </tr></thead>
                {bodies}
            </table>
        </div>
        {marked.then(|| view! {
            <p class="note" data-testid="clock-note">{t(key!("compare.clock_note"))}</p>
        })}
        {notes.into_iter().flatten().map(|n| view! { <p class="note" data-testid="verdict-note">{tr(&n)}</p> }).collect_view()}
    }
}

/// Each source's verdicts against the first with samples (this browser's
/// run when there is one), when more than one source is shown.
#[derive(Clone)]
pub(super) struct Verdicts {
    /// The index of the source the others are compared with, if one has
    /// samples.
    base: Option<usize>,
    /// Per source, per row (empty without a base).
    judged: Vec<Vec<Judged>>,
}

impl Verdicts {
    pub(super) fn of(groups: &[(usize, Group)]) -> Option<Verdicts> {
        if groups.len() < 2 {
            return None;
        }
        let base = verdict::base(groups.iter().map(|(_, g)| g));
        let judged = groups
            .iter()
            .map(|(_, g)| match base {
                Some(b) => verdict::judge(&groups[b].1, g),
                None => Vec::new(),
            })
            .collect();
        Some(Verdicts { base, judged })
    }

    /// The column's heading, if there is a column.
    fn heading(&self, groups: &[(usize, Group)]) -> Option<Phrase> {
        self.base.map(|b| verdict::heading(&groups[b].1))
    }

    /// One sentence per source beside the base, with the source's colour.
    pub(super) fn summaries(&self, groups: &[(usize, Group)]) -> Vec<(usize, Phrase)> {
        let Some(b) = self.base else {
            return Vec::new();
        };
        let each = groups.iter().zip(&self.judged);
        each.filter_map(|((colour, g), judged)| {
            Some((*colour, verdict::summary(&groups[b].1, g, judged)?))
        })
        .collect()
    }

    /// What the table's verdicts are, or why it has none.
    fn notes(&self, groups: &[(usize, Group)]) -> Vec<Phrase> {
        let Some(b) = self.base else {
            return vec![Phrase::new(key!("compare.verdict.no_samples"))];
        };
        let approximate = self
            .judged
            .iter()
            .flatten()
            .any(|j| matches!(j, Judged::Tested(t) if t.approximate));
        let mut notes = vec![verdict::note(&groups[b].1)];
        if approximate {
            notes.push(Phrase::new(key!("compare.verdict.approximate_note")));
        }
        notes
    }
}

/// A row's verdict, or why it has none, with the test's figures under it.
fn verdict_cell(judged: &Judged) -> impl IntoView + use<> {
    let (said, notes) = judged.phrases();
    let verdict = judged.verdict();
    // A difference found is said in bold; "same" and the reasons for no
    // verdict are not (all in the muted small type of the analogues).
    let said = match verdict {
        Some(Verdict::Faster | Verdict::Slower) => {
            view! { <strong>{tr(&said)}</strong> }.into_any()
        }
        _ => tr(&said).into_any(),
    };
    view! {
        <td class="analogue" data-testid="verdict" data-verdict=verdict.map(|v| v.id())>
            {said}
            {notes.iter().map(|n| view! { <div class="note">{tr(n)}</div> }).collect_view()}
        </td>
    }
}
