"""A real BehaviorTree.CPP 4 program for the editor's Groot2 tests (behaviortreepy).

Usage: program.py PORT [TICKS] [BTLOG]
Publishes its tree with Groot2Publisher on PORT (and PORT+1), ticks it every 50 ms
(TICKS root ticks, default until killed) and, with BTLOG, records it with FileLogger.
Each action runs RUNNING for as many ticks as RUN_TICKS gives its name, then succeeds;
"battery_ok" always fails, so the fallback shows a failure every run. Prints "ready"
once published. Nodes registered from Python declare no ports, hence names, not ports.
"""
import sys
import time

import behaviortreepy as bt

XML = """
<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="patrol">
      <Script code="target:='dock'; laps+=1"/>
      <Fallback name="ready">
        <Check name="battery_ok"/>
        <Work name="charge"/>
      </Fallback>
      <Work name="walk"/>
      <SubTree ID="Deliver" goal="{target}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Deliver">
    <Sequence name="deliver">
      <Work name="pick"/>
      <Work name="drop"/>
    </Sequence>
  </BehaviorTree>
</root>
"""

RUN_TICKS = {"charge": 2, "walk": 3, "pick": 2, "drop": 1}
left = {}


def on_start(node):
    left[node.uid()] = RUN_TICKS.get(node.name(), 1)
    return bt.NodeStatus.RUNNING


def on_running(node):
    left[node.uid()] -= 1
    return bt.NodeStatus.SUCCESS if left[node.uid()] <= 0 else bt.NodeStatus.RUNNING


def main():
    port = int(sys.argv[1])
    ticks = int(sys.argv[2]) if len(sys.argv) > 2 else -1
    factory = bt.BehaviorTreeFactory()
    factory.register_simple_stateful_action("Work", on_start, on_running, None)
    factory.register_simple_condition("Check", lambda node: bt.NodeStatus.FAILURE)
    factory.register_behavior_tree_from_text(XML)
    tree = factory.create_tree("Main")
    tree.root_blackboard().set_int("laps", 0) if hasattr(bt.Blackboard, "set_int") else None
    publisher = bt.Groot2Publisher(tree, port)
    log = bt.FileLogger(tree, sys.argv[3]) if len(sys.argv) > 3 else None
    print("ready", flush=True)
    n = 0
    while ticks < 0 or n < ticks:
        tree.tick_exactly_once()
        n += 1
        time.sleep(0.05)
    if log is not None:
        log.flush()
    del log, publisher


if __name__ == "__main__":
    main()
