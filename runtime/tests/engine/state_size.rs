//! Bytes of state per agent for the reference tree of docs/performance.md, measured by the
//! test binary's counting global allocator (engine/counting_alloc.rs): the net heap bytes of
//! 10,000 agents (plus the `Agent` value itself, which the host stores inline) divided by
//! 10,000. bonsai-bt's figure for the same
//! tree is printed beside it for the comparison in docs/performance.md.

use arbor_runtime::Agent;

use super::counting_alloc::net_bytes as net;
use super::reference::{bonsai, compile, Counter};

const AGENTS: usize = 10_000;

/// Bytes per agent of `make`'s values, heap and inline, the holding Vec excluded.
fn per_agent<T>(mut make: impl FnMut(usize) -> T) -> usize {
    let mut agents = Vec::with_capacity(AGENTS);
    let before = net();
    for i in 0..AGENTS {
        agents.push(make(i));
    }
    let heap = net() - before;
    let bytes = heap as usize / AGENTS + std::mem::size_of::<T>();
    drop(agents);
    bytes
}

#[test]
fn reference_tree_state_fits_in_640_bytes_per_agent() {
    for running in [false, true] {
        let tree = compile(running);
        let mut counter = Counter::default();
        let arbor = per_agent(|i| {
            let mut agent = Agent::new(tree.clone(), i as u64);
            // Tick once so any state made on first use is counted too.
            agent.tick(&mut counter, 0.1);
            agent
        });
        let e = bonsai::event(0.1);
        let bonsai = per_agent(|_| {
            let mut bt = bonsai::tree(running);
            bonsai::tick(&mut bt, &mut counter, &e);
            bt
        });
        let variant = if running { "B" } else { "A" };
        println!(
            "variant {variant}: arbor {arbor} bytes/agent (state_size() {}), bonsai-bt {bonsai} bytes/agent",
            tree.state_size()
        );
        // The documented bound: at most 640 bytes per agent for the reference tree.
        assert!(arbor <= 640, "variant {variant}: {arbor} bytes per agent");
        assert!(
            arbor as isize <= tree.state_size() as isize + 64,
            "state_size() ({}) should account for the agent's bytes ({arbor})",
            tree.state_size()
        );
    }
}
