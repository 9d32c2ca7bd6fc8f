//! CardDuel: the turn-based duel as a [`Simulation`]. Each tick is one round: the player's
//! move (submitted through [`CardDuel::submit_move`], or scripted), then the AI's: its tree
//! (`trees/card_duel.json`) ticked once.

use std::any::Any;
use std::path::{Path, PathBuf};

use arbor_runtime::format::TreeFile;
use arbor_runtime::{Blackboard, LoadError, NodeId, NodeTypes, Observer, Status};

use super::duel::DuelWorld;
use super::duelist::Side;
use super::moves::Move;
use super::opponent::{scripted_move, Opponent};
use super::registry::registry;
use crate::log::Log;
use crate::runner::Runner;
use crate::simulation::{trees_dir, LoadOutcome, Simulation};
use crate::tree_view::TreeView;

pub struct CardDuel {
    /// Both duelists, the round and the log: what the preview draws.
    pub world: DuelWorld,
    opponent: Opponent,
    /// The human player's move for the next round.
    pending: Option<Move>,
    runner: Runner<DuelWorld>,
}

impl CardDuel {
    /// A duel against the scripted opponent, seeded with `seed`; no tree loaded yet.
    pub fn new(seed: u64) -> CardDuel {
        CardDuel {
            world: DuelWorld::new(seed),
            opponent: Opponent::Scripted,
            pending: None,
            runner: Runner::new(registry(), seed),
        }
    }

    pub fn opponent(&self) -> Opponent {
        self.opponent
    }

    /// Who plays the player's side from the next round on.
    pub fn set_opponent(&mut self, opponent: Opponent) {
        self.opponent = opponent;
        self.pending = None;
    }

    /// The human player's move for the next round (the preview's Attack / Heal / Defend
    /// buttons). Refused, with the reason, when the move is impossible now, the duel is
    /// over, or the scripted opponent plays the player's side.
    pub fn submit_move(&mut self, mv: Move) -> Result<(), String> {
        if self.opponent == Opponent::Scripted {
            return Err("the scripted opponent is playing; switch to Opponent::Human".to_owned());
        }
        if let Some(why) = self.world.refuse(Side::Player, mv) {
            return Err(why);
        }
        self.pending = Some(mv);
        Ok(())
    }

    /// True while the duel waits for [`CardDuel::submit_move`].
    pub fn waiting_for_player(&self) -> bool {
        self.opponent == Opponent::Human && self.pending.is_none() && self.world.winner.is_none()
    }
}

impl Simulation for CardDuel {
    fn name(&self) -> &'static str {
        "card_duel"
    }

    fn title(&self) -> &'static str {
        "Card duel (turn-based AI)"
    }

    fn tree_path(&self) -> PathBuf {
        trees_dir().join("card_duel.json")
    }

    fn node_types(&self) -> NodeTypes {
        self.runner.node_types()
    }

    fn default_dt(&self) -> f64 {
        1.0
    }

    fn load(&mut self, tree: &TreeFile, path: Option<&Path>) -> Result<LoadOutcome, LoadError> {
        self.runner.load(&mut self.world, tree, path)
    }

    fn tick(&mut self, dt: f64, observer: &mut dyn Observer) -> Option<Status> {
        if self.world.winner.is_some() {
            return None;
        }
        let agent = self.runner.agent_mut()?;
        let world = &mut self.world;
        let mv = match self.opponent {
            Opponent::Human => self.pending.take()?,
            Opponent::Scripted => scripted_move(&world.player, &world.ai, &mut world.rng),
        };
        agent.advance(dt);
        let now = agent.now();
        world.round += 1;
        world.begin_turn(Side::Player);
        if let Err(why) = world.play(Side::Player, mv, now) {
            // Only reachable if the state changed after `submit_move` checked it.
            world.log.push(
                now,
                format!(
                    "round {}: the player cannot {}: {why}",
                    world.round,
                    mv.name()
                ),
            );
        }
        if world.winner.is_some() {
            return None;
        }
        world.begin_turn(Side::Ai);
        world.sense(agent.blackboard_mut());
        let status = agent.run_traced(world, observer);
        if !world.ai_moved {
            world
                .log
                .push(now, format!("round {}: the AI passes", world.round));
        }
        Some(status)
    }

    fn reset(&mut self) {
        self.world = DuelWorld::new(self.runner.seed());
        self.pending = None;
        self.runner.reset();
    }

    fn seed(&self) -> u64 {
        self.runner.seed()
    }

    fn set_seed(&mut self, seed: u64) {
        self.runner.set_seed(seed);
        self.reset();
    }

    fn finished(&self) -> bool {
        self.world.winner.is_some()
    }

    fn now(&self) -> f64 {
        self.runner.now()
    }

    fn blackboard(&self) -> Option<&Blackboard> {
        self.runner.blackboard()
    }

    fn blackboard_mut(&mut self) -> Option<&mut Blackboard> {
        self.runner.blackboard_mut()
    }

    fn tree(&self) -> Option<&dyn TreeView> {
        self.runner.tree()
    }

    fn is_running(&self, node: NodeId) -> bool {
        self.runner.is_running(node)
    }

    fn log(&self) -> &Log {
        &self.world.log
    }

    fn summary(&self) -> String {
        let w = &self.world;
        let state = match w.winner {
            Some(side) => format!("the {} won", side.name()),
            None if self.waiting_for_player() => "waiting for the player's move".to_owned(),
            None => "in play".to_owned(),
        };
        format!(
            "round {}: player {} health ({} potions), AI {} health ({} potions); {state}",
            w.round, w.player.health, w.player.potions, w.ai.health, w.ai.potions
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
