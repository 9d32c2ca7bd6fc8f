//! The live preview: runs a sample agent (or a plain one, for trees of built-in nodes) on
//! the document's tree, shows its world, blackboard and log, and tells the canvas what
//! each node did.
//!
//! # Brief overview
//! - [`Runner`] (runner.rs): which [`Simulation`] runs the tree ([`sample_for`] picks it
//!   from the document's manifests or name) and loading the document into it.
//! - [`TickRecorder`] / [`LiveState`] (live.rs): trace events to per-node statuses
//!   ([`NodeLive`]), keyed by document GUID.
//! - [`Timeline`] (timeline.rs): the last ticks, for scrubbing back.
//! - controls.rs and worlds/: the panel's parts; its blackboard is
//!   [`crate::live::LiveBlackboard`], shared with the remote panel.
//!
//! Each frame the app calls [`Preview::update`] before drawing:
//! 1. A different document (another tree GUID) gets a fresh simulation of its sample,
//!    which starts playing; the first document does too, so the editor opens on a running
//!    villager.
//! 2. When [`Session::generation`] changed, the document's tree is handed to the
//!    simulation again: a hot reload that keeps the world and the compatible blackboard
//!    values (an edit that changes nothing the runtime sees, like moving a node, is
//!    skipped). A tree that does not load leaves the last good one running, and the panel
//!    lists the problems. A large tree (at least [`QUIET_RELOAD_FROM`] nodes) reloads
//!    once edits pause for [`QUIET_SECONDS`] (or at a step): a reload compiles the whole
//!    tree, and a drag must not pay that on every frame it moves a node.
//! 3. While playing, ticks are run at `speed` ticks per second of wall-clock time
//!    (catching up at most [`MAX_CATCH_UP`] ticks per frame), each with the sample's own
//!    `dt`. A tick that enters a node with a breakpoint pauses the preview and asks the app
//!    to select and frame that node. A tick that goes over the preview's budget (budget.rs:
//!    blackboard bytes, events per tick) or panics stops it, with the reason in the panel:
//!    any file opened is run, so a hostile one must cost a stopped preview, not the editor.

use crate::i18n::t;

mod budget;
mod controls;
mod live;
mod runner;
mod timeline;
mod worlds;

pub use budget::{blackboard_bytes, MAX_BLACKBOARD_BYTES, MAX_TICK_EVENTS};
pub use live::{LiveState, NodeMap, TickRecord, TickRecorder};
pub use runner::{choices, create, sample_for, Choice, Loaded, PlainSim, Runner, NONE};
pub use timeline::Timeline;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use arbor_runtime::Status;
use arbor_samples::{Checkpoint, Simulation};

use crate::live::{parse_value, Entry, LiveBlackboard, LiveSource, NodeLive};
use crate::view::{Request, UiCx, View};
use crate::Session;

/// Most ticks run in one frame: enough for the top speed at 30 frames per second; a
/// slower frame drops the rest rather than freezing the editor to catch up.
pub const MAX_CATCH_UP: u32 = 8;
/// Speeds the panel offers, in ticks per second.
pub const SPEED_RANGE: std::ops::RangeInclusive<f64> = 1.0..=240.0;
/// A frame longer than this counts as this long (the window was hidden, a debugger
/// stopped the process).
const MAX_FRAME_SECONDS: f64 = 0.25;
/// How the note about a breakpoint that paused the preview begins.
const PAUSED_AT: &str = "Paused at the breakpoint on";
/// Starts the note when a scrubbed tick's blackboard and world cannot be put back (the
/// tree was edited since that tick).
const NOT_REWOUND: &str = "The blackboard and world of that tick cannot be shown:";
/// Trees with at least this many nodes reload only once edits pause (see the module
/// documentation).
pub const QUIET_RELOAD_FROM: usize = 1_000;
/// How long edits must pause before a large tree reloads.
pub const QUIET_SECONDS: f64 = 0.3;

impl LiveSource for Preview {
    fn node_live(&self, guid: &str) -> Option<NodeLive> {
        Preview::node_live(self, guid)
    }

    fn has_breakpoint(&self, guid: &str) -> bool {
        Preview::has_breakpoint(self, guid)
    }

    fn stand_ins(&self) -> Vec<&str> {
        self.runner
            .as_ref()
            .and_then(Runner::stand_ins)
            .map_or_else(Vec::new, PlainSim::stand_in_guids)
    }
}

/// How a message in the panel should look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Warning,
    Error,
}

/// See the module documentation.
pub struct Preview {
    runner: Option<Runner>,
    /// The tree GUID of the document being run: another one means another file.
    doc_guid: Option<String>,
    doc_path: Option<PathBuf>,
    generation: Option<u64>,
    /// A large tree's edit not yet reloaded: its generation, and when it was first seen.
    pending: Option<(u64, f64)>,
    playing: bool,
    speed: f64,
    last_time: Option<f64>,
    /// Preview time: wall-clock seconds spent playing (plus one tick's worth per step).
    clock: f64,
    /// Ticks owed, fractional.
    backlog: f64,
    /// Ticks since the last reset.
    seq: u64,
    last_root: Option<Status>,
    map: Arc<NodeMap>,
    live: LiveState,
    timeline: Timeline,
    breakpoints: HashSet<String>,
    /// Why the document's tree does not load (first lines of each problem).
    problems: Vec<String>,
    warnings: Vec<String>,
    note: Option<(Tone, String)>,
    /// The breakpoint `note` says the preview paused at, while it says so: removing that
    /// breakpoint, or playing on, takes the note away.
    paused_at: Option<String>,
    blackboard: LiveBlackboard,
    /// The state the timeline was scrubbed away from, put back by [`Preview::go_live`].
    present: Option<Checkpoint>,
}

impl Default for Preview {
    fn default() -> Self {
        Preview {
            runner: None,
            doc_guid: None,
            doc_path: None,
            generation: None,
            pending: None,
            playing: false,
            speed: 8.0,
            last_time: None,
            clock: 0.0,
            backlog: 0.0,
            seq: 0,
            last_root: None,
            map: Arc::default(),
            live: LiveState::default(),
            timeline: Timeline::default(),
            breakpoints: HashSet::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
            note: None,
            paused_at: None,
            blackboard: LiveBlackboard::default(),
            present: None,
        }
    }
}

impl Preview {
    /// In the inspector, under the selected node: when the preview runs it as a stand-in
    /// (a host node with no code here), the status it returns, to pick.
    pub fn stand_in_ui(&mut self, ui: &mut egui::Ui, selection: &crate::document::Selection) {
        let Some(plain) = self.runner.as_mut().and_then(Runner::stand_ins_mut) else {
            return;
        };
        if let [guid] = selection.nodes.iter().collect::<Vec<_>>().as_slice() {
            worlds::stand_in_node_ui(ui, plain, guid);
        }
    }

    /// Called once per frame before drawing, with the frame's time in seconds: follows the
    /// document (new file, hot reload) and runs the ticks due.
    pub fn update(&mut self, cx: &mut UiCx<'_>, time: f64) {
        let dt = self
            .last_time
            .map_or(0.0, |last| (time - last).clamp(0.0, MAX_FRAME_SECONDS));
        self.last_time = Some(time);
        self.sync(cx.session, false);
        if !self.playing {
            return;
        }
        self.clock += dt;
        self.backlog += dt * self.speed;
        let due = self.backlog.floor();
        let ticks = if due > f64::from(MAX_CATCH_UP) {
            self.backlog = 0.0;
            MAX_CATCH_UP
        } else {
            self.backlog -= due;
            due as u32
        };
        for _ in 0..ticks {
            if !self.tick_once(cx.requests) {
                break;
            }
        }
    }

    /// What the canvas shows of a node: the statuses of the latest tick, or of the tick
    /// the timeline is scrubbed to. `None`: not in the running tree, or not visited yet.
    pub fn node_live(&self, guid: &str) -> Option<NodeLive> {
        if self.timeline.scrubbed().is_some() {
            return self.timeline.node_live(guid);
        }
        self.live.node_live(guid, self.clock, self.seq)
    }

    pub fn has_breakpoint(&self, guid: &str) -> bool {
        self.breakpoints.contains(guid)
    }

    pub fn toggle_breakpoint(&mut self, guid: &str) {
        if self.breakpoints.remove(guid) {
            if self.paused_at.as_deref() == Some(guid) {
                self.forget_pause_note();
            }
        } else {
            self.breakpoints.insert(guid.to_owned());
        }
    }

    /// GUIDs of the nodes with a breakpoint.
    pub fn breakpoints(&self) -> impl Iterator<Item = &str> {
        self.breakpoints.iter().map(String::as_str)
    }

    pub fn clear_breakpoints(&mut self) {
        self.breakpoints.clear();
        self.forget_pause_note();
    }

    /// Takes away the "Paused at the breakpoint" note, if that is the note shown.
    fn forget_pause_note(&mut self) {
        let says_paused = self
            .note
            .as_ref()
            .is_some_and(|(_, text)| text.starts_with(PAUSED_AT));
        if self.paused_at.take().is_some() && says_paused {
            self.note = None;
        }
    }

    // ---- Playing ------------------------------------------------------------------------

    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// Plays from the present (leaving a scrubbed tick). Refused while the blackboard is
    /// over the preview's budget: each tick would only grow it further (Reset first).
    pub fn play(&mut self) {
        let bb = self.runner.as_ref().and_then(|r| r.sim().blackboard());
        if let Some(why) = budget::over_budget(bb, 0) {
            self.note = Some((Tone::Error, why));
            return;
        }
        self.go_live();
        self.playing = true;
        self.forget_pause_note();
    }

    /// Seconds of wall-clock time until the next tick falls due while playing.
    pub fn next_tick_in(&self) -> f64 {
        ((1.0 - self.backlog.fract()) / self.speed.max(f64::MIN_POSITIVE)).clamp(0.0, 1.0)
    }

    pub fn pause(&mut self) {
        self.playing = false;
        self.backlog = 0.0;
    }

    /// Pauses and runs exactly one tick. Returns false when no tick ran (no tree, the
    /// simulation has finished or waits for the player).
    pub fn step(&mut self, cx: &mut UiCx<'_>) -> bool {
        self.pause();
        self.go_live();
        self.sync(cx.session, true);
        // One tick's worth of preview time, so the previous tick's statuses fade a little.
        self.clock += 1.0 / self.speed;
        self.tick_once(cx.requests)
    }

    /// Starts the simulation again from its seed: fresh world and agent, empty timeline.
    pub fn reset(&mut self) {
        if let Some(runner) = &mut self.runner {
            runner.sim_mut().reset();
        }
        self.clear_run();
        self.note = Some((Tone::Info, "Reset: a fresh world and agent".to_owned()));
    }

    /// Ticks per second.
    pub fn speed(&self) -> f64 {
        self.speed
    }

    pub fn set_speed(&mut self, speed: f64) {
        self.speed = speed.clamp(*SPEED_RANGE.start(), *SPEED_RANGE.end());
    }

    /// Ticks run since the last reset.
    pub fn ticks(&self) -> u64 {
        self.seq
    }

    /// What the root returned in the latest tick.
    pub fn last_status(&self) -> Option<Status> {
        self.last_root
    }

    // ---- The simulation -----------------------------------------------------------------

    /// The name of the simulation running ([`NONE`] or a sample's), once there is one.
    pub fn sample(&self) -> Option<&'static str> {
        self.runner.as_ref().map(Runner::name)
    }

    /// Switches to another simulation (by [`Simulation::name`]) on the session's tree.
    pub fn select_sample(&mut self, name: &str, session: &Session) {
        self.start(name, session);
    }

    pub fn simulation(&self) -> Option<&dyn Simulation> {
        self.runner.as_ref().map(Runner::sim)
    }

    pub fn simulation_mut(&mut self) -> Option<&mut dyn Simulation> {
        self.runner.as_mut().map(Runner::sim_mut)
    }

    /// Why the document's current tree does not load (empty when it does).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The latest message for the user (a reload that dropped keys, a breakpoint).
    pub fn note(&self) -> Option<&str> {
        self.note.as_ref().map(|(_, text)| text.as_str())
    }

    /// Writes a blackboard value as a stimulus to the agent (a host input, rule 2), not a
    /// change to the document. Only while paused, so the value is seen by the next tick.
    /// `text` is JSON (`12`, `true`, `"red"`, `[1, 2]`), or `{"value": v, "ttl": n}` for a
    /// value that expires; anything that is not JSON is taken as a string.
    pub fn set_blackboard(&mut self, key: &str, text: &str) -> Result<(), String> {
        if self.playing {
            return Err("pause the preview to edit the blackboard".to_owned());
        }
        let bb = self
            .runner
            .as_mut()
            .and_then(|r| r.sim_mut().blackboard_mut())
            .ok_or_else(|| "no tree is running".to_owned())?;
        let (value, ttl) = split_ttl(parse_value(text));
        bb.set_json(key, &value, ttl).map_err(|e| e.to_string())
    }

    // ---- The timeline -------------------------------------------------------------------

    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Shows tick `seq` (pausing the preview): the statuses on the canvas, and the
    /// blackboard and world as they were after it, where the simulation keeps checkpoints.
    pub fn scrub_to(&mut self, seq: u64) {
        self.pause();
        let Some(runner) = self.runner.as_mut() else {
            return;
        };
        if self.timeline.scrubbed().is_none() {
            self.present = runner.sim().checkpoint();
        }
        self.timeline.scrub_to(seq);
        let Some(seq) = self.timeline.scrubbed() else {
            return;
        };
        if let Some(checkpoint) = self.timeline.checkpoint(seq) {
            if let Err(e) = runner.sim_mut().rewind(checkpoint) {
                self.note = Some((Tone::Warning, format!("{NOT_REWOUND} {e}")));
            }
        }
    }

    /// Back to the present: the latest statuses, blackboard and world.
    pub fn go_live(&mut self) {
        if self.timeline.scrubbed().is_none() {
            return;
        }
        self.timeline.go_live();
        if let (Some(runner), Some(present)) = (self.runner.as_mut(), self.present.take()) {
            if let Err(e) = runner.sim_mut().rewind(&present) {
                self.note = Some((Tone::Warning, format!("{NOT_REWOUND} {e}")));
            }
        }
    }

    /// Whether the preview shows an earlier tick than the latest.
    pub fn is_scrubbed(&self) -> bool {
        self.timeline.scrubbed().is_some()
    }

    // ---- Internals ----------------------------------------------------------------------

    /// Whether an edit waits for the pause that reloads it.
    pub fn reload_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Follows the session: another document starts afresh; an edit reloads (a large
    /// tree's once edits pause, or at once when `now`).
    fn sync(&mut self, session: &Session, now: bool) {
        let doc = session.document();
        if self.runner.is_none() || self.doc_guid.as_deref() != Some(doc.guid()) {
            self.start(sample_for(doc), session);
            self.playing = true;
            return;
        }
        if self.doc_path.as_deref() != session.path() {
            // Saved elsewhere: subtree paths now resolve from another folder.
            self.doc_path = session.path().map(ToOwned::to_owned);
            if let Some(runner) = &mut self.runner {
                runner.forget_last();
            }
            self.generation = None;
        }
        if self.generation != Some(session.generation()) {
            if !now && doc.node_count() >= QUIET_RELOAD_FROM {
                let time = self.last_time.unwrap_or(0.0);
                let generation = session.generation();
                match self.pending {
                    Some((g, since)) if g == generation && time - since >= QUIET_SECONDS => {}
                    Some((g, _)) if g == generation => return,
                    _ => {
                        self.pending = Some((generation, time));
                        return;
                    }
                }
            }
            self.pending = None;
            self.generation = Some(session.generation());
            // An edit reloads the present, not a tick looked back at.
            self.go_live();
            if let Some(runner) = &mut self.runner {
                let loaded = runner.load(doc, session.path(), session.types());
                self.after_load(loaded);
                self.quiet_if_empty(session);
            }
        }
    }

    /// A fresh simulation `name` on the session's tree.
    fn start(&mut self, name: &str, session: &Session) {
        let doc = session.document();
        let seed = self.runner.as_ref().map_or(1, |r| r.sim().seed());
        let mut runner = Runner::new(name, seed);
        self.speed = default_speed(runner.sim().default_dt());
        let loaded = runner.load(doc, session.path(), session.types());
        let title = runner.sim().title();
        self.runner = Some(runner);
        self.doc_guid = Some(doc.guid().to_owned());
        self.doc_path = session.path().map(ToOwned::to_owned);
        self.generation = Some(session.generation());
        self.pending = None;
        self.clear_run();
        self.after_load(loaded);
        self.quiet_if_empty(session);
        if self.problems.is_empty() && self.note.is_none() {
            self.note = Some((Tone::Info, format!("Running “{}” with {title}", doc.name())));
        }
    }

    /// An empty document does not load (no root), but that is no problem worth red text.
    fn quiet_if_empty(&mut self, session: &Session) {
        if session.document().node_count() == 0 {
            self.problems.clear();
            self.note = Some((
                Tone::Info,
                "The tree is empty: add nodes and set a root to run it.".to_owned(),
            ));
        }
    }

    fn clear_run(&mut self) {
        self.live = LiveState::default();
        self.timeline.clear();
        self.present = None;
        self.seq = 0;
        self.last_root = None;
        self.backlog = 0.0;
        self.note = None;
    }

    fn after_load(&mut self, loaded: Loaded) {
        match loaded {
            Loaded::Unchanged => return,
            Loaded::Failed { problems, kept } => {
                self.problems = problems;
                self.note = Some(if kept {
                    (
                        Tone::Warning,
                        "The edited tree does not load; the last good version keeps running."
                            .to_owned(),
                    )
                } else {
                    (Tone::Error, "The tree does not load.".to_owned())
                });
                return;
            }
            Loaded::Fresh { warnings } => {
                self.warnings = warnings;
                self.note = None;
            }
            Loaded::Reloaded {
                dropped_keys,
                warnings,
            } => {
                self.warnings = warnings;
                self.note = (!dropped_keys.is_empty()).then(|| {
                    (
                        Tone::Warning,
                        format!(
                            "Reloaded; blackboard values dropped (key removed or retyped): {}",
                            dropped_keys.join(", ")
                        ),
                    )
                });
            }
        }
        self.problems.clear();
        self.map = Arc::new(
            self.runner
                .as_ref()
                .and_then(|r| r.sim().tree())
                .map(NodeMap::new)
                .unwrap_or_default(),
        );
        self.live.rebase(&self.map);
    }

    /// Runs one tick and records it. Returns false when the preview should stop ticking
    /// for now: nothing ran, a breakpoint was hit, or the simulation finished.
    fn tick_once(&mut self, requests: &mut Vec<Request>) -> bool {
        let Some(runner) = self.runner.as_mut() else {
            return false;
        };
        let sim = runner.sim_mut();
        let dt = sim.default_dt();
        let mut recorder = TickRecorder::new(&self.map, &self.breakpoints);
        let ticked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sim.tick(dt, &mut recorder)));
        let ticked = match ticked {
            Ok(ticked) => ticked,
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("no message");
                self.pause();
                self.note = Some((
                    Tone::Error,
                    format!(
                        "Stopped: the tick failed inside the runtime ({why}). Reset to run again."
                    ),
                ));
                return false;
            }
        };
        let Some(root) = ticked else {
            if sim.finished() {
                self.playing = false;
                self.note = Some((Tone::Info, format!("Finished: {}", sim.summary())));
            }
            return false;
        };
        self.seq += 1;
        let hit = recorder.hit;
        let over = budget::over_budget(sim.blackboard(), recorder.events);
        let record = recorder.finish(self.seq, self.clock, sim.now(), root, self.map.clone());
        let finished = sim.finished().then(|| sim.summary());
        self.live.apply(&record);
        self.timeline.push(record, sim.checkpoint());
        self.last_root = Some(root);
        if let Some(why) = over {
            self.pause();
            self.note = Some((Tone::Error, why));
            return false;
        }
        if let Some(node) = hit {
            self.pause();
            let guid = self.map.shown_on(node).unwrap_or_default().to_owned();
            self.note = Some((Tone::Info, format!("{PAUSED_AT} “{}”", self.map.name(node))));
            self.paused_at = Some(guid.clone());
            requests.push(Request::Frame(vec![guid]));
            return false;
        }
        if let Some(summary) = finished {
            self.pause();
            self.note = Some((Tone::Info, format!("Finished: {summary}")));
            return false;
        }
        true
    }
}

impl View for Preview {
    /// The panel: controls, timeline, messages, then world, blackboard and log side by side.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>) {
        if self.playing {
            // A frame when the next tick is due, not every frame: drawing is what an idle
            // editor would spend its CPU on (software rendering draws every pixel).
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(self.next_tick_in()));
        } else if self.pending.is_some() {
            // Paused: no tick asks for frames, but the reload waits for one.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(QUIET_SECONDS));
        }
        self.controls_ui(ui, cx);
        self.timeline_ui(ui);
        self.problems_ui(ui);
        ui.separator();
        let Some(runner) = self.runner.as_mut() else {
            ui.label(t("Nothing to run yet."));
            return;
        };
        // An earlier tick is looked at, not edited: its state is put back on going live.
        let editable = !self.playing && self.timeline.scrubbed().is_none();
        let mut edit = None;
        // The log and the blackboard each take at most 30 % of the panel: the world
        // between them keeps the rest, however they are dragged.
        let column_max = (ui.available_width() * 0.3).max(120.0);
        egui::Panel::right("arbor_preview_log")
            .resizable(true)
            .default_size(260.0)
            .min_size(120.0)
            .max_size(column_max)
            .show(ui, |ui| worlds::log_ui(ui, runner.sim()));
        egui::Panel::right("arbor_preview_blackboard")
            .resizable(true)
            .default_size(300.0)
            .min_size(120.0)
            .max_size(column_max)
            .show(ui, |ui| match runner.sim().blackboard() {
                Some(bb) => {
                    let entries = entries(bb, runner.sim().sensed_keys());
                    edit = self
                        .blackboard
                        .ui(ui, "arbor_preview_blackboard", &entries, editable);
                }
                None => {
                    ui.strong(t("Blackboard"));
                    ui.weak(t("No agent is running."));
                }
            });
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(message) = worlds::world_ui(ui, runner) {
                self.note = Some((Tone::Warning, message));
            }
        });
        if let Some((key, text)) = edit {
            let result = self.set_blackboard(&key, &text);
            self.blackboard.edited(&key, result);
        }
    }
}

/// The running blackboard's keys, as the blackboard widget shows them; `sensed`: the keys
/// the simulation writes before each tick.
fn entries(bb: &arbor_runtime::Blackboard, sensed: &[&str]) -> Vec<Entry> {
    bb.keys()
        .map(|(key, info)| Entry {
            key: info.name.clone(),
            ty: Some(info.ty.as_str().to_owned()),
            value: bb.get(key).map(|v| v.to_json()),
            expires_in: bb.remaining(key),
            sensed: sensed.contains(&info.name.as_str()),
        })
        .collect()
}

/// Twice the sample's own pace (one `dt` of simulated time per tick), within reason.
fn default_speed(dt: f64) -> f64 {
    if dt > 0.0 {
        (2.0 / dt).clamp(2.0, 30.0).round()
    } else {
        10.0
    }
}

/// `{"value": v, "ttl": n}` (the stimuli files' form) to `(v, Some(n))`; anything else is
/// a plain value.
fn split_ttl(json: serde_json::Value) -> (serde_json::Value, Option<f64>) {
    match json {
        serde_json::Value::Object(mut map)
            if map.len() == 2 && map.contains_key("value") && map.contains_key("ttl") =>
        {
            let ttl = map.get("ttl").and_then(serde_json::Value::as_f64);
            match ttl {
                Some(ttl) => (map.remove("value").unwrap_or_default(), Some(ttl)),
                None => (serde_json::Value::Object(map), None),
            }
        }
        other => (other, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ttl_objects_are_split_and_other_values_kept() {
        assert_eq!(
            split_ttl(json!({"value": 3, "ttl": 2.5})),
            (json!(3), Some(2.5))
        );
        assert_eq!(split_ttl(json!({"value": 3})), (json!({"value": 3}), None));
        assert_eq!(split_ttl(json!([1, 2])), (json!([1, 2]), None));
        assert_eq!(default_speed(0.25), 8.0);
        assert_eq!(default_speed(1.0), 2.0);
    }
}
