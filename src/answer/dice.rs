//! A die as an answer shows it.

/// One die as it landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rolled {
    pub(crate) sides: u32,
    pub face: u32,
    pub(crate) entered: bool,
}

impl Rolled {
    /// A die of `sides` faces that landed on `face`, rolled (not entered):
    /// for a dice source of one's own.
    pub fn new(sides: u32, face: u32) -> Rolled {
        Rolled {
            sides,
            face,
            entered: false,
        }
    }

    pub(crate) fn how(&self) -> &'static str {
        if self.entered { "entered" } else { "rolled" }
    }
}
