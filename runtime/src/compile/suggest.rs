//! "Did you mean": the closest known name to a misspelt one.

/// The candidate nearest to `wrong` by edit distance, if near enough to be a plausible typo
/// (distance at most a third of the length, at least 1), or equal ignoring case.
pub(crate) fn closest<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let limit = (wrong.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != wrong)
        .map(|c| {
            let d = if c.eq_ignore_ascii_case(wrong) {
                0
            } else {
                distance(wrong, c)
            };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, c.len()))
        .map(|(_, c)| c.to_owned())
}

/// Edit distance counting an adjacent swap as one edit (optimal string alignment), since
/// swapped letters are the commonest typo.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_names_only() {
        let names = ["Sequence", "Selector", "Parallel", "Wait"];
        assert_eq!(closest("Sequnce", names).as_deref(), Some("Sequence"));
        assert_eq!(closest("selector", names).as_deref(), Some("Selector"));
        assert_eq!(closest("Wiat", names).as_deref(), Some("Wait"));
        assert_eq!(closest("Teleport", names), None);
    }
}
