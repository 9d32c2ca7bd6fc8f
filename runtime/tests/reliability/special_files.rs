//! Special files: directories, FIFOs and devices are refused with a message
//! before anything blocks or reads without end; regular files are read with a byte cap.

use arbor_runtime::btcpp::import_file;
use arbor_runtime::{check_file, LoadOptions, NodeTypes};
use serde_json::json;

use super::{fifo, scratch, write_json};
use crate::common::{arbor, text, tree_json};

fn check(path: &std::path::Path) -> Vec<String> {
    check_file(path, &NodeTypes::builtin(), &LoadOptions::default())
        .problems
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn check_refuses_a_fifo_without_blocking_and_dev_zero_without_reading_it() {
    let dir = scratch("special-check");
    if let Some(pipe) = fifo(&dir, "pipe.json") {
        let problems = check(&pipe);
        assert!(
            problems[0]
                .ends_with("cannot read the file: not a regular file: it is a FIFO (named pipe)"),
            "{problems:?}"
        );
        let out = arbor(&["check", &pipe.display().to_string()]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("it is a FIFO"),
            "{}",
            text(&out.stderr)
        );
    }
    if std::path::Path::new("/dev/zero").exists() {
        let problems = check(std::path::Path::new("/dev/zero"));
        assert!(
            problems[0].ends_with("not a regular file: it is a device"),
            "{problems:?}"
        );
    }
    let problems = check(&dir);
    assert!(
        problems[0].ends_with("not a regular file: it is a directory"),
        "{problems:?}"
    );
}

#[test]
fn a_file_over_the_cap_is_refused() {
    let dir = scratch("special-cap");
    let path = dir.join("big.json");
    std::fs::write(&path, vec![b' '; 2_000]).expect("write");
    let opts = LoadOptions {
        max_file_bytes: 1_000,
        ..LoadOptions::default()
    };
    let report = check_file(&path, &NodeTypes::builtin(), &opts);
    assert!(report.problems[0]
        .to_string()
        .contains("the file is 2000 bytes; the limit is 1000 bytes"));
    let err = arbor_runtime::files::read_text(&path, 1_000).expect_err("over the cap");
    assert!(matches!(
        err,
        arbor_runtime::files::ReadError::TooLarge { .. }
    ));
}

fn subtree_parent(dir: &std::path::Path, path: &str) -> std::path::PathBuf {
    write_json(
        dir,
        "main.json",
        &tree_json(
            json!({"type": "Sequence", "children": [
                {"type": "Subtree", "name": "lib", "params": {"path": path}}
            ]}),
            json!([]),
        ),
    )
}

#[test]
fn a_subtree_path_naming_a_directory_or_fifo_names_the_parent_file_path_and_node() {
    let dir = scratch("special-subtree");
    std::fs::create_dir_all(dir.join("lib")).expect("folder");
    let main = subtree_parent(&dir, "lib");
    let problems = check(&main);
    let shown = main.display().to_string();
    assert!(
        problems[0].starts_with(&format!(
            "{shown}: $.nodes[1].params.path (node \"lib\" (Subtree)): cannot read subtree `lib`"
        )) && problems[0].ends_with("not a regular file: it is a directory"),
        "{problems:?}"
    );
    if fifo(&dir, "pipe.json").is_some() {
        let main = subtree_parent(&dir, "pipe.json");
        let problems = check(&main);
        assert!(
            problems[0].contains("$.nodes[1].params.path (node \"lib\" (Subtree))")
                && problems[0].ends_with("it is a FIFO (named pipe)"),
            "{problems:?}"
        );
    }
}

#[test]
fn import_refuses_fifos_and_directories_as_documents_and_includes() {
    let dir = scratch("special-import");
    std::fs::create_dir_all(dir.join("folder")).expect("folder");
    let err = import_file(&dir.join("folder"), "x").expect_err("a directory");
    assert!(
        err.to_string()
            .contains("not a regular file: it is a directory"),
        "{err}"
    );
    let main = dir.join("main.xml");
    std::fs::write(
        &main,
        "<root BTCPP_format=\"4\">\n  <include path=\"folder\"/>\n  <BehaviorTree ID=\"Main\"><AlwaysSuccess/></BehaviorTree>\n</root>\n",
    )
    .expect("write");
    let err = import_file(&main, "main").expect_err("an include of a directory");
    assert!(
        err.to_string().contains(":2:3: included file")
            && err.to_string().contains("it is a directory"),
        "{err}"
    );
    if let Some(pipe) = fifo(&dir, "pipe.xml") {
        let err = import_file(&pipe, "x").expect_err("a FIFO");
        assert!(err.to_string().contains("it is a FIFO"), "{err}");
        let out = arbor(&[
            "import",
            &pipe.display().to_string(),
            "-o",
            &dir.join("out.json").display().to_string(),
        ]);
        assert_eq!(out.status.code(), Some(1));
    }
}

#[test]
fn a_subtree_that_cannot_be_read_is_reported_at_its_subtree_node() {
    let dir = scratch("special-subtree-cap");
    let main = subtree_parent(&dir, "big.json");
    let mut big = serde_json::to_vec(&tree_json(
        json!({"type": "Wait", "params": {"seconds": 1}}),
        json!([]),
    ))
    .expect("JSON");
    big.extend(std::iter::repeat_n(b' ', 10_000));
    std::fs::write(dir.join("big.json"), &big).expect("write");
    let opts = LoadOptions {
        max_file_bytes: 5_000,
        ..LoadOptions::default()
    };
    let report = check_file(&main, &NodeTypes::builtin(), &opts);
    let line = report.problems[0].to_string();
    assert!(
        line.starts_with(&format!(
            "{}: $.nodes[1].params.path (node \"lib\" (Subtree)): cannot read subtree `big.json`",
            main.display()
        )) && line.ends_with("the limit is 5000 bytes"),
        "{line}"
    );
}

#[test]
fn stimuli_and_manifests_named_on_the_command_line_are_read_the_same_way() {
    let dir = scratch("special-cli-files");
    let counting = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cli/counting.json")
        .display()
        .to_string();
    let folder = dir.display().to_string();
    let out = arbor(&["run", &counting, "--ticks", "1", "--stimuli", &folder]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("it is a directory"),
        "{}",
        text(&out.stderr)
    );
    let out = arbor(&["check", "--types", &folder, &counting]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot read the manifest: not a regular file"),
        "{}",
        text(&out.stderr)
    );
}

/// The open itself does not wait for a writer, and the opened file is checked again: a
/// path swapped for a FIFO after the check by path is refused, not waited on. (Opening a
/// FIFO with no writer would block forever; the deadline only turns such a hang into a
/// failure.)
#[test]
fn a_fifo_reached_by_the_open_itself_is_refused_without_waiting() {
    let dir = scratch("special-open");
    let Some(pipe) = fifo(&dir, "swapped.json") else {
        return;
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(arbor_runtime::files::open_regular(&pipe).map(|_| ()));
    });
    let result = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("opening a FIFO returned instead of waiting for a writer");
    let err = result.expect_err("a FIFO is not a regular file");
    assert!(
        matches!(
            err,
            arbor_runtime::files::ReadError::NotRegular("a FIFO (named pipe)")
        ),
        "{err}"
    );
    let file = dir.join("plain.json");
    std::fs::write(&file, "{}").expect("write");
    let (_, size) = arbor_runtime::files::open_regular(&file).expect("a regular file opens");
    assert_eq!(size, 2);
}
