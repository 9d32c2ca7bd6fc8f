"""BehaviorTree.CPP side of the differential test (runtime/tests/btcpp/differential.rs).

Reads a JSON list of runs on stdin, each
  {"name", "path", "main", "custom": {ID: "action"|"condition"},
   "stand_ins": {ID: "decorator"|BT.CPP built-in ID},
   "scripts": {ID: [status, ...]}, "enums": {NAME: int}, "ticks": N, "dt_ms": M,
   "method": "exactly_once" | "once"}
runs the tree in BT.CPP 4 through the `behaviortreepy` bindings, and writes one JSON
object per run on stdout:
  {"name", "error"?, "thrown"?, "builtin": [ID, ...],
   "ticks": [{"status", "calls": [name, ...], "bb": {key: value}}, ...]}
where "thrown" is the script exception that ended the run ({"tick": n, "message"}: the
n-th tick, 1-based, threw "Error in script [...]\n<what>"), which Arbor reports as the
stop of rule 86 at the same tick.

Custom leaves behave as Arbor's stand-ins (docs/semantics.md rule 6): the k-th tick of a
node instance returns script[min(k, len - 1)]; no script means success. Their XML
attributes are removed before BT.CPP loads the tree, because nodes registered from Python
declare no ports and BT.CPP refuses unknown ones; the scripted leaves read no port, so
this changes nothing observable. `<include>`d files are inlined (with the same port
stripping), each file once.

Custom controls and decorators with a stand-in (rule 61) run their children in both
engines: here a "decorator" is a SimpleDecorator that returns its child's status, and any
other stand-in renames the element to the BT.CPP built-in that behaves as it does
(`<PipelineSequence>` becomes `<ReactiveSequence>`), its ports removed.

Scripting enums are set as root blackboard entries of the same names before the first
tick: these bindings do not expose `registerScriptingEnum`, and BT.CPP's script looks a
name up in its enums first, then in the blackboard.
"""

import json
import os
import re
import sys
import time
import xml.etree.ElementTree as ET

import behaviortreepy as bt

STATUS = {
    "success": bt.NodeStatus.SUCCESS,
    "failure": bt.NodeStatus.FAILURE,
    "running": bt.NodeStatus.RUNNING,
}
NAMES = {
    bt.NodeStatus.SUCCESS: "success",
    bt.NodeStatus.FAILURE: "failure",
    bt.NodeStatus.RUNNING: "running",
    bt.NodeStatus.IDLE: "idle",
    bt.NodeStatus.SKIPPED: "skipped",
}
EXPLICIT = ("Action", "Condition", "Decorator", "Control")
KEEP = ("ID", "name")
# A tree that loops inside one tick (Repeat -1 over a succeeding leaf, or with `tickOnce`
# a Retry -1 over a failing one) is stopped here.
MAX_CALLS_PER_TICK = 5000


def strip_ports(el, custom, renames):
    node_id = el.get("ID") if el.tag in EXPLICIT else el.tag
    if node_id in custom or node_id in renames:
        for attr in list(el.attrib):
            if attr not in KEEP and not attr.startswith("_"):
                del el.attrib[attr]
    if node_id in renames:
        el.tag = renames[node_id]
        el.attrib.pop("ID", None)
    for child in el:
        strip_ports(child, custom, renames)


ENTITY = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);")


def tolerate(text):
    """What BT.CPP's TinyXML2 accepts and Python's parser does not (as Arbor's import
    repairs it): text before the first tag, raw `&` and `<` in attribute values."""
    start = 0
    while True:
        m = re.compile(r"\s*(<\?.*?\?>|<!--.*?-->)", re.S).match(text, start)
        if not m or m.end() == start:
            break
        start = m.end()
    lt = text.find("<", start)
    if lt > start and text[start:lt].strip():
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:lt]) + text[lt:]
    out, i, in_tag, quote = [], 0, False, None
    while i < len(text):
        c = text[i]
        if not in_tag:
            for begin, end in (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>")):
                if text.startswith(begin, i):
                    j = text.find(end, i)
                    j = len(text) if j < 0 else j + len(end)
                    out.append(text[i:j])
                    i = j
                    break
            else:
                in_tag = c == "<"
                out.append(c)
                i += 1
            continue
        if quote is None:
            if c in "\"'":
                quote = c
            elif c == ">":
                in_tag = False
        elif c == quote:
            quote = None
        elif c == "&" and not ENTITY.match(text, i):
            c = "&amp;"
        elif c == "<":
            c = "&lt;"
        out.append(c)
        i += 1
    return "".join(out)


def load_document(path, custom, renames, seen):
    """The <root> of `path` with its includes inlined."""
    seen.add(os.path.realpath(path))
    with open(path, encoding="utf-8") as f:
        root = ET.fromstring(tolerate(f.read()))
    for inc in [c for c in root if c.tag == "include"]:
        root.remove(inc)
        target = os.path.join(os.path.dirname(path), inc.get("path", ""))
        if os.path.realpath(target) in seen or inc.get("ros_pkg"):
            continue
        for tree in load_document(target, custom, renames, seen):
            if tree.tag == "BehaviorTree":
                root.append(tree)
    for tree in root:
        if tree.tag == "BehaviorTree":
            strip_ports(tree, custom, renames)
    return root


def value_of(board, key):
    """A blackboard value as JSON: bool, int, float or string; None when empty."""
    try:
        text = board.get_string(key)
    except Exception:
        return None
    try:
        if board.get_bool(key) in (True, False) and text in ("0", "1", "true", "false"):
            return text in ("1", "true")
    except Exception:
        pass
    try:
        i = board.get_int(key)
        if str(i) == text:
            return i
    except Exception:
        pass
    try:
        float(text)  # BT.CPP's get_double reads a prefix: "1,2,3" would be 1.0
        return board.get_double(key)
    except Exception:
        return text


def run(req):
    out = {"name": req["name"], "ticks": [], "builtin": []}
    custom = req["custom"]
    scripts = req["scripts"]
    calls = []
    counters = {}

    def next_status(node, node_id):
        calls.append(node.name())
        if len(calls) > MAX_CALLS_PER_TICK:
            # BT.CPP's stateful action swallows an exception of its callback (it fails),
            # so a `tickOnce` over an unbounded Retry of a failing leaf would never
            # return: succeed instead, so that the tick ends, and report the tick.
            return bt.NodeStatus.SUCCESS
        k = counters.get(node.uid(), 0)
        counters[node.uid()] = k + 1
        script = scripts.get(node_id) or ["success"]
        return STATUS[script[min(k, len(script) - 1)]]

    factory = bt.BehaviorTreeFactory()
    for node_id, kind in custom.items():
        tick = lambda node, i=node_id: next_status(node, i)
        try:
            if kind == "condition":
                factory.register_simple_condition(node_id, tick)
            else:
                factory.register_simple_stateful_action(node_id, tick, tick, None)
        except Exception:
            # A BT.CPP built-in Arbor imports as an opaque stand-in.
            out["builtin"].append(node_id)
    stand_ins = req.get("stand_ins", {})
    for node_id, kind in stand_ins.items():
        if kind == "decorator":
            try:
                factory.register_simple_decorator(node_id, lambda status, node: status)
            except Exception:
                out["builtin"].append(node_id)
    renames = {i: k for i, k in stand_ins.items() if k != "decorator"}
    try:
        stripped = (set(custom) | set(stand_ins)) - set(out["builtin"])
        root = load_document(req["path"], stripped, renames, set())
        factory.register_behavior_tree_from_text(ET.tostring(root, encoding="unicode"))
        tree = factory.create_tree(req["main"])
    except Exception as e:
        out["error"] = str(e).splitlines()[0] if str(e) else type(e).__name__
        return out
    board = tree.root_blackboard()
    for name, value in req.get("enums", {}).items():
        board.set_int(name, value)
    for _ in range(req["ticks"]):
        del calls[:]
        try:
            if req.get("method") == "once":
                status = tree.tick_once()
            else:
                status = tree.tick_exactly_once()
        except Exception as e:
            text = str(e)
            if text.startswith("Error in script"):
                out["thrown"] = {"tick": len(out["ticks"]) + 1, "message": text}
            else:
                out["error"] = "tick: " + (text.splitlines()[0] if text else type(e).__name__)
            return out
        if len(calls) > MAX_CALLS_PER_TICK:
            out["error"] = "tick: more than %d leaf calls in one tick" % MAX_CALLS_PER_TICK
            return out
        bb = {k: value_of(board, k) for k in board.get_keys()}
        out["ticks"].append({"status": NAMES.get(status, str(status)), "calls": list(calls), "bb": bb})
        time.sleep(req["dt_ms"] / 1000.0)
    tree.halt_tree()
    return out


def main():
    for req in json.load(sys.stdin):
        print(json.dumps(run(req)), flush=True)


if __name__ == "__main__":
    main()
