//! Building blocks of every results view: the findings list and a plain
//! numbers table.

use leptos::prelude::*;

/// "What this run shows": the findings, one sentence each.
#[component]
pub fn Findings(
    /// The sentences.
    items: Vec<String>,
) -> impl IntoView {
    view! {
        <h3>"What this run shows"</h3>
        <ul class="findings" data-testid="findings">
            {items.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}
        </ul>
    }
}

/// A results table: `headers`, right-aligned from column `numeric_from`
/// on, and the rows as children.
#[component]
pub fn NumbersTable(
    /// Column headers.
    headers: &'static [&'static str],
    /// The first numeric (right-aligned) column.
    numeric_from: usize,
    /// The `<tr>` rows.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="results">
                <thead><tr>
                    {headers.iter().enumerate().map(|(i, h)| view! { <th class:num={i >= numeric_from}>{*h}</th> }).collect_view()}
                </tr></thead>
                <tbody>{children()}</tbody>
            </table>
        </div>
    }
}
