//! Canvas cost on large trees (docs/performance.md): the whole editor UI, run headlessly through
//! `egui::Context::run_ui` on a 1600×1000 screen and tessellated as a real frame would be, on
//! generated trees of 200, 1,000 and 5,000 nodes, at 100 % zoom and fully zoomed out; undo
//! and redo of single commands on a 5,000-node document; an edit followed by one frame on
//! a 5,000-node document (wall clock and the UI thread's CPU time); opening a 5,000-node
//! file until its first frame is drawn.
//!
//! `cargo bench -p arbor-editor --bench canvas` measures; `cargo test` runs each benchmark
//! once (criterion's test mode) so the bench cannot rot. No window or GPU is involved, so
//! the figures are CPU time up to the tessellated meshes, without the GL upload.

use std::path::{Path, PathBuf};

use arbor_editor::app::ArborApp;
use arbor_editor::commands::{MoveItems, RemoveItems, SetParam};
use arbor_editor::document::{Owner, Selection};
use arbor_editor::Session;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use egui::{Event, Pos2, RawInput, Rect};
use serde_json::{json, Value};

const SIZES: [usize; 3] = [200, 1_000, 5_000];
const SCREEN: [f32; 2] = [1600.0, 1000.0];
/// egui_node_editor's smallest zoom.
const ZOOMED_OUT: f32 = 0.2;

/// A generated tree file on disk.
struct TreeOnDisk {
    _dir: tempfile::TempDir,
    path: PathBuf,
    /// A composite deep in the middle of the tree whose children are leaves: the view is
    /// centred there, where the tree is densest.
    focus: Vec<String>,
}

/// Writes a tree of `n` nodes laid out left to right (depth → x, leaves stacked in y, a
/// parent level with the middle of its children), as the editor's tidy layout would.
/// Composites take 3 to 5 children, the second and fourth of them composites (so the tree is
/// about 14 levels deep at 5,000 nodes, and the runtime accepts it); every fifth
/// composite carries a Condition decorator; leaves are Wait and SetBlackboard actions.
fn write_tree(n: usize) -> TreeOnDisk {
    struct Gen {
        kind: &'static str,
        children: Vec<usize>,
    }
    let mut nodes = vec![Gen {
        kind: "Sequence",
        children: Vec::new(),
    }];
    let mut queue = std::collections::VecDeque::from([0usize]);
    let mut composites = 1;
    'fill: while let Some(parent) = queue.pop_front() {
        let fan = 3 + parent % 3;
        for k in 0..fan {
            if nodes.len() == n {
                break 'fill;
            }
            let id = nodes.len();
            // Keep at least one composite queued so the tree reaches `n` nodes.
            let composite = k % 2 == 1 || (queue.is_empty() && k == fan - 1);
            let kind = if composite {
                composites += 1;
                queue.push_back(id);
                if composites % 2 == 0 {
                    "Selector"
                } else {
                    "Sequence"
                }
            } else if id % 2 == 0 {
                "Wait"
            } else {
                "SetBlackboard"
            };
            nodes.push(Gen {
                kind,
                children: Vec::new(),
            });
            nodes[parent].children.push(id);
        }
    }
    let guid = |i: usize| format!("00000000-0000-4000-8000-{i:012x}");
    // Tidy positions: leaves in depth-first order, 140 units apart.
    let mut pos = vec![[0.0f64; 2]; nodes.len()];
    let mut next_leaf = 0.0;
    let mut order = Vec::new();
    let mut stack = vec![(0usize, 0usize, false)];
    while let Some((i, depth, done)) = stack.pop() {
        let x = depth as f64 * 320.0;
        if nodes[i].children.is_empty() {
            pos[i] = [x, next_leaf];
            next_leaf += 140.0;
            order.push(i);
        } else if done {
            let first = pos[nodes[i].children[0]][1];
            let last = pos[*nodes[i].children.last().expect("not empty")][1];
            pos[i] = [x, (first + last) / 2.0];
        } else {
            order.push(i);
            stack.push((i, depth, true));
            for &c in nodes[i].children.iter().rev() {
                stack.push((c, depth + 1, false));
            }
        }
    }
    let mut composite_count = 0;
    let json_nodes: Vec<Value> = nodes
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let mut node = json!({
                "guid": guid(i),
                "name": format!("{} {i}", g.kind),
                "type": g.kind,
            });
            match g.kind {
                "Wait" => node["params"] = json!({ "seconds": 1.5 }),
                "SetBlackboard" => node["params"] = json!({ "key": "count", "value": i as i64 }),
                _ => {
                    node["children"] =
                        json!(g.children.iter().map(|&c| guid(c)).collect::<Vec<_>>());
                    composite_count += 1;
                    if composite_count % 5 == 0 {
                        node["decorators"] = json!([{
                            "guid": format!("00000000-0000-4000-9000-{i:012x}"),
                            "name": "Flag set",
                            "type": "Condition",
                            "params": { "key": "flag", "equals": true },
                        }]);
                    }
                }
            }
            node
        })
        .collect();
    let positions: serde_json::Map<String, Value> = pos
        .iter()
        .enumerate()
        .map(|(i, p)| (guid(i), json!(p)))
        .collect();
    let file = json!({
        "format": "arbor-tree",
        "version": 1,
        "guid": "11111111-0000-4000-8000-000000000000",
        "name": format!("generated {n}"),
        "blackboard": [
            { "key": "count", "type": "int", "default": 0 },
            { "key": "flag", "type": "bool", "default": true },
        ],
        "root": guid(0),
        "nodes": json_nodes,
        "editor": { "positions": positions },
    });
    // The composite whose leaf children sit in the middle of the depth-first order.
    let middle = order.len() / 2;
    let focus = order[middle..]
        .iter()
        .copied()
        .find(|&i| {
            !nodes[i].children.is_empty()
                && nodes[i]
                    .children
                    .iter()
                    .all(|&c| nodes[c].children.is_empty())
        })
        .unwrap_or(0);
    let mut focus_guids = vec![guid(focus)];
    focus_guids.extend(nodes[focus].children.iter().map(|&c| guid(c)));
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(format!("generated_{n}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&file).expect("json"))
        .expect("tree written");
    TreeOnDisk {
        _dir: dir,
        path,
        focus: focus_guids,
    }
}

/// The editor and an egui context, driven frame by frame.
struct Driver {
    app: ArborApp,
    ctx: egui::Context,
    time: f64,
    tick: u64,
}

impl Driver {
    fn open(path: &Path) -> Driver {
        let session = Session::open(path).expect("generated tree opens");
        let mut app = ArborApp::new(session);
        app.set_native_dialogs(false);
        let mut d = Driver {
            app,
            ctx: egui::Context::default(),
            time: 0.0,
            tick: 0,
        };
        d.frame();
        d
    }

    /// One frame: the pointer moves a pixel over the canvas (so hover is live), the UI
    /// runs and its shapes are tessellated.
    fn frame(&mut self) -> usize {
        self.time += 1.0 / 60.0;
        self.tick += 1;
        let wiggle = (self.tick % 2) as f32;
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(
                Pos2::ZERO,
                egui::vec2(SCREEN[0], SCREEN[1]),
            )),
            events: vec![Event::PointerMoved(Pos2::new(700.0 + wiggle, 300.0))],
            time: Some(self.time),
            focused: true,
            ..Default::default()
        };
        let app = &mut self.app;
        let mut out = self.ctx.run_ui(input, |ui| app.ui(ui));
        // The GL upload is not measured: the font atlas's uploads are dropped.
        out.textures_delta.clear();
        let meshes = self.ctx.tessellate(out.shapes, out.pixels_per_point);
        meshes.len()
    }

    /// Centres the view on `focus` at `zoom` and lets it settle.
    fn look_at(&mut self, focus: &[String], zoom: f32) {
        self.app.canvas_mut().frame(focus);
        self.frame();
        self.app.canvas_mut().set_zoom(zoom);
        for _ in 0..4 {
            self.frame();
        }
    }
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    for n in SIZES {
        let tree = write_tree(n);
        for (label, zoom) in [("default_zoom", 1.0), ("zoomed_out", ZOOMED_OUT)] {
            let mut d = Driver::open(&tree.path);
            d.look_at(&tree.focus, zoom);
            // The view is on the tree, in the intended mode.
            assert!(d.app.canvas().drawn(&tree.focus[0]).is_some() || zoom < 1.0);
            assert!(d.app.canvas().lod_box(&tree.focus[0]).is_some() || zoom == 1.0);
            eprintln!(
                "frame/{label}/{n}: {} node widgets built",
                d.app.canvas().widget_count()
            );
            group.bench_function(format!("{label}/{n}"), |b| b.iter(|| d.frame()));
        }
    }
    group.finish();
}

/// Builds the command to time from the session it will be applied to.
type MakeCommand<'a> = dyn Fn(&Session) -> arbor_editor::commands::Command + 'a;

/// Undo then redo of one command (one iteration is both), on the session alone.
fn undo_redo(c: &mut Criterion) {
    let n = 5_000;
    let tree = write_tree(n);
    let mut group = c.benchmark_group("undo_redo_5000");
    group.sample_size(30);
    let leaf = tree.focus[1].clone();
    let commands: [(&str, &MakeCommand); 3] = [
        ("move_node", &|s: &Session| {
            MoveItems::by(
                s.document(),
                &Selection::of_nodes([leaf.clone()]),
                [40.0, 0.0],
            )
            .expect("finite")
            .into()
        }),
        ("remove_node", &|s: &Session| {
            RemoveItems::new(s.document(), &Selection::of_nodes([leaf.clone()])).into()
        }),
        ("set_param", &|s: &Session| {
            SetParam::new(
                s.document(),
                Owner::Node(leaf.clone()),
                "seconds",
                Some(json!(2.5)),
            )
            .expect("a parameter")
            .into()
        }),
    ];
    for (name, make) in commands {
        let mut session = Session::open(&tree.path).expect("opens");
        let cmd = make(&session);
        session.apply(cmd).expect("applies");
        group.bench_function(name, |b| {
            b.iter(|| {
                assert!(session.undo());
                assert!(session.redo());
            })
        });
    }
    // The same through the editor: undo, one frame (the views resync), redo, one frame.
    let mut d = Driver::open(&tree.path);
    d.look_at(&tree.focus, 1.0);
    let cmd = MoveItems::by(
        d.app.session().document(),
        &Selection::of_nodes([leaf.clone()]),
        [40.0, 0.0],
    )
    .expect("finite");
    d.app.session_mut().apply(cmd).expect("applies");
    d.frame();
    group.bench_function("move_node_with_frames", |b| {
        b.iter(|| {
            assert!(d.app.session_mut().undo());
            d.frame();
            assert!(d.app.session_mut().redo());
            d.frame();
        })
    });
    group.finish();
}

/// CPU time of the calling thread: what one frame costs the UI thread, whatever else the
/// machine runs (the shared build machine's load makes wall-clock figures swing several
/// times over) and without the work handed to other threads (the background check).
struct ThreadCpu;

fn thread_cpu_now() -> std::time::Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write into; CLOCK_THREAD_CPUTIME_ID is supported
    // by every Linux the bench runs on (a failure leaves zero, which shows as 0 ns).
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl criterion::measurement::Measurement for ThreadCpu {
    type Intermediate = std::time::Duration;
    type Value = std::time::Duration;

    fn start(&self) -> Self::Intermediate {
        thread_cpu_now()
    }
    fn end(&self, start: Self::Intermediate) -> Self::Value {
        thread_cpu_now().saturating_sub(start)
    }
    fn add(&self, a: &Self::Value, b: &Self::Value) -> Self::Value {
        *a + *b
    }
    fn zero(&self) -> Self::Value {
        std::time::Duration::ZERO
    }
    fn to_f64(&self, value: &Self::Value) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn criterion::measurement::ValueFormatter {
        // Nanoseconds, shown as durations, as the wall clock's are.
        static WALL: criterion::measurement::WallTime = criterion::measurement::WallTime;
        WALL.formatter()
    }
}

/// The frame right after an edit of a 5,000-node document (the cost a user feels while
/// dragging or typing in the inspector): one iteration applies a command, then draws one
/// frame. The edits alternate so each one changes the document. Timed twice: wall clock,
/// and the UI thread's CPU time (see [`ThreadCpu`]).
fn edit_then_frame(c: &mut Criterion) {
    edit_then_frame_in(c, "edit_then_frame_5000");
    let mut cpu = Criterion::default()
        .with_measurement(ThreadCpu)
        .configure_from_args();
    edit_then_frame_in(&mut cpu, "edit_then_frame_5000_thread_cpu");
}

fn edit_then_frame_in<M: criterion::measurement::Measurement>(c: &mut Criterion<M>, name: &str) {
    let tree = write_tree(5_000);
    let mut group = c.benchmark_group(name);
    group.sample_size(30);
    let leaf = tree.focus[1].clone();
    let mut d = Driver::open(&tree.path);
    d.look_at(&tree.focus, 1.0);
    let mut step = 0u64;
    group.bench_function("move_node", |b| {
        b.iter(|| {
            step += 1;
            let dx = if step.is_multiple_of(2) { 40.0 } else { -40.0 };
            let cmd = MoveItems::by(
                d.app.session().document(),
                &Selection::of_nodes([leaf.clone()]),
                [dx, 0.0],
            )
            .expect("finite");
            d.app.session_mut().apply(cmd).expect("applies");
            d.frame()
        })
    });
    group.bench_function("set_param", |b| {
        b.iter(|| {
            step += 1;
            let cmd = SetParam::new(
                d.app.session().document(),
                Owner::Node(leaf.clone()),
                "seconds",
                Some(json!(1.0 + (step % 7) as f64)),
            )
            .expect("a parameter");
            d.app.session_mut().apply(cmd).expect("applies");
            d.frame()
        })
    });
    group.finish();
}

/// From the file on disk to the first frame drawn (tessellated).
fn open(c: &mut Criterion) {
    let tree = write_tree(5_000);
    let mut group = c.benchmark_group("open");
    group.sample_size(10);
    group.bench_function("5000_until_first_frame", |b| {
        b.iter_batched(
            || (),
            |()| Driver::open(&tree.path),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, frames, undo_redo, edit_then_frame, open);
criterion_main!(benches);
