//! Deterministic GUIDs for built trees: a 128-bit FNV-1a hash of the tree's name and the
//! node's place, shaped as a version-8 (custom) UUID so that every GUID check accepts it.

/// The GUID of whatever sits at `place` (a path such as `0.1@0`) in the tree `tree`.
pub(super) fn derived(tree: &str, place: &str) -> String {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    let mut hash = OFFSET;
    // The separator keeps ("ab", "c") and ("a", "bc") apart.
    for byte in tree.bytes().chain([0]).chain(place.bytes()) {
        hash ^= u128::from(byte);
        hash = hash.wrapping_mul(PRIME);
    }
    let mut bytes = hash.to_be_bytes();
    bytes[6] = (bytes[6] & 0x0f) | 0x80; // version 8
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 9562 variant
    uuid::Uuid::from_bytes(bytes).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_are_stable_distinct_and_well_formed() {
        let a = derived("errand", "0");
        assert_eq!(a, derived("errand", "0"));
        assert_ne!(a, derived("errand", "0.0"));
        assert_ne!(a, derived("errand2", "0"));
        assert_ne!(derived("ab", "c"), derived("a", "bc"));
        let parsed = uuid::Uuid::parse_str(&a).expect("a UUID");
        assert_eq!(parsed.get_version_num(), 8);
        assert_eq!(a.len(), 36);
    }
}
