//! One test per script construct. Each cites what BehaviorTree.CPP printed for the same
//! script: observed with `behaviortreepy` 0.1.4 (in target/btcpp-venv), running
//! `<Script code="…"/>` in a Sequence and printing the root blackboard with
//! `get_string` (BT.CPP prints doubles as `%f`). Where Arbor differs on purpose the test
//! says so (docs/interop.md, "Scripts").

use std::sync::Arc;

use super::*;
use crate::blackboard::{Blackboard, KeyInfo};
use crate::value::Value;

struct Env {
    keys: Vec<(String, ValueType)>,
    enums: Vec<(&'static str, i64)>,
}

impl Names for Env {
    fn key(&self, name: &str, root: bool) -> Option<(Key, ValueType)> {
        let _ = root;
        self.keys
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| (Key(i as u32), self.keys[i].1))
    }

    fn enum_value(&self, name: &str) -> Option<i64> {
        self.enums.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

fn env(keys: &[(&str, ValueType)]) -> Env {
    Env {
        keys: keys.iter().map(|(n, t)| (n.to_string(), *t)).collect(),
        enums: vec![("RED", 0), ("GREEN", 1), ("BLUE", 2)],
    }
}

fn board(env: &Env) -> Blackboard {
    let infos: Vec<KeyInfo> = env
        .keys
        .iter()
        .map(|(name, ty)| KeyInfo {
            name: name.clone(),
            ty: *ty,
            default: Value::Null,
        })
        .collect();
    Blackboard::new(Arc::from(infos))
}

const I: ValueType = ValueType::Int;
const F: ValueType = ValueType::Float;
const B: ValueType = ValueType::Bool;
const S: ValueType = ValueType::String;

/// Runs `src` on a fresh blackboard with `keys`; the script's value and the board.
fn run(keys: &[(&str, ValueType)], src: &str) -> (Result<Outcome, Stop>, Blackboard) {
    let env = env(keys);
    let program = compile(src, &env).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    let mut bb = board(&env);
    let out = program.run_value(&mut bb);
    (out, bb)
}

fn value(src: &str) -> Outcome {
    run(&[], src).0.expect("runs")
}

fn key(bb: &Blackboard, name: &str) -> Value {
    bb.key(name)
        .and_then(|k| bb.get(k).cloned())
        .unwrap_or(Value::Null)
}

fn refused(keys: &[(&str, ValueType)], src: &str) -> ScriptError {
    match compile(src, &env(keys)) {
        Ok(_) => panic!("`{src}` was accepted"),
        Err(e) => e,
    }
}

#[test]
fn assignment_create_and_existing() {
    // BT.CPP: `a := 1` -> a "1"; `@a:=1` -> a "1" (the root key); `=` changes a value
    // that exists (rule 86).
    let (_, bb) = run(&[("a", I), ("b", I)], "a := 1; b := 0; b = a");
    assert_eq!(key(&bb, "a").as_i64(), Some(1));
    assert_eq!(key(&bb, "b").as_i64(), Some(1));
    let (_, bb) = run(&[("a", I)], "@a := 7");
    assert_eq!(key(&bb, "a").as_i64(), Some(7));
}

#[test]
fn compound_assignments() {
    // BT.CPP: `a:=1; a+=2` -> "3"; `a:=1.5; a-=1` -> "0.500000"; `a:='x'; a+='y'` -> "xy".
    let (_, bb) = run(&[("a", I)], "a := 1; a += 2");
    assert_eq!(key(&bb, "a").as_i64(), Some(3));
    let (_, bb) = run(&[("a", F)], "a := 1.5; a -= 1");
    assert_eq!(key(&bb, "a").as_f64(), Some(0.5));
    let (_, bb) = run(&[("a", F)], "a := 3; a *= 1.5; a /= 2");
    assert_eq!(key(&bb, "a").as_f64(), Some(2.25));
    let (_, bb) = run(&[("s", S)], "s := 'x'; s += 'y'");
    assert_eq!(key(&bb, "s").as_str(), Some("xy"));
}

#[test]
fn assignments_keep_the_key_type() {
    // BT.CPP: `a:=1; a:=2.5` -> error; `a:=7; a/=2` -> "Invalid floating point to integer
    // conversion"; `a:=3; a*=1.5` -> the same; `a:=1; a='s'` -> "Any failed string to
    // number conversion". Arbor refuses these at load instead of failing at tick.
    refused(&[("a", I)], "a := 2.5");
    let e = refused(&[("a", I)], "a := 7; a /= 2");
    assert!(e.message.contains("declare it float"), "{}", e.message);
    refused(&[("a", I)], "a *= 1.5");
    refused(&[("a", I)], "a = 's'");
    // An int widens into a float key (BT.CPP: `a:=1.5; a-=1` works).
    let (_, bb) = run(&[("a", F)], "a := 2");
    assert!(matches!(key(&bb, "a"), Value::Float(f) if f == 2.0));
}

#[test]
fn arithmetic() {
    // BT.CPP: `(1+2)*3` -> 9; `2*3-1` -> 5; `1-2*3` -> -5; `-3` -> -3; `0.1+0.2` -> 0.3.
    assert_eq!(value("(1 + 2) * 3"), Outcome::Int(9));
    assert_eq!(value("2 * 3 - 1"), Outcome::Int(5));
    assert_eq!(value("1 - 2 * 3"), Outcome::Int(-5));
    assert_eq!(value("-3"), Outcome::Int(-3));
    assert_eq!(value("0.1 + 0.2"), Outcome::Float(0.1 + 0.2));
    // BT.CPP (behaviortreepy 0.1.4) prints 11 for `10-2-3` and 8 for `8/2/2`: its
    // grammar groups these to the right. BT.CPP 4.8's parser (src/script_parser.cpp)
    // groups binary operators to the left, as Arbor does.
    assert_eq!(value("10 - 2 - 3"), Outcome::Int(5));
    assert_eq!(value("8 / 2 / 2"), Outcome::Float(2.0));
}

#[test]
fn division_always_gives_a_float() {
    // BT.CPP: `a:=5/2` -> "2.500000"; `a:=1/0` -> "inf".
    assert_eq!(value("5 / 2"), Outcome::Float(2.5));
    assert_eq!(value("1 / 0"), Outcome::Float(f64::INFINITY));
}

#[test]
fn number_literals() {
    // BT.CPP: `0x1F` -> "31"; `1e3` -> "1000.000000".
    assert_eq!(value("0x1F"), Outcome::Int(31));
    assert_eq!(value("1e3"), Outcome::Float(1000.0));
    assert_eq!(value("2.5e-1"), Outcome::Float(0.25));
}

#[test]
fn bitwise_operators() {
    // BT.CPP: `5&3` -> 1; `5|3` -> 7; `5^3` -> 6; `~5` -> -6; `a:=7; b:=a&2` -> 2.
    assert_eq!(value("5 & 3"), Outcome::Int(1));
    assert_eq!(value("5 | 3"), Outcome::Int(7));
    assert_eq!(value("5 ^ 3"), Outcome::Int(6));
    assert_eq!(value("~5"), Outcome::Int(-6));
    refused(&[], "1.5 & 1");
}

#[test]
fn comparisons_chain() {
    // BT.CPP: `1<2<3` -> 1; `a:=1; b:=a==1` -> 1; `1==1.0` -> 1; `'abc'=='abc'` -> 1;
    // `'abc'<'abd'` -> 1; `'abc' != 'x'` -> 1.
    assert_eq!(value("1 < 2 < 3"), Outcome::Bool(true));
    assert_eq!(value("3 > 2 > 2"), Outcome::Bool(false));
    assert_eq!(value("1 == 1.0"), Outcome::Bool(true));
    assert_eq!(value("'abc' == 'abc'"), Outcome::Bool(true));
    assert_eq!(value("'abc' < 'abd'"), Outcome::Bool(true));
    assert_eq!(value("'abc' != 'x'"), Outcome::Bool(true));
    assert_eq!(value("2 >= 2 && 2 <= 1"), Outcome::Bool(false));
    // BT.CPP: `'a' < 3` -> "Any failed string to number conversion".
    refused(&[], "'a' < 3");
}

#[test]
fn logic() {
    // BT.CPP: `!0` -> 1; `!5` -> 0; `1 && 0` -> 0; `(0 || 1)` -> 1; `true||false` -> 1;
    // `1<2 && 2<3` -> 1; `!true` -> 0; `!'x'` -> error.
    assert_eq!(value("!0"), Outcome::Bool(true));
    assert_eq!(value("!5"), Outcome::Bool(false));
    assert_eq!(value("1 && 0"), Outcome::Bool(false));
    assert_eq!(value("0 || 1"), Outcome::Bool(true));
    assert_eq!(value("true || false"), Outcome::Bool(true));
    assert_eq!(value("!true"), Outcome::Bool(false));
    refused(&[], "!'x'");
    refused(&[], "-'x'");
}

#[test]
fn logic_short_circuits() {
    // The right side is not evaluated when the left decides: `missing` has no value, which
    // would stop the script.
    let (out, _) = run(&[("missing", B)], "false && missing");
    assert_eq!(out, Ok(Outcome::Bool(false)));
    let (out, _) = run(&[("missing", B)], "true || missing");
    assert_eq!(out, Ok(Outcome::Bool(true)));
    let (out, _) = run(&[("missing", B)], "true && missing");
    assert!(
        matches!(out, Err(Stop::NoValue { key: Key(0), .. })),
        "{out:?}"
    );
}

#[test]
fn ternary() {
    // BT.CPP: `1?2:3` -> "2"; `0 ? 'x':'y'` -> "y".
    assert_eq!(value("1 ? 2 : 3"), Outcome::Int(2));
    assert_eq!(value("0 ? 'x' : 'y'"), Outcome::Str("y".into()));
    assert_eq!(value("false ? 1 : 2.5"), Outcome::Float(2.5));
    assert_eq!(value("true ? 1 : 2.5"), Outcome::Float(1.0));
    assert_eq!(value("false ? 1 : true ? 2 : 3"), Outcome::Int(2));
    // BT.CPP: `(1>2) ? 'a' : 5` -> "5"; Arbor needs one type for both branches.
    refused(&[], "1 > 2 ? 'a' : 5");
}

#[test]
fn strings_and_concatenation() {
    // BT.CPP: `'x'..3` -> "x3"; `'x'..2.5` -> "x2.500000"; `'x'..true` -> "x1";
    // `a:='a'; b:=a..'b'..'c'` -> "abc".
    assert_eq!(value("'x' .. 3"), Outcome::Str("x3".into()));
    assert_eq!(value("'x' .. 2.5"), Outcome::Str("x2.500000".into()));
    assert_eq!(value("'x' .. true"), Outcome::Str("x1".into()));
    let (_, bb) = run(&[("a", S), ("b", S)], "a := 'a'; b := a .. 'b' .. 'c'");
    assert_eq!(key(&bb, "b").as_str(), Some("abc"));
    // Strings built in one script do not disturb each other.
    assert_eq!(
        value("('a' .. 'b') == ('a' .. 'b') ? 'x' .. 'y' : 'z'"),
        Outcome::Str("xy".into())
    );
    // BT.CPP: `'3'+1` -> error.
    refused(&[], "'3' + 1");
}

#[test]
fn storing_the_same_built_string_keeps_the_old_value() {
    let env = env(&[("s", S)]);
    let program = compile("s := 'a' .. 'b'", &env).unwrap();
    let mut bb = board(&env);
    program.run(&mut bb).unwrap();
    let first = match bb.get(Key(0)) {
        Some(Value::Str(s)) => s.clone(),
        other => panic!("{other:?}"),
    };
    program.run(&mut bb).unwrap();
    match bb.get(Key(0)) {
        Some(Value::Str(s)) => assert!(crate::Text::ptr_eq(s, &first)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn several_statements_give_the_last_value() {
    // BT.CPP: `a:=1 ;b:=2` -> a "1", b "2".
    let (out, bb) = run(&[("a", I), ("b", I)], "a := 1 ; b := 2; a + b");
    assert_eq!(out, Ok(Outcome::Int(3)));
    assert_eq!(key(&bb, "b").as_i64(), Some(2));
}

#[test]
fn rule86_reading_a_key_without_value_stops_where_it_is_read() {
    // BT.CPP 4.8.2: `y := x + 1` with no `x` throws "Error in script [y := x + 1]
    // Variable not found: x"; Arbor's script stops there, located at the read.
    let src = "a := 1; a := b";
    let (out, bb) = run(&[("a", I), ("b", I)], src);
    assert_eq!(
        out,
        Err(Stop::NoValue {
            key: Key(1),
            start: 13,
            end: 14
        })
    );
    // Statements before the failing one have run.
    assert_eq!(key(&bb, "a").as_i64(), Some(1));
    let env = env(&[("a", I), ("b", I)]);
    let program = compile(src, &env).unwrap();
    let message = program.stop_message(out.unwrap_err());
    assert!(
        message.starts_with("script stopped at column 14 (`b`): the key has no value"),
        "{message}"
    );
    assert!(message.contains("Variable not found"), "{message}");
}

#[test]
fn rule86_assigning_with_eq_needs_a_value_and_colon_eq_creates_one() {
    // BT.CPP 4.8.2: `x = 1` with no entry `x` throws "The blackboard entry [x] doesn't
    // exist, yet. If you want to create a new one, use the operator [:=] instead of [=]";
    // so does `x += 1`; `x := 1; x = 2` succeeds.
    for src in ["x = 1", "x += 1", "s += 'a'", "f /= 2"] {
        let (out, bb) = run(&[("x", I), ("s", S), ("f", F)], src);
        assert!(
            matches!(out, Err(Stop::NotCreated { start: 0, .. })),
            "{src}: {out:?}"
        );
        assert_eq!(
            bb.to_json().values().filter(|v| !v.is_null()).count(),
            0,
            "{src}"
        );
    }
    let (out, bb) = run(&[("x", I)], "x := 1; x = 2; x += 1");
    assert_eq!(out, Ok(Outcome::Int(3)));
    assert_eq!(key(&bb, "x").as_i64(), Some(3));
    // BT.CPP checks the target before the value: `x = y` with neither names `x`.
    let (out, _) = run(&[("x", I), ("y", I)], "x = y");
    assert!(
        matches!(out, Err(Stop::NotCreated { key: Key(0), .. })),
        "{out:?}"
    );
    // Statements before have run: BT.CPP's `a := 1; b = 2` leaves `a` at 1.
    let src = "a := 1; b = 2";
    let (out, bb) = run(&[("a", I), ("b", I)], src);
    assert_eq!(key(&bb, "a").as_i64(), Some(1));
    let env = env(&[("a", I), ("b", I)]);
    let message = compile(src, &env).unwrap().stop_message(out.unwrap_err());
    assert!(
        message.starts_with("script stopped at column 9 (`b`): the key has no value yet"),
        "{message}"
    );
    assert!(message.contains("doesn't exist, yet"), "{message}");
}

#[test]
fn enums() {
    // BT.CPP's registerScriptingEnum: an enum name reads as its integer value.
    assert_eq!(value("GREEN"), Outcome::Int(1));
    let (_, bb) = run(&[("color", I)], "color := BLUE; color == BLUE");
    assert_eq!(key(&bb, "color").as_i64(), Some(2));
    refused(&[], "RED := 3");
}

#[test]
fn unknown_and_unusable_keys_are_located() {
    let e = refused(&[("a", I)], "a := missing + 1");
    assert_eq!((e.start, e.end), (5, 12));
    assert_eq!(e.message, "no blackboard key or enum named `missing`");
    let e = refused(
        &[("list", ValueType::List(crate::value::Scalar::Int))],
        "list",
    );
    assert!(e.message.contains("list<int>"), "{}", e.message);
}

#[test]
fn assignment_only_as_a_statement() {
    let e = refused(&[("a", I), ("b", I)], "a := (b := 1)");
    assert!(e.message.contains("whole statement"), "{}", e.message);
}

#[test]
fn conditions_need_a_bool_or_number() {
    let env = env(&[]);
    assert!(compile_condition("1 < 2", &env).is_ok());
    assert!(compile_condition("1", &env).is_ok());
    assert!(compile_condition("'yes'", &env).is_err());
}

#[test]
fn line_and_column() {
    let src = "a := 1;\n  b := ?";
    let e = refused(&[("a", I), ("b", I)], src);
    assert_eq!(e.line_column(src), (2, 8));
}

mod components {
    use super::*;
    use crate::vector::{Vec2, Vec3};

    const V2: ValueType = ValueType::Vec2;
    const V3: ValueType = ValueType::Vec3;

    /// Runs `src` with `pos` (vec2) set to (1, 2) and `p3` (vec3) to (1, 2, 3).
    fn run_with_vectors(src: &str) -> (Result<Outcome, Stop>, Blackboard) {
        let env = env(&[("pos", V2), ("p3", V3), ("n", F), ("empty", V2)]);
        let program = compile(src, &env).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let mut bb = board(&env);
        let (pos, p3) = (bb.key("pos").unwrap(), bb.key("p3").unwrap());
        bb.set(pos, Vec2::new(1.0, 2.0)).unwrap();
        bb.set(p3, Vec3::new(1.0, 2.0, 3.0)).unwrap();
        let out = program.run_value(&mut bb);
        (out, bb)
    }

    #[test]
    fn rule80_components_read_as_floats() {
        let (out, bb) = run_with_vectors("n := pos.x + pos.y * 10; p3.z > 2.5");
        assert_eq!(out, Ok(Outcome::Bool(true)));
        assert_eq!(key(&bb, "n"), Value::Float(21.0));
        assert_eq!(
            check_with_keys("pos.y", &[("pos".to_owned(), V2)]),
            Ok(Ty::Float)
        );
    }

    #[test]
    fn rule80_assigning_a_component_keeps_the_others_and_counts_one_write() {
        let (out, bb) = run_with_vectors("pos.x := 3; pos.y += 0.5; p3.z *= 2; p3.y := 7");
        assert!(out.is_ok(), "{out:?}");
        assert_eq!(key(&bb, "pos"), Value::Vec2(Vec2::new(3.0, 2.5)));
        assert_eq!(key(&bb, "p3"), Value::Vec3(Vec3::new(1.0, 7.0, 6.0)));
        // The host's set plus the two script writes.
        assert_eq!(bb.updates(bb.key("pos").unwrap()), 3);
    }

    #[test]
    fn rule80_a_vector_without_a_value_stops_the_script() {
        let (out, bb) = run_with_vectors("n := 1; n := empty.x; n := 2");
        assert!(matches!(out, Err(Stop::NoValue { .. })), "{out:?}");
        assert_eq!(key(&bb, "n"), Value::Float(1.0));
        let (out, bb) = run_with_vectors("empty.y := 4");
        assert!(matches!(out, Err(Stop::NoValue { .. })), "{out:?}");
        assert_eq!(key(&bb, "empty"), Value::Null);
    }

    #[test]
    fn rule80_bad_components_are_located() {
        let keys = [("pos", V2), ("hp", F), ("p3", V3), ("n", F)];
        let e = refused(&keys, "n := pos.z");
        assert_eq!((e.start, e.end), (9, 10));
        assert_eq!(
            e.message,
            "`pos` is a vec2 key: its components are `x`, `y`"
        );
        let e = refused(&keys, "hp.x > 1");
        assert_eq!((e.start, e.end), (0, 4));
        assert_eq!(
            e.message,
            "`hp` holds float values; only vec2 and vec3 keys have components (`.x`, `.y`, `.z`)"
        );
        assert!(refused(&keys, "p3.w").message.contains("`x`, `y`, `z`"));
        assert_eq!(
            refused(&keys, "pos").message,
            "`pos` holds vec2 values; scripts use bool, int, float and string keys"
        );
        assert_eq!(
            refused(&keys, "pos. 1").message,
            "expected a component name (`x`, `y` or `z`) after `.`"
        );
        assert_eq!(
            refused(&keys, ".x").message,
            "a component is read from a key: write `pos.x`"
        );
        assert_eq!(
            refused(&keys, "pos.x := 'far'").message,
            "`pos.x` is a float key; this value is a string"
        );
        // `..` stays the join operator.
        assert_eq!(value("1 .. 2"), Outcome::Str("12".into()));
    }
}
