//! A line makes only its own verb, from its own system's tables (issue 24:
//! "parse only what a line needs"). Made one at a time, each verb must be
//! the verb that all of them made together would have given.

use crate::tables::TableSource;

#[test]
fn each_verb_made_alone_is_the_verb_made_with_all() {
    let registry = crate::systems::all();
    let load = || {
        registry
            .load(&TableSource::embedded())
            .expect("embedded tables")
    };
    // Two readings of the tables: one makes every verb together, the
    // other each verb alone (a set keeps the verbs it made).
    let (together_tables, alone_tables) = (load(), load());
    let mut checked = 0;
    for system in registry.systems() {
        let book = system.books()[0];
        let set = alone_tables.set(book).expect("a rule set for each system");
        let all = together_tables
            .set(book)
            .expect("a rule set for each system")
            .verbs()
            .all();
        let mut names: Vec<&str> = Vec::new();
        for verb in &all {
            if !names.contains(&verb.name) {
                names.push(verb.name);
            }
        }
        assert_eq!(
            set.verbs().names(),
            names,
            "{}: verb names in order",
            system.name()
        );
        for name in names {
            let alone = set.verbs().named(name);
            let together: Vec<_> = all.iter().filter(|v| v.name == name).collect();
            assert!(!alone.is_empty(), "{}: {name} made alone", system.name());
            assert_eq!(alone.len(), together.len(), "{}: {name}", system.name());
            for (a, t) in alone.iter().zip(together) {
                assert_eq!((a.system, a.examples), (t.system, t.examples), "{name}");
                assert_eq!(a.vocab, t.vocab, "{name}: words");
                checked += 1;
            }
        }
    }
    // Drums and Muskets' ten, Mayhem's and both Musket & Saber books'.
    assert!(checked >= 20, "only {checked} verbs checked");
}

#[test]
fn a_line_resolves_the_same_in_a_session_that_made_every_verb() {
    let line = "resilience shooting line +determined +hit rolled 4 3";
    let run = |all_first: bool| {
        let registry = crate::systems::all();
        let tables = registry
            .load(&TableSource::embedded())
            .expect("embedded tables");
        let book = registry.default_book().expect("a book");
        let mut session = crate::session::Session::new(tables, book, 7);
        if all_first {
            assert!(session.catalog.verbs().count() > 20);
        }
        format!("{:?}", session.run_line(line))
    };
    let alone = run(false);
    assert!(alone.contains("carry on"), "{alone}");
    assert_eq!(alone, run(true));
}

/// "Each verb is made once per process, when a line first needs it, and
/// shared by the catalog, the game and the id checks" (issue 37): a verb
/// asked for again, alone or with every other, is the one made first.
#[test]
fn a_verb_is_made_once_and_shared() {
    let registry = crate::systems::all();
    let tables = registry
        .load(&TableSource::embedded())
        .expect("embedded tables");
    let mut checked = 0;
    for system in registry.systems() {
        let set = tables.set(system.books()[0]).expect("a rule set");
        let shelf = set.verbs();
        let name = shelf.names()[0];
        let first = shelf.named(name);
        let all = shelf.all();
        for verb in &first {
            assert!(
                all.iter().any(|v| std::rc::Rc::ptr_eq(v, verb)),
                "{}: `{name}` made again with every verb",
                system.name()
            );
            checked += 1;
        }
        for (again, verb) in shelf.named(name).iter().zip(&first) {
            assert!(std::rc::Rc::ptr_eq(again, verb), "{name} made twice");
        }
    }
    assert!(checked >= 3, "only {checked} verbs checked");
}
