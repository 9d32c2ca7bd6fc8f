//! The game project open in the editor (File ▸ Open Project…): a folder, or its
//! `arbor-project.json`, whose manifests fill the palette. New trees belong to it (they
//! name its manifests and are saved in its trees folder by default), trees opened from its
//! folder are edited against its types, and the Declare Action form adds placeholder types
//! to it. Recent projects are kept in the preferences.

use std::path::Path;
use std::sync::Arc;

use arbor_editor_model::project::Project;

use super::files::{self, Picked};
use super::{ArborApp, Purpose};
use crate::panels::ProjectAction;
use crate::Session;

impl ArborApp {
    /// The project open in the editor.
    pub fn project(&self) -> Option<&Arc<Project>> {
        self.project.as_ref()
    }

    /// Opens the project at `path` (a folder or a project file): the open trees inside it
    /// join it, and a new tree of it is shown. A project that cannot be opened leaves
    /// everything as it was and says why; a manifest that cannot be used is listed in the
    /// project panel and the rest of the project opens.
    pub fn open_project(&mut self, path: &Path) {
        let project = match Project::open(path) {
            Ok(project) => Arc::new(project),
            Err(e) => {
                self.files.error = Some(format!("Could not open the project:\n\n{e}"));
                return;
            }
        };
        self.prefs.remember_project(project.root());
        if !project.problems().is_empty() {
            self.shared.toasts.error(format!(
                "{} of the project could not be used: see the project panel",
                crate::words::count(project.problems().len(), "manifest")
            ));
        }
        self.project = Some(project);
        self.link_sessions();
        self.show_in_tab(self.blank_session());
    }

    /// Closes the project: its trees stay open, with their own manifests' types.
    pub fn close_project(&mut self) {
        self.project = None;
        self.link_sessions();
    }

    /// A new document: the project's when one is open (its manifests, its types), else
    /// one with the active document's types.
    pub(super) fn blank_session(&self) -> Session {
        match &self.project {
            Some(project) => files::start(Session::in_project(project.clone(), "Untitled")),
            None => files::new_session(self.session().types()),
        }
    }

    /// Gives every open document its project: the open one for those inside its folder or
    /// never saved in it, none for the rest.
    pub(super) fn link_sessions(&mut self) {
        let project = self.project.clone();
        for tab in &mut self.tabs {
            let session = tab.session_mut();
            let belongs = project.as_ref().filter(|p| match session.path() {
                Some(path) => p.contains(path),
                None => session.project().is_some(),
            });
            session.set_project(belongs.cloned());
        }
    }

    /// The project an opened file belongs to.
    pub(super) fn project_for(&self, path: &Path) -> Option<Arc<Project>> {
        self.project.clone().filter(|p| p.contains(path))
    }

    /// File ▸ Open Project…: a folder dialog, or the path field when there is none.
    pub(super) fn pick_project(&mut self) {
        if !self.native_dialogs {
            self.prompt_path(Purpose::OpenProject);
            return;
        }
        let (picked, failed) = files::watch(|| rfd::FileDialog::new().pick_folder());
        match files::outcome(picked, failed) {
            Picked::Path(path) => self.open_project(&path),
            Picked::Cancelled => {}
            Picked::Unavailable => self.prompt_path(Purpose::OpenProject),
        }
    }

    /// Does what the project panel asked.
    pub(super) fn project_action(&mut self, action: ProjectAction) {
        match action {
            ProjectAction::Open => self.pick_project(),
            ProjectAction::NewTree => self.show_in_tab(self.blank_session()),
            ProjectAction::OpenTree(path) => self.open(&path),
            ProjectAction::Declare => self.declare.open(),
            ProjectAction::Reload => {
                if let Some(project) = &mut self.project {
                    Arc::make_mut(project).reload();
                    self.link_sessions();
                }
            }
        }
    }

    /// The Declare Action form, while open: a saved declaration is written into the
    /// project's manifest and offered at once by every document of the project.
    pub(super) fn declare_ui(&mut self, ctx: &egui::Context) {
        let Some(project) = &mut self.project else {
            return;
        };
        let manifest = project.placeholder_manifest();
        let Some(declaration) = self.declare.show(ctx, &manifest) else {
            return;
        };
        match Arc::make_mut(project).declare(&declaration) {
            Ok(name) => {
                self.declare.saved();
                self.link_sessions();
                self.shared.toasts.info(format!(
                    "Declared `{name}` in {manifest}: drag it from the palette; `arbor stub {name}` prints its Rust skeleton"
                ));
            }
            Err(e) => self.declare.refused(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_fills_new_tabs_and_trees_inside_it() {
        let dir = tempfile::tempdir().unwrap();
        arbor_editor_model::project::write_game_folder(dir.path()).unwrap();
        let mut app = ArborApp::new(Session::default());
        app.set_native_dialogs(false);
        app.open_project(dir.path());
        assert!(app.session().types().node("Shoot").is_some());
        assert_eq!(
            app.session().document().manifests(),
            ["../manifests/game.json"]
        );
        assert_eq!(app.prefs().recent_projects.len(), 1);

        let outside = tempfile::tempdir().unwrap();
        let tree = outside.path().join("t.json");
        let mut s = Session::default();
        s.save_as(&tree).unwrap();
        app.open(&tree);
        assert!(
            app.session().types().node("Shoot").is_none(),
            "a tree outside the project has its own types"
        );

        app.project_action(ProjectAction::NewTree);
        assert!(app.session().project().is_some());
        app.close_project();
        assert!(app.session().project().is_none());
        assert!(app.session().types().node("Shoot").is_none());
    }
}
