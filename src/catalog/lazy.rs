//! A rule system's verbs, made only when a line first needs them.

use std::cell::OnceCell;

use super::VerbDoc;
use crate::command::System;

/// One rule system's verbs, made when first wanted: all of them, or
/// (for a line) only those of the line's verb.
pub(crate) struct SystemVerbs {
    pub(super) books: &'static [System],
    all: OnceCell<Vec<VerbDoc>>,
    /// Each verb name with its verbs, made one name at a time.
    named: OnceCell<Vec<OneName>>,
    make: Box<MakeVerbs>,
    names: Box<dyn Fn() -> Vec<&'static str>>,
}

/// A verb name, and its verbs once made.
type OneName = (&'static str, OnceCell<Vec<VerbDoc>>);

/// Makes every verb of a system (`None`) or those of one name.
type MakeVerbs = dyn Fn(Option<&str>) -> Vec<VerbDoc>;

impl SystemVerbs {
    /// `make(None)` makes every verb, `make(Some(name))` those of one name.
    pub(crate) fn new(
        books: &'static [System],
        names: impl Fn() -> Vec<&'static str> + 'static,
        make: impl Fn(Option<&str>) -> Vec<VerbDoc> + 'static,
    ) -> SystemVerbs {
        SystemVerbs {
            books,
            all: OnceCell::new(),
            named: OnceCell::new(),
            make: Box::new(make),
            names: Box::new(names),
        }
    }

    pub(super) fn verbs(&self) -> &[VerbDoc] {
        self.all.get_or_init(|| (self.make)(None))
    }

    /// Verbs among which are those called `name`: all of the system's once
    /// they are made (the caller picks by name), else those made alone.
    pub(super) fn named(&self, name: &str) -> &[VerbDoc] {
        if let Some(all) = self.all.get() {
            return all;
        }
        let named = self.named.get_or_init(|| {
            (self.names)()
                .into_iter()
                .map(|n| (n, OnceCell::new()))
                .collect()
        });
        match named.iter().find(|(n, _)| *n == name) {
            Some((n, made)) => made.get_or_init(|| (self.make)(Some(n))),
            None => &[],
        }
    }
}
