//! Loading a variant file (`format::VariantFile`): its header and shape checked, its base
//! tree file read through the bounded reader and parsed, the overrides applied. Every
//! problem is located in the variant file (the overrides) or in the base file (its own).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::problem::{Problem, ProblemKind};
use super::{source, LoadOptions};
use crate::format::{Overrides, TreeFile, VariantFile, VARIANT_FORMAT, VARIANT_VERSION};

/// A variant file's text parsed, its shape and version checked (its base is not read).
pub(crate) fn parse(text: &str, origin: &Arc<str>) -> Result<VariantFile, Vec<Problem>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let variant: VariantFile = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let at = crate::format::json_path(e.path());
        vec![Problem::new(
            origin,
            at,
            ProblemKind::Shape(e.into_inner().to_string()),
        )]
    })?;
    if variant.version != VARIANT_VERSION {
        return Err(vec![Problem::new(
            origin,
            "$.version",
            ProblemKind::Shape(format!(
                "`{VARIANT_FORMAT}` version {}: this build reads version {VARIANT_VERSION}",
                variant.version
            )),
        )]);
    }
    Ok(variant)
}

/// The base tree of the variant `text` with its overrides applied, and the base file's
/// path (where its subtrees are found).
pub(crate) fn resolve(
    text: &str,
    origin: &Arc<str>,
    path: Option<&Path>,
    opts: &LoadOptions,
) -> Result<(TreeFile, PathBuf), Vec<Problem>> {
    let variant = parse(text, origin)?;
    let folder = path
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .or_else(|| opts.project_root.clone())
        .unwrap_or_else(|| PathBuf::from("."));
    let base = folder.join(&variant.base);
    if !opts.allow_outside_root {
        let inside = |root: &Path| {
            let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            canonical(&base).starts_with(canonical(root))
        };
        if let Some(root) = &opts.project_root {
            if !inside(root) {
                return Err(vec![Problem::new(
                    origin,
                    "$.base",
                    ProblemKind::Shape(format!(
                        "the base `{}` is outside the project folder {}; the host must allow \
                         this explicitly",
                        variant.base,
                        root.display()
                    )),
                )]);
            }
        }
    }
    let base_origin: Arc<str> = Arc::from(base.display().to_string());
    let base_text = source::read(&base, &base_origin, opts)?;
    let mut file = source::parse(&base_text, &base_origin, opts)?;
    apply(&variant.overrides, &mut file, origin, "$.overrides.")?;
    if !variant.name.is_empty() {
        file.name = variant.name;
    }
    Ok((file, base))
}

/// `overrides` written into `file`; a problem per override that names what `file` lacks,
/// located at `prefix` + the override's path.
pub(crate) fn apply(
    overrides: &Overrides,
    file: &mut TreeFile,
    origin: &Arc<str>,
    prefix: &str,
) -> Result<(), Vec<Problem>> {
    overrides.apply(file).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| {
                Problem::new(
                    origin,
                    format!("{prefix}{}", e.path),
                    ProblemKind::Shape(e.message),
                )
            })
            .collect()
    })
}
