//! Games kept in files, for the tests that play them in process.

use crate::game::{ArmySource, Game, Options};
use crate::system::Tables;

/// A fresh directory of this test's own, removed with everything in it
/// when the test lets go of it: a test run leaves nothing in the
/// temporary folder.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("drumhead-test-{name}-"))
        .tempdir()
        .expect("a temporary directory")
}

/// A game kept in a file (a new one in a directory of its own, named
/// after `name`), opened in process: a game that keeps its units'
/// state, so that a state word typed against it is refused (issue 35).
pub fn kept(name: &str, sources: Vec<ArmySource>, tables: &Tables) -> Held<Game> {
    let dir = temp_dir(name);
    let game = Game::open(
        &dir.path().join("g.json"),
        sources,
        tables,
        Options::default(),
    )
    .expect("a new game kept in a file");
    Held {
        value: game,
        _dir: dir,
    }
}

/// A value that keeps files in a temporary directory (a game, a
/// session over one), and the directory, removed after the value.
pub struct Held<T> {
    value: T,
    _dir: tempfile::TempDir,
}

impl<T> Held<T> {
    /// The value made into another that keeps the same files.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Held<U> {
        Held {
            value: f(self.value),
            _dir: self._dir,
        }
    }
}

impl<T> std::ops::Deref for Held<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> std::ops::DerefMut for Held<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}
