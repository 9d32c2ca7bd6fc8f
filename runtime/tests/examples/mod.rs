//! Part G of docs/semantics.md (rule 35): the reference examples give the books' results.

mod reference_examples;
