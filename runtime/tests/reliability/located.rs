//! Located messages: invalid UTF-8 gives its line and column.

use arbor_runtime::btcpp::import_file;
use arbor_runtime::{check_file, LoadOptions, NodeTypes};

use super::scratch;

#[test]
fn invalid_utf8_in_a_tree_file_gives_line_and_column() {
    let dir = scratch("utf8-tree");
    let path = dir.join("bad.json");
    std::fs::write(
        &path,
        b"{\n  \"format\": \"arbor-tree\",\n  \"name\": \"ab\xffc\"\n}\n",
    )
    .expect("write");
    let report = check_file(&path, &NodeTypes::builtin(), &LoadOptions::default());
    assert_eq!(report.problems[0].line, Some((3, 14)));
    assert_eq!(
        report.problems[0].to_string(),
        format!(
            "{}:3:14: invalid UTF-8 (a file must be UTF-8 text)",
            path.display()
        )
    );
}

#[test]
fn invalid_utf8_in_an_xml_import_gives_line_and_column() {
    let dir = scratch("utf8-xml");
    let path = dir.join("bad.xml");
    std::fs::write(&path, b"<root>\n<A name=\"\xc3\x28\"/>\n</root>\n").expect("write");
    let err = import_file(&path, "bad").expect_err("not UTF-8");
    assert!(
        err.to_string()
            .ends_with("bad.xml:2:10: invalid UTF-8 at line 2, column 10"),
        "{err}"
    );
}
