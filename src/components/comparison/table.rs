//! A comparison's table: one body per source, its values and its
//! verdicts against the first source with samples. What ran and its .NET
//! analogue share the first column, so that the verdicts fit beside the
//! figures at a laptop's width.

use super::source::{Tag, origin_id};
use crate::components::blocks::{VerdictFigures, marked_cell};
use crate::i18n::{num, t, tr};
use leptos::prelude::*;
use waitlab_core::compare::verdict::{self, Judged, Verdict};
use waitlab_core::compare::{self, Group, Value};
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::text::Phrase;

/// The comparison table: one body per source.
#[component]
pub(super) fn ComparisonTable(
    /// Which experiment.
    experiment: Experiment,
    /// The sources with their tags.
    groups: Vec<(Tag, Group)>,
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
    let against = verdicts.as_ref().and_then(|v| v.against(&groups));
    let span = 1 + columns.len() + usize::from(heading.is_some());
    let bodies = groups
        .into_iter()
        .enumerate()
        .map(|(i, (tag, g))| {
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
                        .map(|(v, c)| {
                            // Its column's name, which a phone shows beside it.
                            let label = tr(&experiment.header(c));
                            match *v {
                                Value::Unresolved { figure_ms, clock, .. } => {
                                    marked_cell(num(&v.unresolved(c.unit)), figure_ms, Some(clock), Some(label)).into_any()
                                }
                                Value::Stated { .. } => view! {
                                    <td class="num stated" data-label=label title=t(key!("compare.stated_title"))>{num(&v.format(c.unit))}</td>
                                }
                                .into_any(),
                                Value::Absent | Value::Measured(_) => view! { <td class="num" data-label=label>{num(&v.format(c.unit))}</td> }.into_any(),
                            }
                        })
                        .collect_view();
                    view! {
                        <tr data-testid="cmp-row">
                            <td class="mech">{tr(&row.what)}
                                <div class="analogue-line">{tr(&row.analogue)}</div>
                                {row.notes.iter().map(|n| view! { <div class="note">{tr(n)}</div> }).collect_view()}
                            </td>
                            {cells}
                            {judged.as_ref().and_then(|judged| judged.get(j)).zip(against.as_ref()).map(|(judged, against)| verdict_cell(judged, against))}
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <tbody data-testid=format!("group-{}", origin_id(g.origin))>
                    <tr class="group"><th colspan=span>
                        {tag.swatch()}{tr(&g.source)}
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
                    <th>{t(key!("compare.what"))}<div class="analogue-line">{t(key!("table.analogue"))}</div></th>
                    {columns.iter().map(|c| view! { <th class="num">{tr(&experiment.header(c))}</th> }).collect_view()}
                    {heading.map(|h| view! { <th class="verdict">{tr(&h)}</th> })}
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
    /// Per source, per row: whether the chart draws it.
    drawn: Vec<Vec<bool>>,
}

impl Verdicts {
    pub(super) fn of(experiment: Experiment, groups: &[(Tag, Group)]) -> Option<Verdicts> {
        if groups.len() < 2 {
            return None;
        }
        // Which rows the chart draws, so that a sentence says how many of
        // those it counts only the table shows.
        let charted = compare::chart_columns(experiment, groups.iter().map(|(_, g)| g));
        let wait = compare::headline_wait(groups.iter().flat_map(|(_, g)| &g.rows));
        let drawn = groups
            .iter()
            .map(|(_, g)| charted.drawn(experiment, g, wait))
            .collect();
        let base = verdict::base(groups.iter().map(|(_, g)| g));
        let judged = groups
            .iter()
            .map(|(_, g)| match base {
                Some(b) => verdict::judge(&groups[b].1, g),
                None => Vec::new(),
            })
            .collect();
        Some(Verdicts {
            base,
            judged,
            drawn,
        })
    }

    /// The column's heading, if there is a column.
    fn heading(&self, groups: &[(Tag, Group)]) -> Option<Phrase> {
        self.base.map(|b| verdict::heading(&groups[b].1))
    }

    /// How a verdict names the source it is against, if there is one.
    fn against(&self, groups: &[(Tag, Group)]) -> Option<Phrase> {
        self.base.map(|b| verdict::against(&groups[b].1))
    }

    /// One sentence per source beside the base, with the source's tag.
    pub(super) fn summaries(&self, groups: &[(Tag, Group)]) -> Vec<(Tag, Phrase)> {
        let Some(b) = self.base else {
            return Vec::new();
        };
        let each = groups.iter().zip(&self.judged).zip(&self.drawn);
        each.filter_map(|(((tag, g), judged), drawn)| {
            Some((*tag, verdict::summary(&groups[b].1, g, judged, drawn)?))
        })
        .collect()
    }

    /// What the table's verdicts are, or why it has none.
    fn notes(&self, groups: &[(Tag, Group)]) -> Vec<Phrase> {
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

/// A row's verdict in a sentence against `against`, or why it has none;
/// the test's figures one click away, a line each.
fn verdict_cell(judged: &Judged, against: &Phrase) -> impl IntoView + use<> {
    let (said, figures) = judged.phrases(against);
    let verdict = judged.verdict();
    // A difference found is said in bold; the others are not (all in the
    // muted small type of the analogues).
    let said = match verdict {
        Some(Verdict::Faster | Verdict::Slower) => {
            view! { <strong>{tr(&said)}</strong> }.into_any()
        }
        _ => tr(&said).into_any(),
    };
    view! {
        <td class="analogue verdict" data-testid="verdict" data-verdict=verdict.map(|v| v.id())>
            {said}
            <VerdictFigures figures=figures summary=key!("compare.verdict.stats") />
        </td>
    }
}
