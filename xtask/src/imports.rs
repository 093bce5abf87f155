//! The import graph of a crate's modules, as rustc resolves its paths:
//! every file is parsed whole (syn), test items (`#[cfg(test)]`) are left
//! out wherever they stand, and each path (a `use`, or one written in
//! code) is followed from where it starts (`crate`, `self`, `super`, a
//! child module, a name a `use` brought in) through modules and through
//! `pub use` re-exports to the module that defines what it names. A
//! `pub use` that only passes a name on is no edge of its own: whoever
//! uses the name depends on where it is defined. tidy's
//! `no_import_cycles` asks this graph for its cycles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use syn::visit::Visit;

/// A module, by its path from the crate's root (`experiments::timed_waits`;
/// the root itself is the empty string).
pub type Module = String;

/// What one module says: the names it defines, the names its `use`s bring
/// in (where each points and whether it is passed on with `pub use`), and
/// the paths its code writes.
#[derive(Default)]
struct Said {
    defines: BTreeSet<String>,
    uses: Vec<Use>,
    paths: Vec<Vec<String>>,
    /// The identifiers its code (not its `use` items) mentions.
    mentions: BTreeSet<String>,
}

/// One name a `use` brings into a module.
struct Use {
    /// The name in the module (its alias, or the path's last segment).
    name: String,
    /// The path, from where the `use` starts.
    path: Vec<String>,
    /// Whether it is re-exported (`pub use`, `pub(crate) use`, …).
    public: bool,
}

/// The import graph of the crate whose sources are in `src`: each module
/// (but the crate's root, a binary or a test module) and the modules it
/// depends on.
pub fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut said: BTreeMap<Module, Said> = BTreeMap::new();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    for file in &files {
        let Some(module) = module_of(src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let Ok(parsed) = syn::parse_file(&text) else {
            panic!("{}: not Rust that syn parses", file.display());
        };
        read_items(&module, &parsed.items, &mut said);
    }
    let modules: BTreeSet<Module> = said.keys().cloned().collect();
    let resolver = Resolver {
        said: &said,
        modules: &modules,
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, s) in &said {
        if module.is_empty() {
            continue;
        }
        let mut to = BTreeSet::new();
        for u in &s.uses {
            // A name passed on and not used here is no dependency of this
            // module's own.
            if u.public && !s.mentions.contains(&u.name) {
                continue;
            }
            to.extend(resolver.resolve(module, &u.path, 0));
        }
        for path in &s.paths {
            to.extend(resolver.resolve_written(module, path));
        }
        to.remove(module);
        to.remove("");
        edges.insert(module.clone(), to);
    }
    edges
}

/// The strongly connected sets of more than one module in `graph`: its
/// import cycles, each as its modules in order (Tarjan's algorithm).
pub fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Tarjan<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        sets: Vec<Vec<Module>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    set.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.sets.push(set);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        sets: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.sets
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file holds: `a/b.rs` and `a/b/mod.rs` are `a::b`,
/// `lib.rs` and `main.rs` the root; binaries (`bin/`) and test files
/// (`tests.rs`, `tests/`) are none.
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Vec<String> = rel
        .to_string_lossy()
        .split('/')
        .map(str::to_owned)
        .collect();
    if parts.first().is_some_and(|p| p == "bin") || parts.iter().any(|p| p == "tests") {
        return None;
    }
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && ["lib", "main"].contains(&parts[0].as_str()) {
        parts.clear();
    }
    Some(parts.join("::"))
}

/// Whether `attrs` hold `#[cfg(test)]` (or a `cfg` that names `test`).
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta.require_list().is_ok_and(|l| {
                l.tokens
                    .to_string()
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|t| t == "test")
            })
    })
}

/// Reads `items` of `module` (and of the modules written inline in them)
/// into `said`, leaving test items out.
fn read_items(module: &str, items: &[syn::Item], said: &mut BTreeMap<Module, Said>) {
    said.entry(module.to_owned()).or_default();
    for item in items {
        let (attrs, name) = item_attrs_and_name(item);
        if is_test(attrs) {
            continue;
        }
        let here = said.get_mut(module).expect("entered above");
        if let Some(name) = name {
            here.defines.insert(name);
        }
        match item {
            syn::Item::Use(u) => {
                let public = !matches!(u.vis, syn::Visibility::Inherited);
                let mut out = Vec::new();
                use_tree(&u.tree, Vec::new(), &mut out);
                for (name, path) in out {
                    here.uses.push(Use { name, path, public });
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    let child = join(module, &m.ident.to_string());
                    read_items(&child, inner, said);
                }
            }
            _ => {
                let mut paths = Paths::default();
                paths.visit_item(item);
                let here = said.get_mut(module).expect("entered above");
                here.paths.extend(paths.paths);
                here.mentions.extend(paths.idents);
            }
        }
    }
}

/// An item's attributes and the name it defines, if any.
fn item_attrs_and_name(item: &syn::Item) -> (&[syn::Attribute], Option<String>) {
    use syn::Item;
    let named = |attrs, ident: &syn::Ident| (attrs, Some(ident.to_string()));
    match item {
        Item::Const(i) => named(&i.attrs[..], &i.ident),
        Item::Enum(i) => named(&i.attrs[..], &i.ident),
        Item::Fn(i) => named(&i.attrs[..], &i.sig.ident),
        Item::Macro(i) => match &i.ident {
            Some(ident) => named(&i.attrs[..], ident),
            None => (&i.attrs[..], None),
        },
        Item::Mod(i) => named(&i.attrs[..], &i.ident),
        Item::Static(i) => named(&i.attrs[..], &i.ident),
        Item::Struct(i) => named(&i.attrs[..], &i.ident),
        Item::Trait(i) => named(&i.attrs[..], &i.ident),
        Item::Type(i) => named(&i.attrs[..], &i.ident),
        Item::Union(i) => named(&i.attrs[..], &i.ident),
        Item::Impl(i) => (&i.attrs[..], None),
        Item::Use(i) => (&i.attrs[..], None),
        Item::ExternCrate(i) => (&i.attrs[..], None),
        Item::ForeignMod(i) => (&i.attrs[..], None),
        Item::TraitAlias(i) => (&i.attrs[..], None),
        _ => (&[], None),
    }
}

/// The names a `use` tree brings in, each with its whole path.
fn use_tree(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    let with = |segment: String| {
        let mut p = prefix.clone();
        p.push(segment);
        p
    };
    match tree {
        syn::UseTree::Path(p) => use_tree(&p.tree, with(p.ident.to_string()), out),
        syn::UseTree::Name(n) if n.ident == "self" => {
            if let Some(last) = prefix.last() {
                out.push((last.clone(), prefix.clone()));
            }
        }
        syn::UseTree::Name(n) => out.push((n.ident.to_string(), with(n.ident.to_string()))),
        syn::UseTree::Rename(r) => {
            let path = if r.ident == "self" {
                prefix.clone()
            } else {
                with(r.ident.to_string())
            };
            out.push((r.rename.to_string(), path));
        }
        // A glob brings in whatever its module has: the module itself is
        // the dependency.
        syn::UseTree::Glob(_) => out.push(("*".to_owned(), prefix.clone())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_tree(t, prefix.clone(), out);
            }
        }
    }
}

/// The paths of more than one segment an item's code writes, and every
/// identifier it mentions; test items inside it left out.
#[derive(Default)]
struct Paths {
    paths: Vec<Vec<String>>,
    idents: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.idents.extend(segments.iter().cloned());
        if segments.len() > 1 {
            self.paths.push(segments);
        }
        syn::visit::visit_path(self, path);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // A macro's path counts; its tokens are read as paths where they
        // parse as `a::b::c` sequences.
        syn::visit::visit_macro(self, mac);
        let tokens: Vec<proc_macro2::TokenTree> = mac.tokens.clone().into_iter().collect();
        macro_paths(&tokens, &mut self.paths, &mut self.idents);
    }
}

/// Paths written inside a macro's tokens (`view! { <X a=crate::b::c /> }`).
fn macro_paths(
    tokens: &[proc_macro2::TokenTree],
    paths: &mut Vec<Vec<String>>,
    idents: &mut BTreeSet<String>,
) {
    use proc_macro2::TokenTree;
    let mut found: Vec<Vec<String>> = vec![Vec::new()];
    let mut colons = 0;
    for t in tokens {
        match t {
            TokenTree::Ident(i) => {
                idents.insert(i.to_string());
                if colons != 2 {
                    found.push(Vec::new());
                }
                found.last_mut().expect("never empty").push(i.to_string());
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == ':' => colons += 1,
            TokenTree::Group(g) => {
                found.push(Vec::new());
                colons = 0;
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                macro_paths(&inner, paths, idents);
            }
            _ => {
                found.push(Vec::new());
                colons = 0;
            }
        }
    }
    paths.extend(found.into_iter().filter(|p| p.len() > 1));
}

fn join(module: &str, name: &str) -> Module {
    if module.is_empty() {
        name.to_owned()
    } else {
        format!("{module}::{name}")
    }
}

fn parent(module: &str) -> Module {
    module
        .rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_owned())
}

struct Resolver<'a> {
    said: &'a BTreeMap<Module, Said>,
    modules: &'a BTreeSet<Module>,
}

impl Resolver<'_> {
    /// Where a path written in `module`'s code leads: only paths that
    /// start in the crate (`crate`, `self`, `super`, a child module, or a
    /// name a `use` brought in) lead anywhere.
    fn resolve_written(&self, module: &str, path: &[String]) -> Option<Module> {
        self.resolve(module, path, 0)
    }

    /// The module that defines what `path`, as written in `from`, names
    /// (`None` outside the crate). `depth` bounds re-export chains.
    fn resolve(&self, from: &str, path: &[String], depth: u32) -> Option<Module> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let (mut at, rest): (Module, &[String]) = match path[0].as_str() {
            "crate" => (String::new(), &path[1..]),
            "self" => (from.to_owned(), &path[1..]),
            "super" => {
                let mut at = parent(from);
                let mut i = 1;
                while path.get(i).is_some_and(|s| s == "super") {
                    at = parent(&at);
                    i += 1;
                }
                (at, &path[i..])
            }
            first => {
                if self.modules.contains(&join(from, first)) {
                    (from.to_owned(), path)
                } else {
                    // A name a `use` of this module brought in.
                    let used = self.said.get(from)?.uses.iter().find(|u| u.name == first)?;
                    let mut whole = used.path.clone();
                    whole.extend(path[1..].iter().cloned());
                    return self.resolve(from, &whole, depth + 1);
                }
            }
        };
        for (i, segment) in rest.iter().enumerate() {
            let child = join(&at, segment);
            if self.modules.contains(&child) {
                at = child;
                continue;
            }
            let said = self.said.get(&at)?;
            if said.defines.contains(segment) {
                return Some(at);
            }
            // Passed on from elsewhere: follow the re-export.
            if let Some(u) = said.uses.iter().find(|u| &u.name == segment) {
                let mut whole = u.path.clone();
                whole.extend(rest[i + 1..].iter().cloned());
                return self.resolve(&at, &whole, depth + 1);
            }
            // What no item here defines (a macro's, a glob's): the module.
            return Some(at);
        }
        // A path to a module itself (`use crate::experiments;`).
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cycles `imports::cycles` finds in a scratch crate of `files`,
    /// as `expected` lists them (each a sorted list of modules).
    fn check(name: &str, files: &[(&str, &str)], expected: &[&[&str]]) {
        let dir = crate::tidy::scratch(name, files);
        let found = cycles(&graph(&dir));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(found, expected, "{name}");
    }

    /// Each way a cycle can hide from a reading of `use` lines is found:
    /// through a re-export (`a` uses `b::Thing`, which `b` passes on from
    /// `b::inner`, which uses `a`), through `super::` paths between
    /// siblings, and after a test module (whose own imports are no
    /// edges); a tree that points one way has none, re-exports and all.
    #[test]
    fn planted_cycles_are_found() {
        check(
            "reexport",
            &[
                ("lib.rs", "pub mod a;\npub mod b;\n"),
                (
                    "a.rs",
                    "use crate::b::Thing;\npub struct Other(pub Thing);\n",
                ),
                ("b/mod.rs", "mod inner;\npub use inner::Thing;\n"),
                (
                    "b/inner.rs",
                    "pub struct Thing;\npub fn f(_: crate::a::Other) {}\n",
                ),
            ],
            &[&["a", "b::inner"]],
        );
        check(
            "super",
            &[
                ("lib.rs", "pub mod x;\n"),
                ("x/mod.rs", "pub mod y;\npub mod z;\n"),
                ("x/y.rs", "use super::z::Z;\npub struct Y(pub Z);\n"),
                ("x/z.rs", "pub struct Z;\npub fn g(_: super::y::Y) {}\n"),
            ],
            &[&["x::y", "x::z"]],
        );
        check(
            "after-tests",
            &[
                ("lib.rs", "pub mod m;\npub mod n;\npub mod t;\n"),
                (
                    "m.rs",
                    "pub struct M;\n#[cfg(test)]\nmod tests {\n    use crate::t::T;\n}\n\
                     use crate::n::N;\npub fn f(_: N) {}\n",
                ),
                ("n.rs", "pub struct N;\npub fn g(_: crate::m::M) {}\n"),
                ("t.rs", "pub struct T;\npub fn h(_: crate::m::M) {}\n"),
            ],
            &[&["m", "n"]],
        );
        check(
            "dag",
            &[
                ("lib.rs", "pub mod words;\npub mod top;\n"),
                ("words/mod.rs", "mod unit;\npub use unit::Unit;\n"),
                ("words/unit.rs", "pub struct Unit;\n"),
                ("top.rs", "use crate::words::Unit;\npub fn f(_: Unit) {}\n"),
            ],
            &[],
        );
    }
}
