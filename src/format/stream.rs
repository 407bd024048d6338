//! A sweep written as its rows are counted. While its table of a column
//! per outcome stays small ([`WIDE_CELLS`]) its rows are kept, and the
//! answer is written whole as [`Format::write`] writes it; once it grows
//! past that, a format that can ([`Format::long`]) writes each
//! combination as its own distribution, the rows kept so far at once and
//! every later one as soon as it is counted, so that memory does not grow
//! with the answer and the first row is out long before the last.

use std::io::{self, Write};

use rustc_hash::FxHashSet;

use super::{Format, Source};
use crate::answer::sweep::{Row, Rows, Swept, WIDE_CELLS};

/// A format's way of writing a sweep a combination at a time.
pub(crate) trait Long {
    /// What comes before the first row (`first`).
    fn begin(
        &mut self,
        swept: &[Swept],
        first: &Row,
        source: Source,
        out: &mut dyn Write,
    ) -> io::Result<()>;

    /// One combination.
    fn row(&mut self, swept: &[Swept], row: &Row, out: &mut dyn Write) -> io::Result<()>;

    /// What comes after the last row written: after the whole sweep, or
    /// the rows before an error (the error follows as any error does).
    fn end(&mut self, out: &mut dyn Write) -> io::Result<()>;
}

/// Where a front end's sweep rows go ([`Rows`]): kept while they fit a
/// table, written long after.
pub(crate) struct SweepStream<'a> {
    format: Box<dyn Format + 'a>,
    source: Source<'a>,
    out: &'a mut dyn Write,
    /// Whether an answer begins with a blank line (text's do).
    separated: bool,
    kept: Vec<Row>,
    /// The outcome texts of the rows kept: the table's columns.
    texts: FxHashSet<String>,
    long: Option<Box<dyn Long>>,
    failed: Option<io::Error>,
}

impl<'a> SweepStream<'a> {
    pub(crate) fn new(
        format: Box<dyn Format + 'a>,
        source: Source<'a>,
        out: &'a mut dyn Write,
        separated: bool,
    ) -> SweepStream<'a> {
        SweepStream {
            format,
            source,
            out,
            separated,
            kept: Vec::new(),
            texts: FxHashSet::default(),
            long: None,
            failed: None,
        }
    }

    fn take(&mut self, swept: &[Swept], row: Row) -> io::Result<()> {
        if let Some(long) = &mut self.long {
            long.row(swept, &row, self.out)?;
            return self.out.flush();
        }
        for o in &row.odds.outcomes {
            if !self.texts.contains(o.text.as_str()) {
                self.texts.insert(o.text.clone());
            }
        }
        self.kept.push(row);
        // Every combination is a row of the table: its cells are known to
        // be at least the rows to come times the columns seen.
        let combinations: usize = swept.iter().map(|s| s.choices.len()).product();
        if combinations.saturating_mul(self.texts.len()) <= WIDE_CELLS {
            return Ok(());
        }
        // A format that writes only whole answers keeps every row.
        let Some(mut long) = self.format.long() else {
            return Ok(());
        };
        let kept = std::mem::take(&mut self.kept);
        self.texts = FxHashSet::default();
        if self.separated {
            self.out.write_all(b"\n")?;
        }
        if let Some(first) = kept.first() {
            long.begin(swept, first, self.source, self.out)?;
        }
        for row in &kept {
            long.row(swept, row, self.out)?;
        }
        self.long = Some(long);
        self.out.flush()
    }

    /// The end of the answer. The rows, when they were kept (the answer
    /// is then written whole, as any answer is); `None` when they were
    /// written, the end now too.
    pub(crate) fn end(mut self) -> io::Result<Option<Vec<Row>>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        match &mut self.long {
            Some(long) => {
                long.end(self.out)?;
                self.out.flush()?;
                Ok(None)
            }
            None => Ok(Some(self.kept)),
        }
    }
}

impl Rows for SweepStream<'_> {
    fn row(&mut self, swept: &[Swept], row: Row) -> bool {
        match self.take(swept, row) {
            Ok(()) => true,
            Err(e) => {
                self.failed = Some(e);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;

    /// What happened, in order.
    type Log = Rc<RefCell<Vec<String>>>;

    /// Standard output: each flush logs how many combinations are out.
    struct Out {
        log: Log,
        bytes: Vec<u8>,
    }

    impl Write for Out {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            let text = String::from_utf8_lossy(&self.bytes);
            let out = text.matches("\ndistance ").count();
            self.log.borrow_mut().push(format!("wrote {out}"));
            Ok(())
        }
    }

    /// The stream, each row logged as it is counted.
    struct Counted<'a> {
        log: Log,
        stream: SweepStream<'a>,
        rows: usize,
    }

    impl Rows for Counted<'_> {
        fn row(&mut self, swept: &[Swept], row: Row) -> bool {
            self.rows += 1;
            self.log.borrow_mut().push(format!("counted {}", self.rows));
            self.stream.row(swept, row)
        }
    }

    /// Musket Mayhem: "Roll against all figures along flight path needing
    /// usual score". Twenty sizes of unit at two distances: the table of
    /// a column per outcome is past [`WIDE_CELLS`] by the fifth row, and
    /// from then on each row is written before the next is counted.
    #[test]
    fn each_row_is_written_before_the_next_is_counted() {
        let session = crate::session::Session::new(
            crate::systems::embedded().expect("embedded tables load"),
            crate::drums::DRUMS,
            1,
        );
        let line = "odds mayhem fire roundshot 1\"..2\" figures=11..30";
        let command = session.parse(line).expect("parses").expect("a command");
        let swept = crate::sweep::find(&command).expect("a sweep");
        let log: Log = Rc::default();
        let mut out = Out {
            log: log.clone(),
            bytes: Vec::new(),
        };
        let text = super::super::text::Text {
            style: super::super::Style::plain(false),
        };
        let mut counted = Counted {
            log: log.clone(),
            stream: SweepStream::new(
                Box::new(text),
                Source {
                    line: 1,
                    input: line,
                },
                &mut out,
                true,
            ),
            rows: 0,
        };
        let sweep = session
            .sweep(&command, line, swept, Some(&mut counted))
            .expect("the sweep is counted");
        assert!(sweep.rows.is_empty(), "the rows were given away");
        assert!(counted.stream.end().expect("written").is_none());
        let log = log.borrow();
        let mut expected: Vec<String> = (1..=5).map(|k| format!("counted {k}")).collect();
        expected.push("wrote 5".into());
        for k in 6..=40 {
            expected.push(format!("counted {k}"));
            expected.push(format!("wrote {k}"));
        }
        // The end of the answer flushes once more.
        expected.push("wrote 40".into());
        assert_eq!(*log, expected);
    }
}
