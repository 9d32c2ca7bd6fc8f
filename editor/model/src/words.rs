//! Words shown to the user that depend on a number: one helper, so no message says
//! "1 problems" or "1 note(s)".

/// `n` and the noun, singular for exactly one: `count(1, "problem")` is "1 problem",
/// `count(3, "problem")` is "3 problems". For nouns whose plural is a plain `s`; see
/// [`count_as`] for the others.
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", plural_s(n))
}

/// `n` and `one` or `many`: `count_as(2, "branch", "branches")` is "2 branches".
pub fn count_as(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The `s` that ends a regular plural: empty for exactly one.
pub fn plural_s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_everything_else_plural() {
        assert_eq!(count(0, "problem"), "0 problems");
        assert_eq!(count(1, "load warning"), "1 load warning");
        assert_eq!(count(2, "note"), "2 notes");
        assert_eq!(count_as(1, "branch", "branches"), "1 branch");
        assert_eq!(count_as(2, "branch", "branches"), "2 branches");
    }
}
