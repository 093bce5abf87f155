//! A drawing: SVG elements as plain data. The page's charts are built as
//! a [`Node`] tree and turned into DOM elements by one function of the
//! browser glue (`waitlab_browser::svg::draw_first`), instead of one
//! view type per chart mark: the page's wasm carries one builder, not one
//! instantiation per element and attribute (see docs/decisions.md).
//!
//! Text is text: a node's [`Node::text`] becomes its text content, never
//! markup.

use crate::number;

/// One SVG element: its tag, its attributes in order, its text and its
/// children.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    /// The element's name (`svg`, `g`, `line`, `text`, …).
    pub tag: &'static str,
    /// Its attributes, in the order they were set.
    pub attrs: Vec<(&'static str, String)>,
    /// Its text content, before its children (only `text` and `title`
    /// have any).
    pub text: Option<String>,
    /// Its children, in order.
    pub children: Vec<Node>,
}

/// An SVG coordinate or length, to a tenth of a unit (written by
/// [`number::fixed`], the page's one float formatter).
pub fn coord(v: f64) -> String {
    number::fixed(v, 1)
}

impl Node {
    /// An element with nothing set.
    pub fn new(tag: &'static str) -> Self {
        Self {
            tag,
            ..Self::default()
        }
    }

    /// With `name` set to `value`.
    pub fn attr(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.attrs.push((name, value.into()));
        self
    }

    /// With `name` set to `value`, when there is one.
    pub fn attr_if(self, name: &'static str, value: Option<impl Into<String>>) -> Self {
        match value {
            Some(value) => self.attr(name, value),
            None => self,
        }
    }

    /// With a coordinate or length `name` (see [`coord`]).
    pub fn at(self, name: &'static str, v: f64) -> Self {
        self.attr(name, coord(v))
    }

    /// With its class.
    pub fn class(self, class: impl Into<String>) -> Self {
        self.attr("class", class)
    }

    /// With its text content.
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.text = Some(text.into());
        self
    }

    /// With `child` after its other children.
    pub fn child(mut self, child: Node) -> Self {
        self.children.push(child);
        self
    }

    /// With `children` after its other children.
    pub fn children(mut self, children: impl IntoIterator<Item = Node>) -> Self {
        self.children.extend(children);
        self
    }

    /// A line from `(x1, y1)` to `(x2, y2)`.
    pub fn line(class: impl Into<String>, x1: f64, y1: f64, x2: f64, y2: f64) -> Self {
        Self::new("line")
            .class(class)
            .at("x1", x1)
            .at("x2", x2)
            .at("y1", y1)
            .at("y2", y2)
    }

    /// A rectangle at `(x, y)` of `width` × `height`.
    pub fn rect(class: impl Into<String>, x: f64, y: f64, width: f64, height: f64) -> Self {
        Self::new("rect")
            .class(class)
            .at("x", x)
            .at("y", y)
            .at("width", width)
            .at("height", height)
    }

    /// `text` at `(x, y)`, anchored at its `anchor` (`start`, `middle`,
    /// `end`), or at its start when `None`.
    pub fn label(
        class: impl Into<String>,
        x: f64,
        y: f64,
        anchor: Option<&'static str>,
        text: impl Into<String>,
    ) -> Self {
        Self::new("text")
            .class(class)
            .at("x", x)
            .at("y", y)
            .attr_if("text-anchor", anchor)
            .text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::Node;

    #[test]
    fn builds_elements_in_order() {
        let chart = Node::new("svg")
            .attr("viewBox", "0 0 760 200")
            .child(Node::line("grid", 1.0, 2.0, 3.0, 4.04))
            .child(Node::label("tick", 5.0, 6.0, Some("end"), "1 ms"));
        assert_eq!(chart.children.len(), 2);
        assert_eq!(
            chart.children[0].attrs,
            [
                ("class", "grid".to_owned()),
                ("x1", "1.0".to_owned()),
                ("x2", "3.0".to_owned()),
                ("y1", "2.0".to_owned()),
                ("y2", "4.0".to_owned()),
            ]
        );
        let label = &chart.children[1];
        assert!(label.attrs.contains(&("text-anchor", "end".to_owned())));
        assert_eq!(label.text.as_deref(), Some("1 ms"));
        let unanchored = Node::label("t", 0.0, 0.0, None, "x");
        assert!(
            unanchored
                .attrs
                .iter()
                .all(|(name, _)| *name != "text-anchor")
        );
    }
}
