//! A rule system's verbs, made only when a line first needs them.

use std::cell::OnceCell;
use std::rc::Rc;

use super::{Resolver, VerbDoc};
use crate::answer::resolution::Effect;
use crate::command::System;

/// One rule system's verbs, made when first wanted: all of them, or
/// (for a line) only those of the line's verb.
pub(crate) struct SystemVerbs {
    pub(super) books: &'static [System],
    all: OnceCell<Vec<Rc<VerbDoc>>>,
    /// Each verb name with its verbs, made one name at a time.
    named: OnceCell<Vec<OneName>>,
    make: Box<MakeVerbs>,
    names: Box<dyn Fn() -> Vec<&'static str>>,
}

/// A verb name, and its verbs once made.
type OneName = (&'static str, OnceCell<Vec<Rc<VerbDoc>>>);

/// Gives every verb of a system (`None`) or those of one name.
type MakeVerbs = dyn Fn(Option<&str>) -> Vec<Rc<VerbDoc>>;

impl SystemVerbs {
    /// `make(None)` makes every verb, `make(Some(name))` those of one name.
    pub(crate) fn new(
        books: &'static [System],
        names: impl Fn() -> Vec<&'static str> + 'static,
        make: impl Fn(Option<&str>) -> Vec<Rc<VerbDoc>> + 'static,
    ) -> SystemVerbs {
        SystemVerbs {
            books,
            all: OnceCell::new(),
            named: OnceCell::new(),
            make: Box::new(make),
            names: Box::new(names),
        }
    }

    pub(super) fn verbs(&self) -> &[Rc<VerbDoc>] {
        self.all.get_or_init(|| (self.make)(None))
    }

    /// Verbs among which are those called `name`: all of the system's once
    /// they are made (the caller picks by name), else those made alone.
    pub(super) fn named(&self, name: &str) -> &[Rc<VerbDoc>] {
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

/// A rule system's verbs as one rule set makes them, each made once, the
/// first time anything needs it, and shared by everything that does: the
/// catalog (for binding and help), the game (which applies the effects of
/// the typed resolver) and the check that no unit id is a word. Making a
/// verb builds every word of it from the tables, which is most of what a
/// one-shot line costs: made three times over, it was.
pub trait VerbShelf {
    /// Every verb, in the order help lists them (each book's in turn).
    fn all(&self) -> Vec<Rc<VerbDoc>>;

    /// The verbs called `name` (one a book, where the books share a verb).
    fn named(&self, name: &str) -> Vec<Rc<VerbDoc>>;

    /// The names of the verbs, in help's order, without making any where
    /// the system makes them one name at a time.
    fn names(&self) -> Vec<&'static str>;
}

/// One verb as made: as the catalog keeps it (effects shown) and its
/// resolver as the system made it (effects typed, for a game).
struct Made<E> {
    shown: Rc<VerbDoc>,
    typed: Resolver<E>,
}

/// The verbs of one name, once made.
type Slot<E> = (&'static str, OnceCell<Vec<Made<E>>>);

/// Makes every verb of a system (`None`) or those of one name.
type MakeTyped<E> = dyn Fn(Option<&str>) -> Vec<VerbDoc<E>>;

/// A [`VerbShelf`] of a system whose resolvers make effects `E`.
pub(crate) struct TypedVerbs<E> {
    /// One slot a verb name; a single unnamed one where the system makes
    /// all its verbs at once.
    slots: Vec<Slot<E>>,
    make: Box<MakeTyped<E>>,
}

impl<E> Default for TypedVerbs<E> {
    /// No verbs: the place of the shelf in tables that only verbs hold
    /// (a verb holds its tables, which must not hold it again).
    fn default() -> TypedVerbs<E> {
        TypedVerbs {
            slots: Vec::new(),
            make: Box::new(|_| Vec::new()),
        }
    }
}

impl<E> std::fmt::Debug for TypedVerbs<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let made: Vec<&str> = self
            .slots
            .iter()
            .filter(|(_, made)| made.get().is_some())
            .map(|(name, _)| *name)
            .collect();
        f.debug_struct("TypedVerbs").field("made", &made).finish()
    }
}

impl<E: Effect + Clone + 'static> TypedVerbs<E> {
    /// `make(None)` makes every verb, `make(Some(name))` those called
    /// `name`, one of `names` (help's order). With no names, every verb
    /// is made at once, the first time any is wanted.
    pub(crate) fn new(
        names: &[&'static str],
        make: impl Fn(Option<&str>) -> Vec<VerbDoc<E>> + 'static,
    ) -> TypedVerbs<E> {
        let slots = if names.is_empty() {
            vec![("", OnceCell::new())]
        } else {
            names.iter().map(|n| (*n, OnceCell::new())).collect()
        };
        TypedVerbs {
            slots,
            make: Box::new(make),
        }
    }

    fn whole(&self) -> bool {
        self.slots.len() == 1 && self.slots[0].0.is_empty()
    }

    /// Every slot filled: by one making of every verb where none is made
    /// yet, else one name at a time.
    fn fill(&self) {
        if self.slots.iter().all(|(_, made)| made.get().is_none()) {
            let mut made = split((self.make)(None));
            debug_assert!(
                self.whole()
                    || made
                        .iter()
                        .all(|(n, _)| self.slots.iter().any(|(s, _)| s == n)),
                "a verb whose name the system does not list"
            );
            for (name, slot) in &self.slots {
                let _ = slot.set(if self.whole() {
                    std::mem::take(&mut made)
                        .into_iter()
                        .flat_map(|(_, v)| v)
                        .collect()
                } else {
                    made.iter_mut()
                        .find(|(n, _)| n == name)
                        .map(|(_, v)| std::mem::take(v))
                        .unwrap_or_default()
                });
            }
            return;
        }
        for (name, slot) in &self.slots {
            slot.get_or_init(|| shelve((self.make)(Some(name))));
        }
    }

    fn slot(&self, name: &str) -> Option<&[Made<E>]> {
        if self.whole() {
            self.fill();
            return self.slots[0].1.get().map(Vec::as_slice);
        }
        let (name, slot) = self.slots.iter().find(|(n, _)| *n == name)?;
        Some(slot.get_or_init(|| shelve((self.make)(Some(name)))))
    }

    /// The typed resolver of a book's verb, made now if it is not yet.
    pub(crate) fn resolver(&self, book: System, name: &str) -> Option<Resolver<E>> {
        self.slot(name)?
            .iter()
            .find(|m| m.shown.name == name && m.shown.system.is_none_or(|s| s == book))
            .map(|m| m.typed.clone())
    }
}

impl<E: Effect + Clone + 'static> VerbShelf for TypedVerbs<E> {
    fn all(&self) -> Vec<Rc<VerbDoc>> {
        self.fill();
        let mut all: Vec<Rc<VerbDoc>> = self
            .slots
            .iter()
            .flat_map(|(_, made)| made.get().into_iter().flatten())
            .map(|m| m.shown.clone())
            .collect();
        // Each book's verbs in turn, in the order the books first come:
        // the same order however the verbs came to be made.
        let mut books: Vec<Option<System>> = Vec::new();
        for verb in &all {
            if !books.contains(&verb.system) {
                books.push(verb.system);
            }
        }
        all.sort_by_key(|v| books.iter().position(|b| *b == v.system));
        all
    }

    fn named(&self, name: &str) -> Vec<Rc<VerbDoc>> {
        self.slot(name)
            .into_iter()
            .flatten()
            .filter(|m| m.shown.name == name)
            .map(|m| m.shown.clone())
            .collect()
    }

    fn names(&self) -> Vec<&'static str> {
        if !self.whole() {
            return self.slots.iter().map(|(n, _)| *n).collect();
        }
        let mut names: Vec<&'static str> = Vec::new();
        for verb in self.all() {
            if !names.contains(&verb.name) {
                names.push(verb.name);
            }
        }
        names
    }
}

/// Verbs as made, each kept shown and typed.
fn shelve<E: Effect + Clone + 'static>(verbs: Vec<VerbDoc<E>>) -> Vec<Made<E>> {
    verbs
        .into_iter()
        .map(|v| {
            let typed = v.resolve.clone();
            Made {
                shown: Rc::new(v.shown()),
                typed,
            }
        })
        .collect()
}

/// Verbs as made, grouped by name in the order they came.
fn split<E: Effect + Clone + 'static>(verbs: Vec<VerbDoc<E>>) -> Vec<(&'static str, Vec<Made<E>>)> {
    let mut by_name: Vec<(&'static str, Vec<Made<E>>)> = Vec::new();
    for made in shelve(verbs) {
        let name = made.shown.name;
        match by_name.iter_mut().find(|(n, _)| *n == name) {
            Some((_, these)) => these.push(made),
            None => by_name.push((name, vec![made])),
        }
    }
    by_name
}
