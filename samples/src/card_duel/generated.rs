//! The card duel's tree compiled to Rust by `build.rs` (`arbor_runtime::codegen`):
//! `generated::load(&registry)` loads the embedded `trees/card_duel.json` and returns it
//! with the generated code installed. `card_duel --generated` runs it; the trace is the
//! interpreter's, tick for tick (tests/card_duel.rs).

include!(concat!(env!("OUT_DIR"), "/card_duel_tree.rs"));
