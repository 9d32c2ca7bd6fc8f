//! Move: what a duelist can play in a turn.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// 10–14 damage; doubled when buffed (the buff is used up), halved against a defender.
    Attack,
    /// +20 health up to the maximum; uses a potion.
    Heal,
    /// Halves the next attack against this duelist.
    Defend,
    /// Doubles this duelist's next attack.
    Buff,
}

impl Move {
    pub const ALL: [Move; 4] = [Move::Attack, Move::Heal, Move::Defend, Move::Buff];

    /// The name used in node types and on the blackboard.
    pub fn name(self) -> &'static str {
        match self {
            Move::Attack => "Attack",
            Move::Heal => "Heal",
            Move::Defend => "Defend",
            Move::Buff => "Buff",
        }
    }

    pub fn parse(name: &str) -> Option<Move> {
        Move::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
    }
}
