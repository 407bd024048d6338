//! Where the formats were: kept while the move to `crate::format` lands.

pub use crate::format::json::{json, json_error, write_json};
pub use crate::format::text::report_text;
pub use crate::format::{Source, Style, ascii, wrap_error};
