//! Stimuli files: the host inputs `arbor run` applies before given ticks (rule 2, step 3).
//! `{"3": {"set": {"key": value | {"value": v, "ttl": s}}, "events": [..], "triggers": [..]}}`

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use arbor_runtime::Agent;

#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct Inputs {
    #[serde(default)]
    set: BTreeMap<String, Write>,
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    triggers: Vec<String>,
}

/// Inputs by tick number.
#[derive(Default, Debug)]
pub(super) struct Stimuli {
    by_tick: BTreeMap<u64, Inputs>,
}

impl Stimuli {
    pub(super) fn load(path: &Path) -> Result<Stimuli, String> {
        let shown = path.display();
        let text = super::read_capped(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        let mut de = serde_json::Deserializer::from_str(&text);
        let raw: BTreeMap<String, Inputs> =
            serde_path_to_error::deserialize(&mut de).map_err(|e| {
                let inner = e.inner();
                format!(
                    "{shown}:{}:{}: $.{}: {inner}",
                    inner.line(),
                    inner.column(),
                    e.path()
                )
            })?;
        let mut by_tick = BTreeMap::new();
        for (tick, inputs) in raw {
            let n: u64 = tick
                .parse()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| format!("{shown}: `{tick}` is not a tick number (1, 2, …)"))?;
            by_tick.insert(n, inputs);
        }
        Ok(Stimuli { by_tick })
    }

    /// Checks every input against the tree before running, so a typo fails at once.
    pub(super) fn validate<C>(&self, agent: &Agent<C>, shown: &str) -> Result<(), String> {
        let tree = agent.tree();
        for (tick, inputs) in &self.by_tick {
            for key in inputs.set.keys() {
                if agent.blackboard().key(key).is_none() {
                    return Err(format!(
                        "{shown}: $.{tick}.set.{key}: the tree declares no blackboard key `{key}`"
                    ));
                }
            }
            for event in &inputs.events {
                if !tree.events().iter().any(|e| e == event) {
                    say!("warning: {shown}: $.{tick}.events: no node checks event `{event}`");
                }
            }
            for trigger in &inputs.triggers {
                if !tree.triggers().iter().any(|t| t == trigger) {
                    say!("warning: {shown}: $.{tick}.triggers: no node uses trigger `{trigger}`");
                }
            }
        }
        Ok(())
    }

    /// Applies the inputs for `tick`, at the agent's current time.
    pub(super) fn apply<C>(
        &self,
        tick: u64,
        agent: &mut Agent<C>,
        shown: &str,
    ) -> Result<(), String> {
        let Some(inputs) = self.by_tick.get(&tick) else {
            return Ok(());
        };
        for (key, write) in &inputs.set {
            agent
                .blackboard_mut()
                .set_json(key, &write.value, write.ttl)
                .map_err(|e| format!("{shown}: $.{tick}.set.{key}: {e}"))?;
        }
        for event in &inputs.events {
            agent.raise_event(event);
        }
        for trigger in &inputs.triggers {
            agent.set_trigger(trigger);
        }
        Ok(())
    }
}

/// One blackboard write: `{"value": v, "ttl": s}` carries a time to live; anything else is
/// a plain value.
#[derive(Debug)]
struct Write {
    value: Value,
    ttl: Option<f64>,
}

impl<'de> Deserialize<'de> for Write {
    /// A `ttl` that is not a number of seconds (0 or more) is refused here, where the
    /// error still gets the file's line and column: ignored, the value would never expire.
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(de)?;
        if let Value::Object(map) = &value {
            let only_known = map.keys().all(|k| k == "value" || k == "ttl");
            if let (true, Some(inner)) = (only_known, map.get("value")) {
                let ttl = match map.get("ttl") {
                    None => None,
                    Some(ttl) => match ttl.as_f64() {
                        Some(s) if s.is_finite() && s >= 0.0 => Some(s),
                        _ => {
                            return Err(serde::de::Error::custom(format!(
                                "`ttl` must be a number of seconds, 0 or more; found `{ttl}`"
                            )))
                        }
                    },
                };
                return Ok(Write {
                    value: inner.clone(),
                    ttl,
                });
            }
        }
        Ok(Write { value, ttl: None })
    }
}
