//! seq-io: the Sequences robot-policy wire contract in Rust.
//!
//! JSON text → [`json::read`] (the wire rules, exact numbers) → a generated type of [`types`] (decode/encode,
//! faithful round-trip) or [`validate::validate`] (schema + rules beyond it + normalization) → refusals or a
//! normalized value. The generated code lives in `src/generated/` (written only by
//! scripts/seq_io_maint/codegen_rust.py); everything else here is hand-written runtime.

pub mod beyond;
pub mod codec;
pub mod generated;
pub mod issue;
pub mod json;
pub mod validate;

pub use generated::limits::{CONTRACT_VERSION, PACKAGE_VERSION};
pub use generated::types;

