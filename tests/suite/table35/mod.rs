//! Issue 35, "At the table": sides by name in what the program prints.
//! The dice read as the procedure throws them, what the umpire states
//! taken where no game is kept, and the rules a fourth audit found wrong
//! are tried in process, with the library: tests/unit/table35/.

mod sides;
