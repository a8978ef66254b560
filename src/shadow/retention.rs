//! Retention: how many versions and how many bytes the store keeps
//! (`fararoni.shadow.maxVersions`, default 50 per file;
//! `fararoni.shadow.maxSize`, default 256 MiB of distinct contents), and the
//! plan `shadow prune` and automatic eviction follow: oldest first, never
//! the newest version of a file, never a version the last session's `undo`
//! needs.

use std::collections::{BTreeMap, HashMap, HashSet};

use camino::Utf8PathBuf;

use super::store::{Shadow, Version};
use super::ShadowError;
use crate::git::Repo;
use crate::settings::read::{self as config, SettingWarning};

/// The store's retention limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retention {
    /// Versions kept per file (`fararoni.shadow.maxVersions`).
    pub max_versions: usize,
    /// Bytes of distinct contents kept overall (`fararoni.shadow.maxSize`,
    /// with an optional `k`, `m` or `g` suffix).
    pub max_bytes: u64,
}

impl Default for Retention {
    fn default() -> Retention {
        Retention {
            max_versions: 50,
            max_bytes: 256 * 1024 * 1024,
        }
    }
}

impl Retention {
    /// Returns the limits configured for `repo` (environment, then git
    /// config), defaults for unset keys; a limit set below its floor
    /// ([`crate::settings::read::PROTECTIVE`]) is raised to it, with a warning.
    pub fn from_config(repo: &Repo) -> Result<(Retention, Vec<SettingWarning>), ShadowError> {
        let mut r = Retention::default();
        let mut warnings = Vec::new();
        if let Some(n) = config::protective_value(
            crate::settings::of(Some(repo)),
            &config::SHADOW_MAX_VERSIONS,
            &mut warnings,
        )? {
            r.max_versions = usize::try_from(n as u64).unwrap_or(usize::MAX);
        }
        if let Some(n) = config::protective_value(
            crate::settings::of(Some(repo)),
            &config::SHADOW_MAX_SIZE,
            &mut warnings,
        )? {
            r.max_bytes = n as u64;
        }
        Ok((r, warnings))
    }
}

/// Parses a duration such as `30d`, `12h`, `90m`, `45s`, `2w` or `1d12h`
/// into seconds.
pub fn parse_duration(s: &str) -> Option<u64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    let mut digits = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let n: u64 = digits.parse().ok()?;
        digits.clear();
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 7 * 86_400,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    if !digits.is_empty() {
        return None;
    }
    Some(total)
}

/// What to drop.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rules {
    /// Keep the newest N versions of each file.
    pub keep: Option<usize>,
    /// Drop versions taken before this instant (seconds since the epoch).
    pub older_than: Option<i64>,
    /// Drop the oldest versions until distinct contents fit in this size.
    pub max_bytes: Option<u64>,
}

/// Which versions a prune removes.
#[derive(Debug, Clone, Default)]
pub struct PrunePlan {
    /// Versions to remove, oldest first.
    pub remove: Vec<Version>,
    /// Versions the rules selected but that are kept: the newest of their
    /// file, or needed by `undo` of the last session.
    pub protected: Vec<Version>,
    /// Bytes freed once the versions are removed.
    pub freed: u64,
}

fn id_of(v: &Version) -> (u64, u64, String, u64) {
    match v.id {
        Some((dev, ino)) => (dev, ino, String::new(), 0),
        None => (0, 0, v.path.to_string(), v.number),
    }
}

/// Plans which versions of `all` to remove under `rules`.
pub(crate) fn plan(
    shadow: &Shadow,
    all: &BTreeMap<Utf8PathBuf, Vec<Version>>,
    rules: &Rules,
) -> PrunePlan {
    let protected_idx = shadow.protected();
    let is_protected = |v: &Version, newest: u64| {
        v.number == newest
            || protected_idx
                .get(v.path.as_str())
                .is_some_and(|s| s.contains(&v.number))
    };
    let mut out = PrunePlan::default();
    let mut removed: HashSet<(Utf8PathBuf, u64)> = HashSet::new();
    for versions in all.values() {
        let Some(newest) = versions.last().map(|v| v.number) else {
            continue;
        };
        let n = versions.len();
        for (i, v) in versions.iter().enumerate() {
            let by_keep = rules.keep.is_some_and(|k| i + k < n);
            let by_age = rules
                .older_than
                .is_some_and(|cutoff| v.unix_time().is_some_and(|t| t < cutoff));
            if by_keep || by_age {
                if is_protected(v, newest) {
                    out.protected.push(v.clone());
                } else {
                    removed.insert((v.path.clone(), v.number));
                    out.remove.push(v.clone());
                }
            }
        }
    }
    // How many surviving names each content has, and the bytes held.
    let mut links: HashMap<(u64, u64, String, u64), (usize, u64)> = HashMap::new();
    for v in all.values().flatten() {
        if !removed.contains(&(v.path.clone(), v.number)) {
            let e = links.entry(id_of(v)).or_insert((0, v.size));
            e.0 += 1;
        }
    }
    if let Some(max) = rules.max_bytes {
        let mut total: u64 = links.values().map(|(_, size)| size).sum();
        let mut candidates: Vec<(&Version, u64)> = all
            .values()
            .flat_map(|vs| {
                let newest = vs.last().map_or(0, |v| v.number);
                vs.iter().map(move |v| (v, newest))
            })
            .filter(|(v, newest)| {
                !removed.contains(&(v.path.clone(), v.number)) && !is_protected(v, *newest)
            })
            .collect();
        candidates.sort_by_key(|(v, _)| (v.unix_time().unwrap_or(0), v.number));
        for (v, _) in candidates {
            if total <= max {
                break;
            }
            if let Some(e) = links.get_mut(&id_of(v)) {
                e.0 -= 1;
                if e.0 == 0 {
                    total = total.saturating_sub(e.1);
                }
            }
            out.remove.push(v.clone());
        }
    }
    // Bytes freed: contents whose every name is removed.
    let mut all_links: HashMap<(u64, u64, String, u64), (usize, u64)> = HashMap::new();
    for v in all.values().flatten() {
        all_links.entry(id_of(v)).or_insert((0, v.size)).0 += 1;
    }
    let mut gone: HashMap<(u64, u64, String, u64), usize> = HashMap::new();
    for v in &out.remove {
        *gone.entry(id_of(v)).or_insert(0) += 1;
    }
    out.freed = gone
        .iter()
        .filter_map(|(id, n)| {
            all_links
                .get(id)
                .filter(|(total, _)| total == n)
                .map(|(_, s)| *s)
        })
        .sum();
    out.remove
        .sort_by_key(|v| (v.unix_time().unwrap_or(0), v.path.clone(), v.number));
    out
}

impl Shadow {
    /// Plans a prune: versions beyond the newest `keep` of each file and
    /// versions older than `older_than` seconds; with neither, the
    /// configured retention limits.
    pub fn plan_prune(
        &self,
        keep: Option<usize>,
        older_than: Option<u64>,
    ) -> Result<PrunePlan, ShadowError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let rules = if keep.is_none() && older_than.is_none() {
            Rules {
                keep: Some(self.retention().max_versions),
                older_than: None,
                max_bytes: Some(self.retention().max_bytes),
            }
        } else {
            Rules {
                keep,
                older_than: older_than.map(|s| now.saturating_sub(s as i64)),
                max_bytes: None,
            }
        };
        Ok(plan(self, &self.all_versions()?, &rules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_durations() {
        assert_eq!(parse_duration("30d"), Some(30 * 86_400));
        assert_eq!(parse_duration("1d12h"), Some(36 * 3600));
        assert_eq!(parse_duration("90m"), Some(5400));
        assert_eq!(parse_duration("2w"), Some(14 * 86_400));
        assert_eq!(parse_duration("12"), None);
        assert_eq!(parse_duration("3y"), None);
        assert_eq!(parse_duration(""), None);
    }
}
