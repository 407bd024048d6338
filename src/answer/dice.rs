//! A die as an answer shows it.

/// One die as it landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rolled {
    pub(crate) sides: u32,
    pub face: u32,
    pub(crate) entered: bool,
}

impl Rolled {
    pub(crate) fn how(&self) -> &'static str {
        if self.entered { "entered" } else { "rolled" }
    }
}
