//! Gesture ids: consecutive edits that belong to one gesture (a drag, the keystrokes typed
//! into one field while it has focus) carry the same id, and the commands merge them into
//! one undo step. A new gesture starts when a field gains focus or a drag starts.

use std::collections::HashMap;

/// Hands out gesture ids per widget.
#[derive(Debug, Default)]
pub struct Gestures {
    next: u64,
    current: HashMap<egui::Id, u64>,
}

impl Gestures {
    /// The gesture id for edits made through `response`'s widget this frame.
    pub fn for_response(&mut self, response: &egui::Response) -> u64 {
        let starting = response.gained_focus()
            || response.drag_started()
            || !self.current.contains_key(&response.id);
        self.for_id(response.id, starting)
    }

    /// The gesture id for widget `id`; `starting` begins a new gesture.
    pub fn for_id(&mut self, id: egui::Id, starting: bool) -> u64 {
        if starting || !self.current.contains_key(&id) {
            self.next += 1;
            self.current.insert(id, self.next);
        }
        self.current[&id]
    }

    /// A fresh id for a one-off edit that must not merge with anything.
    pub fn fresh(&mut self) -> u64 {
        self.next += 1;
        self.next
    }
}
