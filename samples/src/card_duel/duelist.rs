//! Duelist and Side: one player of the card duel, and which one.

/// The two sides of the duel. The AI is the agent running the tree; the player is the
/// user in the editor's preview, or a scripted opponent in the headless binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Player,
    Ai,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Player => Side::Ai,
            Side::Ai => Side::Player,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Player => "player",
            Side::Ai => "AI",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Duelist {
    pub health: i64,
    pub max_health: i64,
    /// At or below this the duelist's health counts as low (`HealthLow`).
    pub low_health: i64,
    /// The next attack does double damage.
    pub buffed: bool,
    /// The next attack against this duelist does half damage.
    pub defending: bool,
    /// Heals left.
    pub potions: u32,
}

impl Default for Duelist {
    fn default() -> Self {
        Duelist {
            health: 100,
            max_health: 100,
            low_health: 30,
            buffed: false,
            defending: false,
            potions: 3,
        }
    }
}

impl Duelist {
    pub fn is_low(&self) -> bool {
        self.health <= self.low_health
    }

    pub fn is_down(&self) -> bool {
        self.health <= 0
    }
}
