//! The built-in node kinds: `Kind` (what a compiled node is) and [`builtin_types`], the one
//! list of built-in declarations (as BT.CPP's `bt_factory.cpp`).
//!
//! Each kind lives in its own file holding its declaration (`spec`), the conversion of its
//! checked parameters (`lower`) and its tick body, so a node's documentation, parameters
//! and semantics are read in one place.

pub(crate) mod action;
pub(crate) mod attached;
pub(crate) mod control;
pub(crate) mod decorator;
pub(crate) mod stand_in;

use std::sync::Arc;

pub use control::utility_selector::{Scorer, UtilitySelector};

use crate::args::Args;
use crate::blackboard::Key;
use crate::port::InPort;
use crate::spec::{Category, NodeType, ParamSpec};
use crate::status::Status;
use crate::value::{Value, ValueType};

/// A compiled node's kind with its parameters, dispatched by `match` (no dynamic calls for
/// built-in kinds).
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Sequence {
        dynamic: bool,
        /// BT.CPP's SequenceWithMemory (rule 50).
        memory: bool,
        /// BT.CPP's AsyncSequence: rule 50's one instant child per tick alone (rule 63).
        yields: bool,
    },
    Selector {
        dynamic: bool,
        /// BT.CPP's AsyncFallback: one instantly failed child per tick (rule 63).
        yields: bool,
    },
    Parallel {
        need: u32,
        /// BT.CPP's `failure_count` (rule 62); `None`: rule 13's counting.
        failures: Option<u32>,
    },
    /// BT.CPP's ParallelAll (rule 64).
    ParallelAll {
        max_failures: i64,
    },
    IfThenElse,
    WhileDoElse,
    Switch {
        variable: Key,
        /// `case_1` … `case_6`; `None` where not given.
        cases: Arc<[Option<control::switch::Case>]>,
    },
    Inverter,
    Succeeder,
    ForceFailure,
    Repeat {
        count: InPort<i64>,
        yields: bool,
    },
    Retry {
        attempts: InPort<i64>,
        yields: bool,
    },
    Limiter {
        max: u32,
    },
    Timeout {
        seconds: Duration,
    },
    KeepRunningUntilFailure,
    Delay {
        seconds: Duration,
    },
    RunOnce {
        then_skip: bool,
    },
    /// BT.CPP's LoopInt/LoopDouble/LoopString/LoopBool (rule 65).
    Loop {
        queue: decorator::loop_queue::Queue,
        value: Key,
        if_empty: Status,
    },
    /// BT.CPP's WaitValueUpdate and SkipUnlessUpdated (rule 67).
    IfUpdated {
        key: Key,
        otherwise: Status,
    },
    /// Ticks its one child: the referenced tree's root, spliced in at load.
    Subtree,
    Wait {
        seconds: Duration,
    },
    Scripted {
        returns: Arc<[Status]>,
    },
    Condition {
        key: Key,
        equals: Operand,
    },
    Increment {
        key: Key,
        by: InPort<Value>,
    },
    SetBlackboard {
        key: Key,
        value: InPort<Value>,
        ttl: f64,
    },
    SendEvent {
        event: u32,
    },
    SetTrigger {
        trigger: u32,
    },
    Log {
        message: InPort<str>,
    },
    /// BT.CPP's WasEntryUpdated (rule 68).
    WasUpdated {
        key: Key,
    },
    /// BT.CPP's UnsetBlackboard (rule 69).
    UnsetBlackboard {
        key: Key,
    },
    Random {
        probability: InPort<f64>,
    },
    /// Script (rule 52) and ScriptCondition (rule 53).
    Script {
        program: Arc<crate::script::Program>,
        condition: bool,
    },
    /// A host node: index into the tree's action table, and into the agent's host states
    /// (`exec::NO_STATE` for a stateless action).
    Host {
        action: u32,
        state: u32,
    },
    /// A composite or decorator written with the public `Control` API (a host one, or the
    /// built-in Cooldown, RandomSelector, UtilitySelector): index into the tree's control
    /// table, and into the agent's host states (rules 73 to 75).
    Control {
        control: u32,
        state: u32,
    },
}

impl Kind {
    /// The duration of a timed node (Wait, Timeout, Delay), whose deadline needs a timer.
    pub(crate) fn duration(&self) -> Option<&Duration> {
        match self {
            Kind::Timeout { seconds } | Kind::Delay { seconds } | Kind::Wait { seconds } => {
                Some(seconds)
            }
            _ => None,
        }
    }

    /// As [`Kind::duration`], to lay out the timers.
    pub(crate) fn duration_mut(&mut self) -> Option<&mut Duration> {
        match self {
            Kind::Timeout { seconds } | Kind::Delay { seconds } | Kind::Wait { seconds } => {
                Some(seconds)
            }
            _ => None,
        }
    }

    /// Rewrites blackboard keys (file-local to instance keys, for subtrees).
    pub(crate) fn map_keys(&mut self, map: &impl Fn(Key) -> Key) {
        match self {
            Kind::Condition { key, equals } => {
                *key = map(*key);
                equals.map_keys(map);
            }
            Kind::Increment { key, by: value } | Kind::SetBlackboard { key, value, .. } => {
                *key = map(*key);
                value.map_key(map);
            }
            Kind::Switch { variable: key, .. }
            | Kind::IfUpdated { key, .. }
            | Kind::WasUpdated { key }
            | Kind::UnsetBlackboard { key } => *key = map(*key),
            Kind::Loop { queue, value, .. } => {
                *value = map(*value);
                if let decorator::loop_queue::Queue::Key(k)
                | decorator::loop_queue::Queue::Walk(k) = queue
                {
                    *k = map(*k);
                }
            }
            Kind::Repeat { count: port, .. } | Kind::Retry { attempts: port, .. } => {
                port.map_key(map)
            }
            Kind::Timeout { seconds } | Kind::Delay { seconds } | Kind::Wait { seconds } => {
                seconds.port.map_key(map)
            }
            Kind::Random { probability } => probability.map_key(map),
            Kind::Log { message } => message.map_key(map),
            Kind::Script { program, .. } => Arc::make_mut(program).map_keys(map),
            _ => {}
        }
    }
}

/// What a Condition compares its key with: a constant, or another key's valid value
/// (`equals_key`, an Arbor extension of rule 7 so that targets can live on the blackboard).
#[derive(Clone, Debug)]
pub(crate) enum Operand {
    Const(Value),
    Key(Key),
}

impl Operand {
    fn map_keys(&mut self, map: &impl Fn(Key) -> Key) {
        if let Operand::Key(k) = self {
            *k = map(*k);
        }
    }

    /// Reads the operand from `equals` / `equals_key`; exactly one must be given. An
    /// `equals` bound to a key (`{"$key": …}`) is the same as `equals_key`.
    pub(crate) fn from_args(
        args: &Args,
        cx: &LowerCx<'_>,
        key: Key,
    ) -> Result<Operand, ParamError> {
        let equals_key = match args.get("equals") {
            Some(crate::args::Arg::Bound { key, .. }) => {
                if args.get("equals_key").is_some() {
                    return Err(ParamError::new(
                        "equals_key",
                        "give either `equals` or `equals_key`, not both",
                    ));
                }
                Ok(*key)
            }
            _ => args.key("equals_key"),
        };
        match (args.value("equals"), equals_key) {
            (Some(v), Err(_)) => Ok(Operand::Const(v.clone())),
            (None, Ok(other)) => {
                let (a, b) = (cx.key_types[key.index()], cx.key_types[other.index()]);
                let numeric = |t| matches!(t, ValueType::Int | ValueType::Float);
                if a != b
                    && !(numeric(a) && numeric(b))
                    && a != ValueType::Json
                    && b != ValueType::Json
                {
                    return Err(ParamError::new(
                        "equals_key",
                        format!("compares a {a} key with a {b} key; they can never be equal"),
                    ));
                }
                Ok(Operand::Key(other))
            }
            (Some(_), Ok(_)) => Err(ParamError::new(
                "equals_key",
                "give either `equals` or `equals_key`, not both",
            )),
            (None, Err(_)) => Err(ParamError::new(
                "equals",
                "give `equals` (a value) or `equals_key` (another key)",
            )),
        }
    }

    /// Rule 7's test: `value` is the tested key's valid value, if any.
    pub(crate) fn matches(
        &self,
        value: Option<&Value>,
        bb: &crate::blackboard::Blackboard,
    ) -> bool {
        let Some(value) = value else { return false };
        match self {
            Operand::Const(c) => value.strict_eq(c),
            Operand::Key(k) => bb.get(*k).is_some_and(|other| value.strict_eq(other)),
        }
    }
}

/// A parameter the node kind rejects after the generic checks passed.
#[derive(Debug)]
pub(crate) struct ParamError {
    pub param: &'static str,
    pub message: String,
}

impl ParamError {
    pub(crate) fn new(param: &'static str, message: impl Into<String>) -> ParamError {
        ParamError {
            param,
            message: message.into(),
        }
    }
}

/// The duration of a timed node (Wait, Timeout, Delay): its `seconds` parameter, literal or
/// bound, and the factor that turns it into seconds (`unit: "ms"` reads it as
/// milliseconds, so a BT.CPP `msec="{t}"` port can stay bound to its key; rule 9).
#[derive(Clone, Debug)]
pub(crate) struct Duration {
    pub port: InPort<f64>,
    pub scale: f64,
    /// The agent's timer that holds this node's deadline (`State::timers`), one per timed
    /// node of the compiled tree, given when the tree is laid out.
    pub timer: u32,
}

/// The parameters of the timed nodes (Wait, Timeout, Delay): `seconds`, described for the
/// node, and its `unit`.
pub(crate) fn with_seconds(t: NodeType, seconds: &str) -> NodeType {
    t.param(ParamSpec::new(
        "seconds",
        crate::spec::ParamKind::Float,
        seconds,
    ))
    .param(
        ParamSpec::new(
            "unit",
            crate::spec::ParamKind::Enum,
            "The unit of `seconds`: s (default) or ms (milliseconds, as BehaviorTree.CPP's \
             `msec` ports; a bound key then holds milliseconds).",
        )
        .literal()
        .values(&["s", "ms"])
        .default("s".into()),
    )
}

/// The `seconds` parameter of the timed nodes (Wait, Timeout, Delay) with its `unit`: a
/// literal must be finite and not negative, so that `now >= start + seconds` is a
/// meaningful test; a bound one is checked when it is read (see [`deadline`]).
pub(crate) fn seconds_param(args: &Args) -> Result<Duration, ParamError> {
    let seconds = args
        .port::<f64>("seconds")
        .map_err(|m| ParamError::new("seconds", m))?;
    if let Some(&s) = seconds.as_literal() {
        if !valid_seconds(s) {
            return Err(ParamError::new(
                "seconds",
                format!("must be a finite number of seconds, 0 or more; found {s}"),
            ));
        }
    }
    let scale = match args.str("unit") {
        Ok("ms") => 0.001,
        _ => 1.0,
    };
    Ok(Duration {
        port: seconds,
        scale,
        timer: 0,
    })
}

fn valid_seconds(s: f64) -> bool {
    s.is_finite() && s >= 0.0
}

/// Whether a timed node's duration is up (rule 9's test, `now >= start + seconds`, with
/// the clock's tolerance). The duration is read once per execution, on its first body run
/// (cursor 0, the tick the node entered, so `now` is its start), and kept as the deadline
/// in the node's timer, so a bound duration that changes while the node runs does not
/// move it.
/// `None` when a bound duration has no valid value or is not a finite number, 0 or more:
/// the node then fails (docs/nodes.md, "Bound parameters").
pub(crate) fn time_up<C, O: crate::trace::Observer + ?Sized>(
    x: &mut crate::exec::Exec<'_, '_, C, O>,
    i: u32,
    seconds: &Duration,
) -> Option<bool> {
    let st = &mut *x.st;
    let bb = &*x.cx.blackboard;
    let slot = &mut st.slots[i as usize];
    let timer = &mut st.timers[seconds.timer as usize];
    if slot.cursor == 0 {
        let s = seconds.port.read(bb).filter(|s| valid_seconds(*s))?;
        *timer = bb.now() + s * seconds.scale;
        slot.cursor = 1;
    }
    Some(bb.now() >= *timer - crate::blackboard::TIME_EPSILON)
}

/// What `lower` may look up: the file's key types and the tree's event/trigger names.
pub(crate) struct LowerCx<'a> {
    pub key_types: &'a [ValueType],
    /// The file's keys by name (scripts name the keys they use).
    pub key_names: &'a std::collections::HashMap<String, Key>,
    /// The scripting enums scripts may name.
    pub script_enums: &'a std::collections::BTreeMap<String, i64>,
    pub names: &'a mut Names,
    /// In a subtree file: the file-local key that `@name` names, the root tree's key
    /// (rule 70). `None` in the top file, where `@name` is the file's own key.
    pub root_key: Option<&'a RootKey<'a>>,
}

/// Finds the file-local key of the root tree's key `name` (rule 70).
pub(crate) type RootKey<'a> = dyn Fn(&str) -> Option<Key> + 'a;

/// Event and trigger names, interned to indices over the whole compiled tree.
#[derive(Default, Debug)]
pub(crate) struct Names {
    pub events: Vec<String>,
    pub triggers: Vec<String>,
}

impl Names {
    pub(crate) fn event(&mut self, name: &str) -> u32 {
        intern(&mut self.events, name)
    }

    pub(crate) fn trigger(&mut self, name: &str) -> u32 {
        intern(&mut self.triggers, name)
    }
}

fn intern(list: &mut Vec<String>, name: &str) -> u32 {
    match list.iter().position(|n| n == name) {
        Some(i) => i as u32,
        None => {
            list.push(name.to_owned());
            (list.len() - 1) as u32
        }
    }
}

pub(crate) type Lower = fn(&Args, &mut LowerCx<'_>) -> Result<Kind, ParamError>;

/// How a built-in kind becomes a compiled node.
pub(crate) enum Lowering<C> {
    /// An engine kind: its parameters lowered to a [`Kind`].
    Kind(Lower),
    /// A kind written with the public `Control` API, made as a host composite or
    /// decorator is (rule 73).
    Control(crate::control::ControlFactory<C>),
}

impl<C> From<Lower> for Lowering<C> {
    fn from(lower: Lower) -> Self {
        Lowering::Kind(lower)
    }
}

/// Every built-in node kind: its declaration and its lowering. The only list.
pub(crate) fn builtin_kinds<C: 'static>() -> Vec<(NodeType, Lowering<C>)> {
    let kinds: Vec<(NodeType, Lower)> = vec![
        (control::sequence::spec(), control::sequence::lower),
        (control::selector::spec(), control::selector::lower),
        (control::parallel::spec(), control::parallel::lower),
        (control::parallel_all::spec(), control::parallel_all::lower),
        (control::if_then_else::spec(), control::if_then_else::lower),
        (
            control::while_do_else::spec(),
            control::while_do_else::lower,
        ),
        (control::switch::spec(), control::switch::lower),
        (decorator::inverter::spec(), decorator::inverter::lower),
        (decorator::succeeder::spec(), decorator::succeeder::lower),
        (
            decorator::force_failure::spec(),
            decorator::force_failure::lower,
        ),
        (decorator::repeat::spec(), decorator::repeat::lower),
        (decorator::retry::spec(), decorator::retry::lower),
        (decorator::limiter::spec(), decorator::limiter::lower),
        (decorator::timeout::spec(), decorator::timeout::lower),
        (
            decorator::keep_running_until_failure::spec(),
            decorator::keep_running_until_failure::lower,
        ),
        (decorator::delay::spec(), decorator::delay::lower),
        (decorator::run_once::spec(), decorator::run_once::lower),
        (decorator::loop_queue::spec(), decorator::loop_queue::lower),
        (decorator::if_updated::spec(), decorator::if_updated::lower),
        (decorator::subtree::spec(), decorator::subtree::lower),
        (action::wait::spec(), action::wait::lower),
        (action::scripted::spec(), action::scripted::lower),
        (action::condition::spec(), action::condition::lower),
        (action::increment::spec(), action::increment::lower),
        (
            action::set_blackboard::spec(),
            action::set_blackboard::lower,
        ),
        (action::send_event::spec(), action::send_event::lower),
        (action::set_trigger::spec(), action::set_trigger::lower),
        (action::log::spec(), action::log::lower),
        (action::was_updated::spec(), action::was_updated::lower),
        (
            action::unset_blackboard::spec(),
            action::unset_blackboard::lower,
        ),
        (action::random::spec(), action::random::lower),
        (action::script::spec(), action::script::lower),
        (
            action::script_condition::spec(),
            action::script_condition::lower,
        ),
    ];
    let controls = [
        (
            decorator::cooldown::spec(),
            Lowering::Control(decorator::cooldown::factory()),
        ),
        (
            control::random_selector::spec(),
            Lowering::Control(control::random_selector::factory()),
        ),
        (
            control::utility_selector::spec(),
            Lowering::Control(control::utility_selector::factory()),
        ),
    ];
    kinds
        .into_iter()
        .map(|(ty, lower)| (ty, lower.into()))
        .chain(controls)
        .collect()
}

/// Built-in node and attached decorator declarations.
pub(crate) fn builtin_types() -> Vec<NodeType> {
    builtin_kinds::<()>()
        .into_iter()
        .map(|(ty, _)| ty)
        .chain(attached::builtin_types())
        .collect()
}

/// Shorthand for declarations.
pub(crate) fn ty(name: &str, category: Category, description: &str) -> NodeType {
    NodeType::new(name, category, description)
}
