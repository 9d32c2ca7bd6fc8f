//! The project panel: the game project open in the editor (its name, its manifests and how
//! many types each gave, its trees) and every manifest that could not be used, located
//! (`manifests/game.json: expected value at line 3 column 5`), whether the project's or
//! the document's own. Its buttons ask the app for a new tree, a declaration or a reload;
//! the panel changes nothing itself.

use std::path::PathBuf;

use arbor_editor_model::document::io::ManifestError;
use arbor_editor_model::project::Project;
use egui::RichText;

use crate::i18n::{self, t, Lang};

/// What the panel asks the app to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProjectAction {
    /// File ▸ Open Project….
    Open,
    /// A new tree of the project, in a new tab.
    NewTree,
    /// Open one of the project's trees.
    OpenTree(PathBuf),
    /// Show the form that declares a new action or condition.
    Declare,
    /// Re-read the project's manifests.
    Reload,
}

/// See the module documentation.
#[derive(Debug, Default)]
pub struct ProjectPanel {
    /// Asked this frame; the app takes it after drawing.
    pub action: Option<ProjectAction>,
}

impl ProjectPanel {
    /// Draws the panel for `project` (if one is open) and the document's own manifest
    /// problems.
    pub fn ui(&mut self, ui: &mut egui::Ui, project: Option<&Project>, own: &[ManifestError]) {
        let Some(project) = project else {
            problems_ui(ui, own);
            return;
        };
        egui::CollapsingHeader::new(RichText::new(format!("{}: {}", t("Project"), project.name())).strong())
            .id_salt("project panel")
            .default_open(true)
            .show(ui, |ui| {
                let host = project.types().nodes().filter(|t| t.host).count();
                let placeholders = project.types().nodes().filter(|t| t.placeholder).count();
                let manifests = project.manifests().len();
                let mut summary = match i18n::current() {
                    Lang::English => format!(
                        "{} from {}",
                        crate::words::count(host, "game node type"),
                        crate::words::count(manifests, "manifest")
                    ),
                    Lang::Chinese => format!("{host} 个游戏节点类型，来自 {manifests} 个清单"),
                };
                if placeholders > 0 {
                    summary.push_str(&match i18n::current() {
                        Lang::English => {
                            format!(", {}", crate::words::count(placeholders, "placeholder"))
                        }
                        Lang::Chinese => format!("，{placeholders} 个占位类型"),
                    });
                }
                ui.label(summary)
                    .on_hover_text(project.root().display().to_string());
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .button(t("New Tree"))
                        .on_hover_text(t("A tree of this project, in a new tab"))
                        .clicked()
                    {
                        self.action = Some(ProjectAction::NewTree);
                    }
                    if ui
                        .button(t("Declare Action…"))
                        .on_hover_text(t(
                            "Declare an action or condition the game does not have yet: it is saved in the project's manifest as a placeholder",
                        ))
                        .clicked()
                    {
                        self.action = Some(ProjectAction::Declare);
                    }
                    if ui
                        .small_button("⟳")
                        .on_hover_text(t("Read the project's manifests again"))
                        .clicked()
                    {
                        self.action = Some(ProjectAction::Reload);
                    }
                });
                let trees = project.trees();
                if !trees.is_empty() {
                    ui.label(RichText::new(t("Trees")).small().weak());
                    for tree in trees {
                        let name = tree
                            .file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                        if ui.link(name).clicked() {
                            self.action = Some(ProjectAction::OpenTree(tree));
                        }
                    }
                }
                problems_ui(ui, project.problems());
            });
        if !own.is_empty() {
            problems_ui(ui, own);
        }
        ui.separator();
    }
}

/// The manifests that could not be used, one located line each.
fn problems_ui(ui: &mut egui::Ui, problems: &[ManifestError]) {
    for problem in problems {
        ui.add(
            egui::Label::new(
                RichText::new(format!("⚠ {}: {}", problem.path, problem.message))
                    .color(ui.visuals().error_fg_color),
            )
            .wrap(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panels::testing::Harness;
    use crate::view::UiCx;
    use crate::Session;

    #[test]
    fn shows_the_project_and_its_broken_manifests_located() {
        let dir = tempfile::tempdir().unwrap();
        arbor_editor_model::project::write_game_folder(dir.path()).unwrap();
        let broken = dir.path().join("manifests/zbroken.json");
        std::fs::write(broken, "{\n\"format\": }").unwrap();
        let project = Project::open(dir.path()).unwrap();
        let mut panel = ProjectPanel::default();
        let mut h = Harness::new(Session::default());
        let mut draw = |ui: &mut egui::Ui, _: &mut UiCx<'_>| panel.ui(ui, Some(&project), &[]);
        h.frame(&mut draw);
        h.frame(&mut draw);
        assert!(h.shows("2 game node types from 2 manifests"));
        assert!(
            h.painted.iter().any(|p| p
                .text
                .contains("manifests/zbroken.json: expected value at line 2")),
            "the broken manifest is named, with its line"
        );
        h.click_text("Declare Action…", &mut draw);
        assert_eq!(panel.action, Some(ProjectAction::Declare));
    }
}
