//! Army lists (`armies/*.toml`): the units, generals, figures and leaders a
//! command can name by id.
//!
//! The file format (SPEC section 5) has an `[army]` table saying which rule
//! book the list is for, then entries such as `[[unit]]`. Which entries a
//! list has and what each holds belongs to the rule system ([`Schema`]);
//! this module reads the document, checks what every list shares — the
//! header, ids, names, unknown keys, keys of another system — and hands
//! each entry to the system's [`Reader`]. Everything is checked, and a
//! list either loads whole or not at all.

pub mod doc;
pub(crate) mod edit;
mod load;

use std::fmt;
use std::rc::Rc;

use toml::de::DeTable;

use crate::command::System;

pub(crate) use edit::EntryEdits;
pub(crate) use edit::edit_list;
pub(crate) use load::MAX_ABSENT;
pub(crate) use load::MAX_ENTRIES;
pub(crate) use load::MAX_ID_LEN;
pub(crate) use load::check_files;
pub(crate) use load::one_of;
pub(crate) use load::read_again;
pub(crate) use load::valid_id;
pub use load::{
    ARMY_KEYS, ArmyError, Checker, Entry, MAX_BYTES, Value, load_army, parse_army, summary,
};

/// One loaded list.
#[derive(Clone)]
pub struct Army {
    /// Where it was read from, for messages.
    pub file: String,
    pub(crate) name: String,
    pub rules: System,
    pub side: String,
    /// The list as written, for its rule system to read again into its
    /// own types ([`read_again`]).
    pub(crate) text: Rc<str>,
    /// The entries, as the rule system read them.
    pub list: Rc<dyn ArmyList>,
}

impl fmt::Debug for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Army")
            .field("file", &self.file)
            .field("name", &self.name)
            .field("rules", &self.rules)
            .field("side", &self.side)
            .field("list", &self.list)
            .finish()
    }
}

impl Army {
    /// Every id in the list, with what kind of entry it names.
    pub fn ids(&self) -> Vec<(String, &'static str)> {
        self.list
            .members()
            .into_iter()
            .map(|m| (m.id.to_string(), m.kind))
            .collect()
    }
}

/// A list's entries in a rule system's own types.
pub trait ArmyList: fmt::Debug {
    /// Each entry's id, name and kind (`unit`, `figure`…), in file order
    /// by kind.
    fn members(&self) -> Vec<Member<'_>>;

    /// The entries a campaign holds out of this battle (`gone`, `absent`):
    /// read and checked, but no member of the game.
    fn away(&self) -> Vec<Away> {
        Vec::new()
    }
}

/// An entry a campaign holds out of the battle: gone for good (killed,
/// eliminated, every base lost), or absent for a number of battles
/// (wounded). Read by [`Checker::away`] from the keys `gone` and `absent`
/// of the sections whose rule system takes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Away {
    pub kind: &'static str,
    pub id: String,
    pub name: String,
    /// Gone for good, and why (`dead after raid-1`).
    pub gone: Option<String>,
    /// The battles it still sits out, this one included (0 when gone).
    pub absent: i64,
}

impl Away {
    /// Where it is, in words, for a roster's notes.
    pub(crate) fn describe(&self) -> String {
        match (&self.gone, self.absent) {
            (Some(why), _) => format!("{} ({}) is gone: {why}", self.id, self.name),
            (None, 1) => format!("{} ({}) sits out this battle", self.id, self.name),
            (None, n) => format!(
                "{} ({}) sits out this battle and {} more",
                self.id,
                self.name,
                n - 1
            ),
        }
    }
}

/// One entry of a list, as every system's entries are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub kind: &'static str,
}

/// The kinds of entry a rule book's lists hold.
pub trait Schema: Sync {
    /// The sections (`unit` for `[[unit]]`) and the keys each takes.
    fn sections(&self, book: System) -> &'static [Section];
    /// A reader for one list of this book.
    fn reader(&self, book: System) -> Box<dyn Reader>;

    /// What a list's author is told of each section and key (the manual
    /// page drumhead-armies(5), `help armies`, `drumhead new-army`). A
    /// system without one still has its keys listed, undescribed.
    fn doc(&self, _book: System) -> Option<doc::ArmyDoc> {
        None
    }
}

/// A kind of entry: `[[unit]]` and its keys (`id` and `name` included).
#[derive(Debug, Clone, Copy)]
pub struct Section {
    pub name: &'static str,
    pub keys: &'static [&'static str],
}

/// Reads one list's entries into a rule system's types.
pub trait Reader {
    /// One entry of a section, whose id and name the core has read (each
    /// `None` when missing or bad, already reported).
    fn entry(
        &mut self,
        section: &str,
        ck: &mut Checker,
        e: &mut Entry,
        id: Option<String>,
        name: Option<String>,
    );

    /// Checks across entries, once all are read: references between them.
    fn cross_checks(&mut self, _ck: &mut Checker, _doc: &DeTable) {}

    fn finish(self: Box<Self>) -> Rc<dyn ArmyList>;
}

/// The rule books lists may be written for, each with its system's name
/// and schema: what the loader is given.
#[derive(Clone)]
pub struct Schemas(pub Vec<(System, &'static str, &'static dyn Schema)>);

impl Schemas {
    pub(crate) fn find(&self, id: &str) -> Option<&(System, &'static str, &'static dyn Schema)> {
        self.0.iter().find(|(b, _, _)| b.id() == id)
    }

    /// Every section any book's lists have, in first-seen order.
    pub(crate) fn section_names(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for (book, _, schema) in &self.0 {
            for s in schema.sections(*book) {
                if !out.contains(&s.name) {
                    out.push(s.name);
                }
            }
        }
        out
    }

    /// Another system whose lists take `key` in `section`: for the message
    /// that it is that system's field.
    pub(crate) fn foreign(&self, book: System, section: &str, key: &str) -> Option<&'static str> {
        let own = self
            .0
            .iter()
            .find(|(b, _, _)| *b == book)
            .map(|(_, name, _)| *name);
        self.0
            .iter()
            .filter(|(_, name, _)| Some(*name) != own)
            .find(|(b, _, schema)| {
                schema
                    .sections(*b)
                    .iter()
                    .any(|s| s.name == section && s.keys.contains(&key))
            })
            .map(|(_, name, _)| *name)
    }
}

/// The lists one rule system's reader made, each found again from the
/// army that holds it: so that the system's game has a list in its own
/// types as it was read when it loaded, rather than read again from its
/// text (which costs a one-shot line as much as loading it did). Each is
/// held weakly, so a list no army holds any more is dropped; a held one
/// is found by the address of the list the army holds, which no other
/// list can have while this one lives.
pub(crate) struct ListShelf<L>(std::cell::RefCell<Vec<std::rc::Weak<L>>>);

impl<L: ArmyList + 'static> ListShelf<L> {
    pub(crate) const fn new() -> ListShelf<L> {
        ListShelf(std::cell::RefCell::new(Vec::new()))
    }

    /// A list as its reader finished it: kept here, and handed to the
    /// army that will hold it.
    pub(crate) fn keep(&self, list: L) -> Rc<dyn ArmyList> {
        let list = Rc::new(list);
        let mut made = self.0.borrow_mut();
        made.retain(|w| w.strong_count() > 0);
        made.push(Rc::downgrade(&list));
        list
    }

    /// The list `army` holds, when this shelf's reader made it.
    pub(crate) fn of(&self, army: &Army) -> Option<Rc<L>> {
        let held = Rc::as_ptr(&army.list).cast::<()>();
        self.0
            .borrow()
            .iter()
            .find(|w| std::ptr::eq(w.as_ptr().cast::<()>(), held))
            .and_then(std::rc::Weak::upgrade)
    }
}

/// The list `army` holds, in the own types of the rule system `name` of
/// `books` (whose reader keeps what it makes on `shelf`): the very list
/// read when it loaded, or, where the shelf no longer has it, the list
/// read again from its text into `reader()`. `None` for a list of another
/// system.
pub(crate) fn list_of<L: ArmyList + Reader + 'static>(
    shelf: &'static std::thread::LocalKey<ListShelf<L>>,
    (name, books): (&'static str, &[System]),
    schema: &'static dyn Schema,
    army: &Army,
    reader: impl FnOnce() -> L,
) -> Option<Rc<L>> {
    if !books.contains(&army.rules) {
        return None;
    }
    if let Some(list) = shelf.with(|read| read.of(army)) {
        return Some(list);
    }
    read_again(army, name, schema, reader()).map(Rc::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Few(Vec<&'static str>);

    impl ArmyList for Few {
        fn members(&self) -> Vec<Member<'_>> {
            self.0
                .iter()
                .map(|id| Member {
                    id,
                    name: id,
                    kind: "unit",
                })
                .collect()
        }
    }

    fn army(list: Rc<dyn ArmyList>) -> Army {
        Army {
            file: "few.toml".into(),
            name: String::new(),
            rules: System::new(&crate::command::Book {
                id: "few",
                title: "Few",
            }),
            side: String::new(),
            text: "".into(),
            list,
        }
    }

    /// A system's game finds the very list its reader made, not a copy
    /// read again; a list it did not make is not found; one no army holds
    /// any more is let go.
    #[test]
    fn a_shelf_finds_the_list_its_reader_made() {
        let shelf = ListShelf::<Few>::new();
        let first = army(shelf.keep(Few(vec!["gren-1"])));
        let second = army(shelf.keep(Few(vec!["aus-3"])));
        let found = shelf.of(&second).expect("the second list");
        assert_eq!(found.0, ["aus-3"]);
        assert!(std::ptr::eq(
            Rc::as_ptr(&found).cast::<()>(),
            Rc::as_ptr(&second.list).cast::<()>()
        ));
        assert_eq!(shelf.of(&first.clone()).expect("the first").0, ["gren-1"]);
        let stranger = army(Rc::new(Few(vec!["gren-1"])));
        assert!(shelf.of(&stranger).is_none());
        drop((first, found, second));
        let _third = shelf.keep(Few(Vec::new()));
        assert_eq!(
            shelf.0.borrow().len(),
            1,
            "the lists no army holds are let go"
        );
    }
}
