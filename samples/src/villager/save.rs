//! The villager's world in a save game: every field of [`VillagerWorld`], with positions
//! as `[x, y]`. Nothing of it is derived from the seed on load, so a world whose rules or
//! zones a host changed comes back as it was.

use arbor_runtime::Vec2;
use serde::{Deserialize, Serialize};

use super::need::Needs;
use super::rules::VillagerRules;
use super::world::{Activity, VillagerWorld};
use super::zone::{Zone, ZoneColor};
use crate::log::Log;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedVillager {
    size: [f64; 2],
    zones: Vec<SavedZone>,
    pos: [f64; 2],
    needs: Needs,
    lowest: Needs,
    activity: Activity,
    alive: bool,
    errands: u32,
    rules: VillagerRules,
    log: Log,
    dt: f64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedZone {
    color: ZoneColor,
    center: [f64; 2],
    radius: f64,
}

fn xy(v: Vec2) -> [f64; 2] {
    [v.x, v.y]
}

fn vec2([x, y]: [f64; 2]) -> Vec2 {
    Vec2::new(x, y)
}

/// The world as a save game holds it.
pub(super) fn save(world: &VillagerWorld) -> serde_json::Value {
    let saved = SavedVillager {
        size: xy(world.size),
        zones: world
            .zones
            .iter()
            .map(|z| SavedZone {
                color: z.color,
                center: xy(z.center),
                radius: z.radius,
            })
            .collect(),
        pos: xy(world.pos),
        needs: world.needs,
        lowest: world.lowest,
        activity: world.activity,
        alive: world.alive,
        errands: world.errands,
        rules: world.rules.clone(),
        log: world.log.clone(),
        dt: world.dt,
    };
    // Plain numbers, strings and lists always serialize.
    serde_json::to_value(saved).unwrap_or(serde_json::Value::Null)
}

/// The world of a save game; the message names what is wrong (`missing field `pos``).
pub(super) fn load(saved: &serde_json::Value) -> Result<VillagerWorld, String> {
    let s = SavedVillager::deserialize(saved).map_err(|e| e.to_string())?;
    Ok(VillagerWorld {
        size: vec2(s.size),
        zones: s
            .zones
            .into_iter()
            .map(|z| Zone {
                color: z.color,
                center: vec2(z.center),
                radius: z.radius,
            })
            .collect(),
        pos: vec2(s.pos),
        needs: s.needs,
        lowest: s.lowest,
        activity: s.activity,
        alive: s.alive,
        errands: s.errands,
        rules: s.rules,
        log: s.log,
        dt: s.dt,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_world_loads_back_field_for_field() {
        let mut world = VillagerWorld::new(7);
        world.step(0.25, 0.25);
        world.log.push(0.25, "heads for the red zone");
        world.activity = Activity::Walking(ZoneColor::Red);
        let saved = save(&world);
        let back = load(&saved).unwrap();
        assert_eq!(save(&back), saved);
        assert_eq!(format!("{back:?}"), format!("{world:?}"));
    }

    #[test]
    fn a_broken_save_names_what_is_wrong() {
        let mut saved = save(&VillagerWorld::new(7));
        saved["pos"] = serde_json::json!("here");
        assert!(load(&saved).unwrap_err().contains("invalid type"));
        saved.as_object_mut().unwrap().remove("pos");
        assert!(load(&saved).unwrap_err().contains("missing field `pos`"));
    }
}
