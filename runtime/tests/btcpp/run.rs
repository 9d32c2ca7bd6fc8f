//! Running imported BehaviorTree.CPP trees with stand-ins for their custom nodes:
//! the files are written, loaded from disk (subtrees resolve by path) with
//! `stand_in_registry`, and ticked with per-node scripts; the results are what BT.CPP's
//! tutorials describe.
#![cfg(feature = "btcpp")]

use super::support;

use arbor_runtime::btcpp::{import_str, stand_in_registry, ImportOptions, StandIns};
use arbor_runtime::{Agent, Status};
use serde_json::json;
use support::*;

fn bb(agent: &Agent<StandIns>, key: &str) -> serde_json::Value {
    let board = agent.blackboard();
    let k = board.key(key).unwrap_or_else(|| panic!("no key {key}"));
    board
        .get(k)
        .map_or(serde_json::Value::Null, |v| v.to_json())
}

fn count(names: &[String], name: &str) -> usize {
    names.iter().filter(|n| *n == name).count()
}

#[test]
fn crossdoor_picks_the_lock_on_the_third_try() {
    let (imported, dir) = import_to("crossdoor.xml", "door", "run-crossdoor");
    let tree = load(&imported, &dir);
    let mut data = scripts(
        &tree,
        &[
            ("IsDoorOpen", &["failure"]),
            ("OpenDoor", &["failure"]),
            ("PickLock", &["failure", "failure", "success"]),
        ],
    );
    let mut agent = Agent::new(tree, 1);
    let (status, ticked, ticks) = tick_to_end(&mut agent, &mut data, 10);
    assert_eq!(status, Status::Success);
    // RetryUntilSuccessful yields between attempts, as in BT.CPP 4.8 (rule 49): one pick
    // per tick; SmashDoor is never needed.
    assert_eq!((count(&ticked, "PickLock"), ticks), (3, 3));
    assert_eq!(count(&ticked, "SmashDoor"), 0);
    assert_eq!(count(&ticked, "PassThroughDoor"), 1);
    // The Script set it false, then try_open's `_onSuccess` set it true, as in BT.CPP.
    assert_eq!(bb(&agent, "door_open"), json!(true), "the scripts ran");
}

#[test]
fn crossdoor_smashes_the_door_after_five_failed_picks() {
    let (imported, dir) = import_to("crossdoor.xml", "door", "run-crossdoor-smash");
    let tree = load(&imported, &dir);
    let mut data = scripts(
        &tree,
        &[
            ("IsDoorOpen", &["failure"]),
            ("OpenDoor", &["failure"]),
            ("PickLock", &["failure"]),
            ("SmashDoor", &["running", "success"]),
        ],
    );
    let mut agent = Agent::new(tree.clone(), 1);
    // One failed pick per tick (rule 49); the fifth failure moves on to SmashDoor.
    for _ in 0..4 {
        let (status, ticked) = tick(&mut agent, &mut data);
        assert_eq!((status, count(&ticked, "PickLock")), (Status::Running, 1));
    }
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Running);
    assert_eq!(count(&ticked, "PickLock"), 1);
    assert_eq!(count(&ticked, "SmashDoor"), 1);
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked.first().map(String::as_str), Some("SmashDoor"));
    let smash = (0..tree.len())
        .map(arbor_runtime::NodeId::from_index)
        .find(|&n| tree.info(n).name == "SmashDoor")
        .unwrap();
    assert_eq!(data.ticks(smash), 2);
}

#[test]
fn a_low_battery_pre_empts_the_mission() {
    let (imported, dir) = import_to("battery.xml", "patrol", "run-battery");
    let tree = load(&imported, &dir);
    let mut data = scripts(
        &tree,
        &[
            ("BatteryOK", &["success", "success", "failure"]),
            ("MoveBase", &["running"]),
            ("go_to_dock", &["running"]),
        ],
    );
    let mut agent = Agent::new(tree, 1);
    agent
        .blackboard_mut()
        .set_json("battery_low", &json!(false), None)
        .unwrap();
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Running);
    assert_eq!(
        ticked,
        [
            "BatteryOK",
            "SaySomething",
            "MoveBase",
            "Timeout",
            "mission",
            "mode",
            "root"
        ]
    );
    // The battery runs low: the ReactiveFallback re-ticks `charge`, whose `_while` now
    // holds, and the running mission is aborted.
    agent
        .blackboard_mut()
        .set_json("battery_low", &json!(true), None)
        .unwrap();
    let (status, events) = tick_events(&mut agent, &mut data);
    assert_eq!(status, Status::Running);
    let abort = events
        .iter()
        .position(|e| e == "abort mission")
        .expect("mission aborted");
    let dock = events
        .iter()
        .position(|e| e == "enter go_to_dock")
        .expect("docking");
    assert!(dock < abort, "{events:#?}");
    assert!(events.contains(&"abort MoveBase".to_owned()), "{events:#?}");
    // The battery check fails (ReactiveSequence re-ticks it): everything stops.
    let (status, events) = tick_events(&mut agent, &mut data);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort charge".to_owned()), "{events:#?}");
}

#[test]
fn the_guard_library_tree_runs() {
    let (imported, dir) = import_to("library.xml", "guard", "run-library");
    let tree = load(&imported, &dir);
    let mut data = StandIns::new();
    let mut agent = Agent::new(tree, 1);
    agent
        .blackboard_mut()
        .set_json("mode", &json!("guard"), None)
        .unwrap();
    // `shifts += 1` needs a value (rule 86: BT.CPP 4.8.2 throws "The blackboard entry
    // [shifts] doesn't exist, yet"): the program gives it one, as it gives `mode`.
    agent
        .blackboard_mut()
        .set_json("shifts", &json!(0), None)
        .unwrap();
    // SequenceWithMemory runs one instantly succeeding child per tick (rule 50).
    let (status, ticked, _) = tick_to_end(&mut agent, &mut data, 10);
    assert_eq!(status, Status::Success);
    // No alarm: IfThenElse takes the else branch (Look); the radio report is skipped
    // (`_skipIf="!alarm"`), the Precondition lets the log report run.
    assert_eq!(count(&ticked, "init"), 1);
    assert_eq!(count(&ticked, "Shout"), 0);
    assert_eq!(count(&ticked, "Look"), 1);
    assert_eq!(count(&ticked, "Report"), 1);
    assert_eq!(bb(&agent, "shifts"), json!(1));
    assert_eq!(bb(&agent, "alarm"), json!(false));
    // RunOnce: the initialisation does not run again; the shift counter goes on.
    agent
        .blackboard_mut()
        .set_json("alarm", &json!(true), None)
        .unwrap();
    let (status, ticked, _) = tick_to_end(&mut agent, &mut data, 10);
    assert_eq!(count(&ticked, "init"), 0);
    assert_eq!(bb(&agent, "shifts"), json!(2));
    // The alarm is up: Shout (under ForceFailure) makes the shift fail.
    assert_eq!(count(&ticked, "Shout"), 1);
    assert_eq!(status, Status::Failure);
    // Patrol mode: three walks (Repeat), then the radio report (not skipped any more).
    agent
        .blackboard_mut()
        .set_json("mode", &json!("patrol"), None)
        .unwrap();
    let (status, ticked, _) = tick_to_end(&mut agent, &mut data, 10);
    assert_eq!(status, Status::Success);
    assert_eq!(count(&ticked, "Walk"), 3);
    // The shift resumed at the Switch that failed: the counter did not run again.
    assert_eq!(bb(&agent, "shifts"), json!(2));
    assert_eq!(count(&ticked, "Report"), 1);
}

#[test]
fn a_v3_subtree_writes_its_parent_key() {
    let (imported, dir) = import_to("crossdoor_v3.xml", "door", "run-v3");
    let tree = load(&imported, &dir);
    let mut data = scripts(
        &tree,
        &[
            ("IsDoorOpen", &["failure"]),
            ("OpenDoor", &["failure", "failure", "success"]),
        ],
    );
    let mut agent = Agent::new(tree, 1);
    let (status, ticked, _) = tick_to_end(&mut agent, &mut data, 10);
    assert_eq!(status, Status::Success);
    assert_eq!(count(&ticked, "OpenDoor"), 3);
    assert_eq!(count(&ticked, "PassThroughWindow"), 0);
    assert_eq!(bb(&agent, "went_through"), json!(true));
}

#[test]
fn opaque_nodes_run_as_stand_ins_too() {
    let (imported, dir) = import_to("opaque.xml", "forklift", "run-opaque");
    let tree = load(&imported, &dir);
    let mut data = scripts(&tree, &[("LoopInt", &["running", "success"])]);
    let mut agent = Agent::new(tree, 1);
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Running);
    // A stand-in does not tick its children (documented limitation).
    assert_eq!(count(&ticked, "LiftPallet"), 0);
    let (status, _) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Success);
}

#[test]
fn an_in_memory_import_runs_without_files() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <Sequence>
          <SetBlackboard output_key="{target}" value="door"/>
          <IfThenElse>
            <ScriptCondition code="target == 'door'"/>
            <Go to="{target}"/>
            <AlwaysFailure/>
          </IfThenElse>
        </Sequence>
      </BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).unwrap();
    let registry = stand_in_registry(&imported.node_types());
    let tree = std::sync::Arc::new(registry.loader().load_tree(imported.main(), None).unwrap());
    let mut agent = Agent::new(tree, 1);
    let (status, ticked) = tick(&mut agent, &mut StandIns::new());
    assert_eq!(status, Status::Success);
    assert!(ticked.contains(&"Go".to_owned()));
}

#[test]
fn built_in_ports_bound_to_keys_run_and_export_as_keys() {
    let (imported, dir) = import_to("bound_ports.xml", "bound", "run-bound");
    assert!(
        imported.warnings.is_empty(),
        "nothing is a stand-in: {:#?}",
        imported.warnings
    );
    let tree = load(&imported, &dir);
    let mut data = scripts(&tree, &[("Work", &["running"])]);
    let mut agent = Agent::new(tree, 1);
    // Repeat num_cycles="{n}" with n = 3: one Beep per tick (rule 49); the third ends it
    // and Sleep msec="{t}" (t = 2000 ms) enters at now = 3.
    for _ in 0..3 {
        let (status, ticked) = tick(&mut agent, &mut data);
        assert_eq!((status, count(&ticked, "Beep")), (Status::Running, 1));
    }
    assert_eq!(
        bb(&agent, "copy"),
        json!(3),
        "SetBlackboard value=\"{{n}}\" copies"
    );
    // Two seconds at dt = 1: Work starts at now = 5.
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!((status, count(&ticked, "Work")), (Status::Running, 0));
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!((status, count(&ticked, "Work")), (Status::Running, 1));
    // Timeout msec="{t}": Work runs for two seconds, then the Timeout fails.
    let (status, _) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Running);
    let (status, _) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Failure);

    let out = arbor_runtime::btcpp::export_file(
        &dir.join(&imported.files[0].file_name),
        &imported.node_types(),
    )
    .expect("exports");
    for attr in [
        r#"<Sleep msec="{t}"/>"#,
        r#"<Timeout msec="{t}">"#,
        r#"<Repeat num_cycles="{n}">"#,
        r#"value="{n}""#,
    ] {
        assert!(out.xml.contains(attr), "{attr} in\n{}", out.xml);
    }
    assert!(
        btcpp_violations(&out.xml).is_empty(),
        "{:?}",
        btcpp_violations(&out.xml)
    );
}

/// A Nav2 navigation tree (the shape of Nav2's `navigate_w_replanning_and_recovery.xml`).
const NAV2: &str = r#"<root BTCPP_format="4" main_tree_to_execute="Nav">
  <BehaviorTree ID="Nav">
    <RecoveryNode number_of_retries="6" name="NavigateRecovery">
      <PipelineSequence name="NavigateWithReplanning">
        <RateController hz="1.0">
          <ComputePathToPose goal="{goal}" path="{path}" name="plan"/>
        </RateController>
        <FollowPath path="{path}" controller_id="FollowPath" name="follow"/>
      </PipelineSequence>
      <ClearEntireCostmap name="clear" service_name="local_costmap/clear_entirely_local_costmap"/>
    </RecoveryNode>
  </BehaviorTree>
</root>"#;

#[test]
fn rule61_nav2_controls_and_decorators_preview_their_children() {
    // Before rule 61, RecoveryNode was a scripted leaf: one tick, success, nothing below
    // it ran.
    let imported = import_str(NAV2, &ImportOptions::new("nav")).expect("imports");
    let stand_in = |id: &str| {
        imported
            .types
            .iter()
            .find(|t| t.name == format!("BTCPP_{id}") || t.name == id)
            .unwrap_or_else(|| panic!("no type for {id}"))
            .stand_in
            .map(|s| s.as_str())
    };
    assert_eq!(stand_in("RecoveryNode"), Some("fallback"));
    assert_eq!(stand_in("PipelineSequence"), Some("reactive_sequence"));
    assert_eq!(stand_in("RateController"), Some("pass_through"));
    assert_eq!(
        stand_in("FollowPath"),
        None,
        "actions keep scripted stand-ins"
    );
    let dir = tempdir("run-nav2");
    imported.write_to(&dir).expect("written");
    let tree = load(&imported, &dir);
    let mut data = scripts(
        &tree,
        &[("follow", &["running", "failure"]), ("clear", &["success"])],
    );
    let mut agent = Agent::new(tree, 1);
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Running);
    assert_eq!((count(&ticked, "plan"), count(&ticked, "follow")), (1, 1));
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!(status, Status::Success);
    // The pipeline re-plans while following; the failed follow runs the recovery.
    assert_eq!(
        (
            count(&ticked, "plan"),
            count(&ticked, "follow"),
            count(&ticked, "clear")
        ),
        (1, 1, 1)
    );
}

#[test]
fn a_custom_control_the_import_does_not_know_stays_a_scripted_leaf() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <MyControl name="mine"><Go name="go"/><Stop name="stop"/></MyControl>
      </BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("mine")).expect("imports");
    assert!(imported.types.iter().all(|t| t.stand_in.is_none()));
    let dir = tempdir("run-custom-control");
    imported.write_to(&dir).expect("written");
    let tree = load(&imported, &dir);
    let mut data = scripts(&tree, &[]);
    let mut agent = Agent::new(tree, 1);
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!((status, ticked), (Status::Success, vec!["mine".to_owned()]));
}

/// A custom `<Control>` and `<Decorator>` of an imported tree run as the program's own
/// composite and decorator (rule 73): registered under the imported type's name, with
/// `Registry::composite` and `Registry::decorator`, they tick the imported children.
#[test]
fn registered_custom_controls_of_an_imported_tree_tick_their_children() {
    use arbor_runtime::{Control, ControlCtx, Recorder, Registry};

    /// Ticks its children from the last to the first, until one succeeds.
    struct Backwards;
    impl Control<()> for Backwards {
        type State = ();
        fn tick(&self, cx: &mut ControlCtx<'_, ()>, _: &mut ()) -> Status {
            for k in (0..cx.child_count()).rev() {
                match cx.tick_child(k) {
                    Status::Failure => continue,
                    other => return other,
                }
            }
            Status::Failure
        }
    }
    /// Ticks its child twice per tick.
    struct Twice;
    impl Control<()> for Twice {
        type State = ();
        fn tick(&self, cx: &mut ControlCtx<'_, ()>, _: &mut ()) -> Status {
            cx.tick_child(0);
            cx.tick_child(0)
        }
    }

    let xml = r#"<root BTCPP_format="4">
      <BehaviorTree ID="Main">
        <Backwards>
          <AlwaysSuccess name="first"/>
          <Twice><AlwaysFailure name="second"/></Twice>
        </Backwards>
      </BehaviorTree>
      <TreeNodesModel>
        <Control ID="Backwards"/>
        <Decorator ID="Twice"/>
      </TreeNodesModel>
    </root>"#;
    let imported = import_str(xml, &ImportOptions::new("custom")).expect("imports");
    let types = imported.node_types();
    let declared = |name: &str| {
        types
            .node(name)
            .cloned()
            .unwrap_or_else(|| panic!("the import declares {name}"))
    };
    assert_eq!(
        declared("Backwards").category,
        arbor_runtime::Category::Composite
    );
    assert_eq!(
        declared("Twice").category,
        arbor_runtime::Category::Decorator
    );
    let mut registry = Registry::<()>::new();
    registry
        .composite(declared("Backwards"), |_| Ok(Backwards))
        .decorator(declared("Twice"), |_| Ok(Twice));
    let tree = std::sync::Arc::new(
        registry
            .loader()
            .load_tree(imported.main(), None)
            .expect("loads with the program's controls"),
    );
    let mut agent = Agent::new(tree.clone(), 1);
    let mut rec = Recorder::default();
    assert_eq!(agent.tick_traced(&mut (), 1.0, &mut rec), Status::Success);
    let ticked: Vec<String> = rec
        .events
        .iter()
        .filter_map(|e| match e {
            arbor_runtime::Recorded::Tick(n, _) => Some(tree.info(*n).name.clone()),
            _ => None,
        })
        .collect();
    // Backwards starts at its last child: Twice runs `second` twice, fails, then `first`.
    assert_eq!(
        ticked,
        ["second", "second", "Twice", "first", "Backwards"],
        "{ticked:?}"
    );
}

/// BT.CPP 4.10's TryCatch (`src/controls/try_catch_node.cpp`): the try children run as a
/// Sequence; the first failure starts the catch in the same tick, a running catch is
/// resumed, and when it ends the node fails; the next run starts at the first try child.
#[test]
fn try_catch_runs_its_catch_after_a_failing_try_child_and_fails() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <TryCatch><Open/><Pass/><Clean/></TryCatch>
      </BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let kinds: Vec<&str> = imported
        .main()
        .nodes
        .iter()
        .map(|n| n.kind.as_str())
        .collect();
    assert_eq!(
        kinds,
        [
            "Selector",
            "Sequence",
            "Open",
            "Pass",
            "ForceFailure",
            "Clean"
        ]
    );
    let (mut agent, mut data) = running(
        &imported,
        "run-try-catch",
        &[
            ("Open", &["success"]),
            ("Pass", &["running", "failure", "success"]),
            ("Clean", &["running", "success"]),
        ],
    );
    let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let mut tick = |agent: &mut Agent<StandIns>| {
        let (status, mut ticked) = tick(agent, &mut data);
        ticked.retain(|n| matches!(n.as_str(), "Open" | "Pass" | "Clean"));
        (status, ticked)
    };
    let (status, ticked) = tick(&mut agent);
    assert_eq!(
        (status, ticked),
        (Status::Running, names(&["Open", "Pass"]))
    );
    // Pass fails: the catch starts in the same tick.
    let (status, ticked) = tick(&mut agent);
    assert_eq!(
        (status, ticked),
        (Status::Running, names(&["Pass", "Clean"]))
    );
    // The catch ends (with success): the TryCatch fails.
    let (status, ticked) = tick(&mut agent);
    assert_eq!((status, ticked), (Status::Failure, names(&["Clean"])));
    // Started again at the first try child; every try child succeeds.
    let (status, ticked) = tick(&mut agent);
    assert_eq!(
        (status, ticked),
        (Status::Success, names(&["Open", "Pass"]))
    );
}

/// `catch_on_halt="true"` runs the catch when the node is halted; Arbor has no such
/// halt hook for a child, so that TryCatch stays an opaque node, as before.
#[test]
fn try_catch_with_catch_on_halt_stays_opaque() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <TryCatch catch_on_halt="true"><Open/><Clean/></TryCatch>
      </BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    assert_eq!(imported.main().nodes[0].kind, "TryCatch");
}
